package engine

import (
	"math/rand/v2"
	"time"
)

// RetryPolicy spaces out the retries of a failing vertex in watch mode:
// exponential from Base to Max, with ±20% jitter. Failures never become
// permanent.
type RetryPolicy struct {
	Base, Max time.Duration
}

// jitter spreads d by ±20% so many vertices failing together do not
// retry in lockstep.
func jitter(d time.Duration) time.Duration {
	return d + time.Duration((rand.Float64()*0.4-0.2)*float64(d))
}

type retryState struct {
	attempts int
	until    time.Time
}

func (r *retryState) waiting(now time.Time) bool { return now.Before(r.until) }

// fail records a failure and returns when to try again.
func (r *retryState) fail(now time.Time, p RetryPolicy) time.Time {
	d := p.Base << min(r.attempts, 30)
	if d <= 0 || d > p.Max {
		d = p.Max
	}
	r.attempts++
	r.until = now.Add(jitter(d))
	return r.until
}

// remediate records a failed health check and returns when to remediate:
// the first time at once, then backing off as failures do.
func (r *retryState) remediate(now time.Time, p RetryPolicy) time.Time {
	if r.attempts == 0 {
		r.attempts = 1
		r.until = now
		return now
	}
	return r.fail(now, p)
}

func (r *retryState) reset() { *r = retryState{} }
