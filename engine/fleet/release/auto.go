package release

import (
	"context"
	"fmt"
	"time"

	"github.com/reactive-ccm/ccm/watchers/clock"
)

// AutoPoll is how often Auto reads the wave's health by default.
const AutoPoll = 500 * time.Millisecond

// Auto widens a rollout by itself (push --auto STEP,WAIT): by Step each
// time every host of its wave has applied the revision and stayed healthy
// for Wait, until every host has it; when a host of the wave fails, it
// aborts the rollout, so the wave goes back.
type Auto struct {
	Step float64
	Wait time.Duration
	// Sign signs the bundle the wave goes back to (see Object.Abort).
	Sign Signer
	// Poll is how often the wave is read; AutoPoll when zero.
	Poll time.Duration
	// Clock is the real clock when nil.
	Clock clock.Clock
	// Widened, when set, hears each new share.
	Widened func(percent float64)
}

// WaveHealth is how the hosts of a rollout's wave stand.
type WaveHealth struct {
	// Failed names the hosts of the wave that failed, "" when none did.
	Failed string
	// Ready is set when every host of the wave applied the revision and
	// is converged.
	Ready bool
}

// Run follows r until every host has its revision, a host of the wave
// fails (the rollout is aborted, and the error says who), or ctx ends.
// wave reads the wave's health; it is called once per Poll.
func (a Auto) Run(ctx context.Context, o Object, r *Rollout, wave func(context.Context) (WaveHealth, error)) error {
	clk, poll := a.Clock, a.Poll
	if clk == nil {
		clk = clock.Real()
	}
	if poll <= 0 {
		poll = AutoPoll
	}
	var healthy time.Time
	for {
		done, err := a.step(ctx, o, r, wave, &healthy, clk.Now())
		if done || err != nil {
			return err
		}
		t := clk.NewTimer(poll)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C():
		}
	}
}

// step reads the wave once and acts on it; healthy is when the wave was
// first seen ready, zero while it is not. It reports whether every host
// has the revision now.
func (a Auto) step(ctx context.Context, o Object, r *Rollout, wave func(context.Context) (WaveHealth, error), healthy *time.Time, now time.Time) (bool, error) {
	h, err := wave(ctx)
	if err != nil {
		return false, err
	}
	if h.Failed != "" {
		if err := o.Abort(ctx, a.Sign); err != nil {
			return false, fmt.Errorf("the wave failed (%s), and aborting failed: %w", h.Failed, err)
		}
		return false, fmt.Errorf("%s: rollout of revision %d aborted, its hosts go back: %s", o.Name, r.Seq, h.Failed)
	}
	switch {
	case !h.Ready:
		*healthy = time.Time{}
	case healthy.IsZero():
		*healthy = now
	case now.Sub(*healthy) >= a.Wait:
		p := min(100, r.Percent+a.Step)
		if err := o.Widen(ctx, r, p); err != nil {
			return false, err
		}
		if a.Widened != nil {
			a.Widened(p)
		}
		*healthy = time.Time{}
		return p >= 100, nil
	}
	return false, nil
}
