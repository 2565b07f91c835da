package report_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn/natstest"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
)

// rolloutFleet is a fleet on a real server whose bundle src is staged to
// half of the hosts; it returns the rollout and a host in its wave and
// one outside.
func rolloutFleet(t *testing.T) (*natsconn.Conn, release.Object, *release.Rollout, string, string) {
	t.Helper()
	c := conn(t, lazy(t, natstest.Start(t, natstest.Options{})))
	ctx := t.Context()
	if err := report.Init(ctx, c.JetStream(), report.Limits{}); err != nil {
		t.Fatal(err)
	}
	obs, err := release.Open(ctx, c.JetStream(), "ccm", true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := release.Publish(ctx, obs, "site.tgz", release.Bundle{Data: []byte("current")}, 0); err != nil {
		t.Fatal(err)
	}
	r, err := release.Stage(ctx, obs, "site.tgz", release.Bundle{Data: []byte("next")}, 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	in, out := split(t, r)
	return c, release.Object{Store: obs, Key: "site.tgz", Name: src}, &r, in, out
}

// putStatus stores st as its host's status, as its reporter would.
func putStatus(t *testing.T, c *natsconn.Conn, st report.Status) {
	t.Helper()
	kv, err := c.JetStream().KeyValue(t.Context(), report.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	st.Updated = time.Now()
	b, _ := json.Marshal(st)
	if _, err := kv.Put(t.Context(), st.Host, b); err != nil {
		t.Fatal(err)
	}
}

func TestFollowAutoAbortsWhenTheFleetSaysAHostOfTheWaveFails(t *testing.T) {
	c, o, r, in, out := rolloutFleet(t)
	putStatus(t, c, report.Status{Host: in, Resources: 1, Failed: 1, Applied: applying(r.Digest)})
	putStatus(t, c, report.Status{Host: out, Resources: 1, Converged: 1, Applied: applying("SHA-256=old")})
	err := report.FollowAuto(t.Context(), release.Auto{Step: 50, Poll: time.Millisecond}, c, o, r)
	if err == nil || !strings.Contains(err.Error(), "aborted") || !strings.Contains(err.Error(), in+" failing") {
		t.Fatalf("FollowAuto = %v, want the rollout aborted for %s failing", err, in)
	}
	if got, err := release.ReadRollout(t.Context(), o.Store, o.Key); err != nil || got != nil {
		t.Fatalf("the rollout is still under way: %+v, %v", got, err)
	}
}

func TestFollowAutoWidensOnceTheWaveAppliedTheRevision(t *testing.T) {
	c, o, r, in, out := rolloutFleet(t)
	putStatus(t, c, report.Status{Host: in, Resources: 1, Converged: 1, Applied: applying(r.Digest)})
	putStatus(t, c, report.Status{Host: out, Resources: 1, Converged: 1, Applied: applying("SHA-256=old")})
	var widened []float64
	a := release.Auto{Step: 50, Poll: time.Millisecond, Widened: func(p float64) { widened = append(widened, p) }}
	if err := report.FollowAuto(t.Context(), a, c, o, r); err != nil {
		t.Fatal(err)
	}
	data, _, err := release.Fetch(t.Context(), o.Store, o.Key, 1<<20)
	if err != nil || !bytes.Equal(data, []byte("next")) || len(widened) != 1 || widened[0] != 100 {
		t.Fatalf("after the wave applied it: the object holds %q (%v), widened to %v; want next, widened to 100", data, err, widened)
	}
}

func TestReadViewJudgesTheFleetAgainstTheStore(t *testing.T) {
	c, _, r, in, out := rolloutFleet(t)
	// Both apply the rollout's revision: in should, out should apply the
	// store's current bundle. Their sources name the object, so its
	// targets are read.
	putStatus(t, c, report.Status{Host: in, Resources: 1, Converged: 1, Applied: applying(r.Digest), Sources: applying(r.Digest)})
	putStatus(t, c, report.Status{Host: out, Resources: 1, Converged: 1, Applied: applying(r.Digest), Sources: applying(r.Digest)})
	got, err := report.ReadView(t.Context(), c, report.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	standing := map[string]report.Standing{}
	for _, h := range got {
		standing[h.Host] = h.Standing
	}
	if len(got) != 2 || standing[in] != report.StandingConverged || standing[out] != report.StandingBehind {
		t.Fatalf("ReadView = %v; want %s converged (in the wave) and %s behind (not in it)", standing, in, out)
	}
	if got, err = report.ReadView(t.Context(), c, report.Filter{Standing: report.StandingBehind}); err != nil || len(got) != 1 || got[0].Host != out {
		t.Fatalf("filtered to behind: %+v, %v", got, err)
	}
}

func TestReadViewWithoutAFleet(t *testing.T) {
	c := conn(t, lazy(t, natstest.Start(t, natstest.Options{})))
	if _, err := report.ReadView(t.Context(), c, report.Filter{}); !errors.Is(err, report.ErrNoFleet) {
		t.Fatalf("ReadView = %v, want ErrNoFleet", err)
	}
}
