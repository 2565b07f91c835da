package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
)

// autoPlan is push --auto STEP,WAIT.
type autoPlan struct {
	step float64
	wait time.Duration
	// key signs the bundle the wave goes back to when the rollout aborts.
	key string
}

// parseAuto reads STEP,WAIT ("20%,5m").
func parseAuto(s string) (autoPlan, error) {
	step, wait, ok := strings.Cut(s, ",")
	p, err := parsePercent(step)
	if err != nil || !ok {
		return autoPlan{}, usage(fmt.Errorf("--auto %q: want STEP,WAIT such as 20%%,5m", s))
	}
	d, err := time.ParseDuration(wait)
	if err != nil || d < 0 {
		return autoPlan{}, usage(fmt.Errorf("--auto %q: want STEP,WAIT such as 20%%,5m", s))
	}
	return autoPlan{step: p, wait: d}, nil
}

// autoPoll is how often the health gate reads the fleet's status.
const autoPoll = 500 * time.Millisecond

// run widens the rollout by step each time every host of its wave has
// applied the revision and stayed healthy for wait, until every host has
// it; when a host of the wave fails, it aborts the rollout and says why.
func (a autoPlan) run(ctx context.Context, c *natsconn.Conn, obs jetstream.ObjectStore, loc source.Location, r *release.Rollout, out io.Writer) error {
	var healthy time.Time
	for {
		hosts, err := readWave(ctx, c, loc, r)
		if err != nil {
			return err
		}
		if bad := failedInWave(hosts); bad != "" {
			if err := abort(ctx, obs, loc, a.key); err != nil {
				return fmt.Errorf("the wave failed (%s), and aborting failed: %w", bad, err)
			}
			return fmt.Errorf("%s: rollout of revision %d aborted, its hosts go back: %s", loc, r.Seq, bad)
		}
		switch now := time.Now(); {
		case !waveReady(hosts):
			healthy = time.Time{}
		case healthy.IsZero():
			healthy = now
		case now.Sub(healthy) >= a.wait:
			p := min(100, r.Percent+a.step)
			if err := widen(ctx, obs, loc, r, p); err != nil {
				return err
			}
			fmt.Fprintf(out, "%s: revision %d now goes to %s of the hosts\n", loc, r.Seq, share(p))
			if p >= 100 {
				return nil
			}
			healthy = time.Time{}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(autoPoll):
		}
	}
}

// failedInWave names the hosts of the wave that failed, "" when none did.
func failedInWave(hosts []waveHost) string {
	var bad []string
	for _, h := range hosts {
		switch h.standing {
		case standingFailing, standingUnhealthy, standingRolledBack, standingReload, standingRefused:
			if h.inWave {
				bad = append(bad, h.Host+" "+h.standing)
			}
		}
	}
	return strings.Join(bad, ", ")
}

// waveReady reports whether every host of the wave applied the revision
// and is converged.
func waveReady(hosts []waveHost) bool {
	for _, h := range hosts {
		if h.inWave && (!h.applied || (h.standing != standingConverged && h.standing != standingContested)) {
			return false
		}
	}
	return true
}
