package report

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
)

// WaveHost is a host that runs a rollout's source, and where it stands in
// the rollout.
type WaveHost struct {
	Status
	Standing Standing
	// InWave is set when the host takes the rollout's revision;
	// AppliesRevision when it applies it.
	InWave, AppliesRevision bool
}

// ReadWave reads the hosts that run src, the source of rollout r.
func ReadWave(ctx context.Context, c *natsconn.Conn, src string, r release.Rollout) ([]WaveHost, error) {
	all, err := Statuses(ctx, c)
	if err != nil && !errors.Is(err, ErrNoFleet) {
		return nil, err
	}
	return Wave(all, ReadTargets(ctx, c.JetStream(), all), src, r, time.Now()), nil
}

// Wave picks the hosts of all that run src, the source of rollout r, and
// judges them against t at now.
func Wave(all []Status, t Targets, src string, r release.Rollout, now time.Time) []WaveHost {
	var out []WaveHost
	for _, st := range all {
		a := st.AppliedOf(src)
		if a == "" && !slices.ContainsFunc(st.Sources, func(s Revision) bool { return s.Source == src }) {
			continue
		}
		out = append(out, WaveHost{Status: st, Standing: Judge(st, t, now), InWave: release.InWave(st.Host, r), AppliesRevision: a == r.Digest})
	}
	return out
}

// WaveHealth is how the hosts of a wave stand, for release.Auto: who
// failed, and whether every one applied the revision and converged.
func WaveHealth(hosts []WaveHost) release.WaveHealth {
	var bad []string
	ready := true
	for _, h := range hosts {
		if !h.InWave {
			continue
		}
		switch h.Standing {
		case StandingFailing, StandingUnhealthy, StandingRolledBack, StandingReload, StandingRefused:
			bad = append(bad, h.Host+" "+string(h.Standing))
		}
		if !h.AppliesRevision || (h.Standing != StandingConverged && h.Standing != StandingContested) {
			ready = false
		}
	}
	return release.WaveHealth{Failed: strings.Join(bad, ", "), Ready: ready}
}

// FollowAuto runs a's plan on the rollout r of o, judging its wave by the
// fleet's status (ReadWave, WaveHealth).
func FollowAuto(ctx context.Context, a release.Auto, c *natsconn.Conn, o release.Object, r *release.Rollout) error {
	return a.Run(ctx, o, r, func(ctx context.Context) (release.WaveHealth, error) {
		hosts, err := ReadWave(ctx, c, o.Name, *r)
		return WaveHealth(hosts), err
	})
}
