package release_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

// drive runs a.Run under ctx on o's rollout r, answering each read of the wave
// with health(read number), and moves the fake clock on by a.Poll each
// time the loop waits. It returns the shares widened to and Run's error.
func drive(ctx context.Context, t *testing.T, a release.Auto, o release.Object, r *release.Rollout, health func(n int) release.WaveHealth) ([]float64, error) {
	t.Helper()
	clk := clock.NewFake(time.Unix(1_000_000, 0))
	a.Clock, a.Poll = clk, time.Second
	var widened []float64
	a.Widened = func(p float64) { widened = append(widened, p) }
	reads := 0
	done := make(chan error, 1)
	go func() {
		done <- a.Run(ctx, o, r, func(context.Context) (release.WaveHealth, error) {
			reads++
			return health(reads), nil
		})
	}()
	for {
		waiting := make(chan error, 1)
		ctx, cancel := context.WithCancel(t.Context())
		now := clk.Now()
		go func() { waiting <- clk.WaitNext(ctx, func(next time.Time) bool { return next.After(now) }) }()
		select {
		case err := <-done:
			cancel()
			return widened, err
		case err := <-waiting:
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			clk.Advance(time.Second)
		}
	}
}

func TestAutoWidensAfterTheWaveStayedHealthyForWait(t *testing.T) {
	o := object(t)
	r := stage(t, o, 10, nil)
	// Ready from the first read, but not at the fourth: the wait starts again.
	health := func(n int) release.WaveHealth { return release.WaveHealth{Ready: n != 4} }
	widened, err := drive(t.Context(), t, release.Auto{Step: 40, Wait: 2 * time.Second}, o, r, health)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{50, 90, 100}; len(widened) != len(want) || widened[0] != 50 || widened[1] != 90 || widened[2] != 100 {
		t.Fatalf("widened to %v, want %v", widened, want)
	}
	if data, _ := holds(t, o); data != "next" {
		t.Fatalf("after the last step the object holds %q", data)
	}
}

func TestAutoWaitsWhileTheWaveIsNotReady(t *testing.T) {
	o := object(t)
	r := stage(t, o, 10, nil)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	health := func(n int) release.WaveHealth {
		if n == 5 {
			cancel()
		}
		return release.WaveHealth{}
	}
	widened, err := drive(ctx, t, release.Auto{Step: 50}, o, r, health)
	if !errors.Is(err, context.Canceled) || len(widened) != 0 {
		t.Fatalf("Run on a wave never ready: %v, widened to %v; want no step and the context's end", err, widened)
	}
}

func TestAutoAbortsWhenAHostOfTheWaveFails(t *testing.T) {
	o := object(t)
	r := stage(t, o, 10, nil)
	health := func(n int) release.WaveHealth {
		if n == 3 {
			return release.WaveHealth{Failed: "web-1 failing"}
		}
		return release.WaveHealth{Ready: true}
	}
	widened, err := drive(t.Context(), t, release.Auto{Step: 10, Wait: time.Hour}, o, r, health)
	if err == nil || !strings.Contains(err.Error(), "aborted, its hosts go back: web-1 failing") || len(widened) != 0 {
		t.Fatalf("Run: %v, widened %v", err, widened)
	}
	if got, _ := release.ReadRollout(t.Context(), o.Store, key); got != nil {
		t.Fatalf("the rollout is still under way: %+v", got)
	}
}

func TestAutoSaysWhenAbortingFails(t *testing.T) {
	o := object(t)
	sign, _ := signer(t)
	r := stage(t, o, 10, sign)
	_, err := drive(t.Context(), t, release.Auto{Step: 10}, o, r, func(int) release.WaveHealth { return release.WaveHealth{Failed: "web-2 refused"} })
	if err == nil || !strings.Contains(err.Error(), "aborting failed") || !errors.Is(err, release.ErrRefused) {
		t.Fatalf("Run without a key for a signed rollout: %v", err)
	}
}
