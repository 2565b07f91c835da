package pkg

import "sync"

// pmLock is held around every package-manager program: shared by status
// checks, which may run together, exclusive for changes, so that no check
// sees a half-done change and no two changes fight over dpkg's or rpm's
// own lock.
var pmLock sync.RWMutex

// lock takes pmLock, exclusively when change is true, and returns its
// release.
func lock(change bool) func() {
	if change {
		pmLock.Lock()
		return pmLock.Unlock
	}
	pmLock.RLock()
	return pmLock.RUnlock
}
