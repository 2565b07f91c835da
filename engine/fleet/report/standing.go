package report

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
)

// Standing sums a host up in a word, as fleet status shows it.
type Standing string

// Standings, worst first.
const (
	StandingStale      Standing = "STALE"
	StandingDuplicate  Standing = "duplicate"
	StandingRefused    Standing = "refused"
	StandingReload     Standing = "reload-failed"
	StandingFailing    Standing = "failing"
	StandingUnhealthy  Standing = "unhealthy"
	StandingRolledBack Standing = "rolled-back"
	StandingBehind     Standing = "behind"
	StandingContested  Standing = "contested"
	StandingConverging Standing = "converging"
	StandingConverged  Standing = "converged"
)

// Healthy reports whether s is converged, converging or contested
// (another program's fight, not the fleet's).
func (s Standing) Healthy() bool {
	return s == StandingConverged || s == StandingConverging || s == StandingContested
}

// Target is what the hosts of a source should apply: the bundle the
// object holds now, or for the hosts in the wave of a rollout under way,
// the rollout's revision.
type Target struct {
	Current string
	Rollout *release.Rollout
}

// Targets are the targets of obj:// sources, by source.
type Targets map[string]Target

// Of returns the revision host should apply, by source.
func (t Targets) Of(host string) map[string]string {
	out := map[string]string{}
	for src, tg := range t {
		out[src] = tg.Current
		if tg.Rollout != nil && release.InWave(host, *tg.Rollout) {
			out[src] = tg.Rollout.Digest
		}
	}
	return out
}

// ReadTargets reads the target of every obj:// source the hosts name; a
// source it cannot read is left out (its hosts are then judged on what
// they report alone).
func ReadTargets(ctx context.Context, js jetstream.JetStream, all []Status) Targets {
	out := Targets{}
	for _, st := range all {
		for _, s := range st.Sources {
			loc, err := source.ParseObject(s.Source)
			if _, seen := out[s.Source]; seen || err != nil {
				continue
			}
			if tg, err := readTarget(ctx, js, loc); err == nil {
				out[s.Source] = tg
			}
		}
	}
	return out
}

func readTarget(ctx context.Context, js jetstream.JetStream, loc source.Location) (Target, error) {
	obs, err := release.Open(ctx, js, loc.Bucket, false)
	if err != nil {
		return Target{}, err
	}
	info, err := obs.GetInfo(ctx, loc.Key)
	if err != nil {
		return Target{}, err
	}
	r, err := release.ReadRollout(ctx, obs, loc.Key)
	return Target{Current: info.Digest, Rollout: r}, err
}

// Judge sums st up against what its host should apply (t) at now: never
// converged while it refused or has not applied the revision it should.
func Judge(st Status, t Targets, now time.Time) Standing {
	current := t.Of(st.Host)
	switch {
	case st.Stale(now):
		return StandingStale
	case st.Duplicate != "":
		return StandingDuplicate
	case refusedCurrent(st, current):
		return StandingRefused
	case st.ReloadError != "":
		return StandingReload
	case st.Failed+st.Blocked > 0:
		return StandingFailing
	case st.Unhealthy > 0:
		return StandingUnhealthy
	case st.RolledBack > 0:
		return StandingRolledBack
	case behind(st, current):
		return StandingBehind
	case st.Contested > 0:
		return StandingContested
	case st.Pending > 0:
		return StandingConverging
	}
	return StandingConverged
}

// refusedCurrent reports whether the host refused the revision its source
// holds now.
func refusedCurrent(st Status, current map[string]string) bool {
	for _, r := range st.Refused {
		if cur, ok := current[r.Source]; ok && cur == r.Revision && st.AppliedOf(r.Source) != cur {
			return true
		}
	}
	return false
}

// behind reports whether the host applies another revision than its
// source holds now.
func behind(st Status, current map[string]string) bool {
	for src, cur := range current {
		if a := st.AppliedOf(src); a != "" && a != cur {
			return true
		}
	}
	return false
}

// Filter selects hosts, as fleet status --revision, --standing and
// --stale do; its zero value keeps every host.
type Filter struct {
	// Revision keeps the hosts applying a revision that starts with it,
	// with or without the digest's SHA-256= prefix (up to
	// release.ShortDigest's length without it).
	Revision string
	Standing Standing
	// Stale keeps only the stale hosts.
	Stale bool
}

// Keep reports whether f keeps the host st, judged s.
func (f Filter) Keep(st Status, s Standing) bool {
	return (f.Standing == "" || s == f.Standing) && (!f.Stale || s == StandingStale) &&
		(f.Revision == "" || slices.ContainsFunc(st.Applied, func(a Revision) bool {
			return strings.HasPrefix(release.ShortDigest(a.Revision), f.Revision) || strings.HasPrefix(a.Revision, f.Revision)
		}))
}

// FromSources is how the fleet sees a host's sources in force: their
// revisions and their last refusals.
func FromSources(in []source.Status) ([]Revision, []Refusal) {
	var revs []Revision
	var refused []Refusal
	for _, st := range in {
		revs = append(revs, Revision{Source: st.Source, Revision: st.Revision, Cached: st.Cached})
		if r := st.Refused; r != nil {
			refused = append(refused, Refusal{Source: st.Source, Revision: r.Revision, Reason: r.Reason, Time: r.Time})
		}
	}
	return revs, refused
}

// AppliedOf returns the revision of src the host applies, "" when none.
func (s Status) AppliedOf(src string) string {
	for _, a := range s.Applied {
		if a.Source == src {
			return a.Revision
		}
	}
	return ""
}
