package writer

import (
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// maxPIDs bounds the processes remembered; the memory is forgotten when
// it fills, so a recycled pid is never named after a process long gone.
const maxPIDs = 1024

// Spotter watches who changes paths, for the witnesses it hands out. Its
// methods are safe for concurrent use.
type Spotter struct {
	log  *slog.Logger
	self int

	mu sync.Mutex
	// g is the fanotify group, open while a directory is marked.
	g *group
	// refused is set once fanotify could not be used; it is not tried
	// again, and witnesses only look for open files.
	refused bool
	// dirs holds the marked directories by path, byKey by the key events
	// carry.
	dirs  map[string]*dir
	byKey map[string]*dir
	// paths counts the witnesses of each watched path.
	paths map[string]int
	// last is the last writer seen of each watched path.
	last map[string]sighting
	// seq orders sightings.
	seq uint64
	// pids remembers the processes seen in marked directories, so one
	// that exits right after its change (sed renaming its temporary
	// file) is still named.
	pids map[int]described
}

// dir is a marked directory and how many witnesses use it.
type dir struct {
	path  string
	mark  *dirMark
	users int
}

// sighting is a process seen changing a watched path.
type sighting struct {
	who string
	seq uint64
}

// New returns a spotter; nothing is opened until a path is watched.
func New(log *slog.Logger) *Spotter {
	return &Spotter{
		log: log, self: os.Getpid(),
		dirs: map[string]*dir{}, byKey: map[string]*dir{}, paths: map[string]int{},
		last: map[string]sighting{}, pids: map[int]described{},
	}
}

// Watch starts watching who changes paths (clean absolute paths) and
// returns the witness to ask; Close it when done. A directory that does
// not exist or cannot be marked is left out.
func (s *Spotter) Watch(paths []string) *Witness {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := &Witness{s: s, paths: paths}
	for _, p := range paths {
		s.paths[p]++
		if d := s.markLocked(filepath.Dir(p)); d != nil {
			w.dirs = append(w.dirs, d)
		}
	}
	return w
}

// Marks returns how many directories are marked.
func (s *Spotter) Marks() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.dirs)
}

// markLocked returns path's mark, adding a use, or nil. Callers hold
// s.mu.
func (s *Spotter) markLocked(path string) *dir {
	if d, ok := s.dirs[path]; ok {
		d.users++
		return d
	}
	if !s.openLocked() {
		return nil
	}
	m, err := s.g.mark(path)
	if err != nil {
		s.log.Debug("cannot watch who changes this directory", "dir", path, "error", err)
		s.closeIfIdleLocked()
		return nil
	}
	d := &dir{path: path, mark: m, users: 1}
	s.dirs[path], s.byKey[m.key] = d, d
	return d
}

// openLocked opens the group unless it is open or was refused. Callers
// hold s.mu.
func (s *Spotter) openLocked() bool {
	if s.g != nil || s.refused {
		return s.g != nil
	}
	g, err := openGroup()
	if err != nil {
		s.refused = true
		s.log.Info("cannot watch who changes contested resources; only programs holding them open will be named", "error", err)
		return false
	}
	s.g = g
	go s.read(g)
	return true
}

// release drops a use of each of w's directories and paths. Callers hold
// s.mu.
func (s *Spotter) releaseLocked(w *Witness) {
	for _, d := range w.dirs {
		if d.users--; d.users == 0 {
			s.g.unmark(d.mark)
			delete(s.dirs, d.path)
			delete(s.byKey, d.mark.key)
		}
	}
	for _, p := range w.paths {
		if s.paths[p]--; s.paths[p] == 0 {
			delete(s.paths, p)
			delete(s.last, p)
		}
	}
	s.closeIfIdleLocked()
}

// closeIfIdleLocked closes the group once no directory is marked.
// Callers hold s.mu.
func (s *Spotter) closeIfIdleLocked() {
	if s.g == nil || len(s.dirs) > 0 {
		return
	}
	g := s.g
	s.g = nil
	clear(s.pids)
	// Closing waits for the reader to let go of the descriptor, and the
	// reader takes s.mu: close without it.
	go func() {
		if err := g.close(); err != nil {
			s.log.Debug("fanotify", "error", err)
		}
	}()
}

// read drains g each time it has events, until g is closed or replaced.
func (s *Spotter) read(g *group) {
	rc, err := g.file.SyscallConn()
	if err != nil {
		return
	}
	// The callback returns false to wait for more; Read returns once the
	// file is closed.
	_ = rc.Read(func(uintptr) bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.g != g {
			return true
		}
		s.drainLocked()
		return false
	})
}

// drainLocked reads what the group has queued. Callers hold s.mu.
func (s *Spotter) drainLocked() {
	if s.g == nil {
		return
	}
	// One process usually makes several events in a row (a write, then
	// its close); it is described once.
	var lastPID int
	var lastWho string
	s.g.drain(func(c change) {
		if c.pid == s.self || c.pid <= 0 {
			return
		}
		d, ok := s.byKey[string(c.dir)]
		if !ok {
			return
		}
		path := filepath.Join(d.path, string(c.name))
		_, watched := s.paths[path]
		if c.pid != lastPID || (watched && lastWho == "") {
			lastPID, lastWho = c.pid, s.who(c.pid, watched)
		}
		if watched && lastWho != "" {
			s.seq++
			s.last[path] = sighting{who: lastWho, seq: s.seq}
		}
	})
}

// fresh is how long a description of a process stands for its next
// changes: one write is several events (a truncation, the write, the
// close), often read in separate batches, and each would read /proc
// again. Only a process that exec'd another program within it is named
// as it was before.
const fresh = 50 * time.Millisecond

// described is what /proc said of a process, and when.
type described struct {
	who string
	at  time.Time
}

// who describes pid, remembering it. For a change of a watched path it
// always names someone: from /proc (unless read moments ago), from
// memory, or by pid alone. For other entries it reads /proc only for a
// process not seen yet, and returns "" when it has nothing to say.
func (s *Spotter) who(pid int, watched bool) string {
	now := time.Now()
	if known, ok := s.pids[pid]; ok && (!watched || now.Sub(known.at) < fresh) {
		return known.who
	}
	if d, ok := describe(pid); ok {
		if len(s.pids) >= maxPIDs {
			clear(s.pids)
		}
		s.pids[pid] = described{who: d, at: now}
		return d
	}
	if known, ok := s.pids[pid]; ok {
		return known.who
	}
	if watched {
		return gone(pid)
	}
	return ""
}
