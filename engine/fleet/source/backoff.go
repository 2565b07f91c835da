package source

import (
	"math/rand/v2"
	"time"
)

// Fetch retries back off from retryBase to retryMax.
const (
	retryBase = time.Second
	retryMax  = 5 * time.Minute
)

// jitter spreads d by ±20%, so a fleet does not hit a server in lockstep.
func jitter(d time.Duration) time.Duration {
	return d + time.Duration((rand.Float64()*0.4-0.2)*float64(d))
}

// backoff is the delay before attempt n+1 after n failures in a row.
func backoff(n int) time.Duration {
	d := retryBase << min(n, 20)
	if d <= 0 || d > retryMax {
		d = retryMax
	}
	return jitter(d)
}
