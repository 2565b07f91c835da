package health

import "time"

// SetDefaultTimeout makes checks parsed until restore is called default
// to d, so a test sees the default expire without waiting for it.
func SetDefaultTimeout(d time.Duration) (restore func()) {
	defaultTimeout = d
	return func() { defaultTimeout = DefaultTimeout }
}
