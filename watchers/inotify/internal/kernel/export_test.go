package kernel

// ReadSize is the size of the buffer each read fills at most.
const ReadSize = readSize

// Feed makes the next reads of in return reads, one each, as if the
// kernel had queued them; then in reads from the kernel again. counted,
// when not nil, is called before each of those reads.
func (in *Instance) Feed(counted func(), reads ...[]byte) {
	in.turn.Lock()
	defer in.turn.Unlock()
	kernel := in.read
	in.read = func(fd int, p []byte) (int, error) {
		if len(reads) == 0 {
			return kernel(fd, p)
		}
		if counted != nil {
			counted()
		}
		n := copy(p, reads[0])
		reads = reads[1:]
		return n, nil
	}
}

// Wd is the watch descriptor dir's events carry.
func (in *Instance) Wd(dir string) int32 {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.byPath[dir].wd
}

// OnMissedTurn calls missed each time the reader finds the turn taken by
// a Drain.
func (in *Instance) OnMissedTurn(missed func()) { in.missed = missed }
