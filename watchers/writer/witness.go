package writer

// Witness watches who changes a set of paths, for as long as it is open.
// Its methods are safe for concurrent use.
type Witness struct {
	s     *Spotter
	paths []string
	// dirs are the marked directories it uses; guarded by s.mu.
	dirs   []*dir
	closed bool
}

// Writer describes the process other than this one that last changed one
// of the paths since they were first watched (by this witness or one
// still open beside it): "pid 1234 (sed -i s/a/b/ /etc/motd) uid 0", "pid 1234 (exited)" when it was gone before it could
// be named. When none was seen it names a process holding one of the paths
// open for writing, and otherwise returns "", as it does once closed.
// Events queued before the call are taken into account.
func (w *Witness) Writer() string {
	s := w.s
	s.mu.Lock()
	if w.closed {
		s.mu.Unlock()
		return ""
	}
	s.drainLocked()
	var best sighting
	for _, p := range w.paths {
		if l, ok := s.last[p]; ok && l.seq > best.seq {
			best = l
		}
	}
	s.mu.Unlock()
	if best.who != "" {
		return best.who
	}
	return holder(w.paths, s.self)
}

// Close stops watching.
func (w *Witness) Close() {
	s := w.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if w.closed {
		return
	}
	w.closed = true
	s.releaseLocked(w)
	w.dirs = nil
}
