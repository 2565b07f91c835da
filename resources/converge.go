package resources

import (
	"context"
	"fmt"
	"time"
)

// Outcome is what one converge cycle observed and did.
type Outcome struct {
	// Before is the state found by the first Check.
	Before Status
	// After is the state found by the re-check after a non-noop Apply;
	// equal to Before when nothing was applied.
	After Status
	// Applied is true when Apply was called.
	Applied bool
	Change  Change
	// CheckTime and ApplyTime are the time spent in Check (both calls)
	// and in Apply.
	CheckTime, ApplyTime time.Duration
}

// Converge runs one cycle on r: Check; when the state is not desired or a
// refresh is pending, Apply; after a non-noop Apply, Check again and
// return an error wrapping ErrDesiredStateFailed if the state is still not
// desired. It is the whole of what the engine asks of a resource.
func Converge(ctx context.Context, r Resource, refresh, noop bool) (Outcome, error) {
	return ConvergeCycle(ctx, r, Cycle{Refresh: refresh, Noop: noop})
}

// Cycle says how ConvergeCycle runs.
type Cycle struct {
	Refresh, Noop bool
	// BeforeApply, when set, runs once the Check found work, just before
	// Apply: where the engine keeps what a rollback would restore. Its
	// error ends the cycle before anything changed.
	BeforeApply func(ctx context.Context) error
	// AfterApply, when set, runs once Apply changed the resource, just
	// before the check that verifies it: where the engine reads the
	// events the change itself caused.
	AfterApply func()
}

// ConvergeCycle is Converge with a hook before Apply.
func ConvergeCycle(ctx context.Context, r Resource, c Cycle) (Outcome, error) {
	refresh, noop := c.Refresh, c.Noop
	start := time.Now()
	st, err := r.Check(ctx)
	out := Outcome{Before: st, After: st, CheckTime: time.Since(start)}
	if err != nil {
		return out, err
	}
	if st.Desired && !refresh {
		return out, nil
	}
	if c.BeforeApply != nil && !noop {
		if err := c.BeforeApply(ctx); err != nil {
			return out, err
		}
	}
	out.Applied = true
	start = time.Now()
	out.Change, err = r.Apply(ctx, Request{Status: st, Refresh: refresh, Noop: noop})
	out.ApplyTime = time.Since(start)
	if err != nil || noop {
		return out, err
	}
	if c.AfterApply != nil {
		c.AfterApply()
	}
	start = time.Now()
	out.After, err = r.Check(ctx)
	out.CheckTime += time.Since(start)
	if err != nil {
		return out, err
	}
	if !out.After.Desired {
		return out, fmt.Errorf("%w: %s", ErrDesiredStateFailed, out.After.Reason())
	}
	return out, nil
}
