package textfile

import "sync"

// locks holds a mutex per path being edited, with how many hold or
// wait for it, so the map forgets paths no one edits.
var (
	locksMu sync.Mutex
	locks   = map[string]*pathLock{}
)

type pathLock struct {
	sync.Mutex
	users int
}

// Lock takes this process's lock on path and returns its release. Every
// read-modify-replace of a file that other resources edit too runs under
// it, so one's replacement never drops another's edit.
func Lock(path string) (unlock func()) {
	locksMu.Lock()
	l := locks[path]
	if l == nil {
		l = &pathLock{}
		locks[path] = l
	}
	l.users++
	locksMu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		locksMu.Lock()
		if l.users--; l.users == 0 {
			delete(locks, path)
		}
		locksMu.Unlock()
	}
}
