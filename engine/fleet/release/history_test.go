package release_test

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
)

// TestHistoryOrderAndTrim: revisions are listed by number (10 after 9),
// only the key's own, the newest copy of what the object holds marked
// current, and the oldest trimmed beyond keep.
func TestHistoryOrderAndTrim(t *testing.T) {
	o := object(t)
	ctx := t.Context()
	for i := 1; i <= 11; i++ {
		data := "v" + strconv.Itoa(i)
		if i == 11 {
			data = "v10"
		}
		if _, err := release.Publish(ctx, o.Store, o.Key, release.Bundle{Data: []byte(data)}, 12); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := release.Publish(ctx, o.Store, o.Key+".old", release.Bundle{Data: []byte("other")}, 0); err != nil {
		t.Fatal(err)
	}
	all, err := release.History(ctx, o.Store, o.Key)
	if err != nil || len(all) != 11 {
		t.Fatalf("history %d entries, %v", len(all), err)
	}
	var seqs []string
	var current []string
	for _, e := range all {
		seqs = append(seqs, strconv.Itoa(e.Seq))
		if e.Current {
			current = append(current, strconv.Itoa(e.Seq))
		}
	}
	if strings.Join(seqs, ",") != "1,2,3,4,5,6,7,8,9,10,11" || strings.Join(current, ",") != "11" {
		t.Fatalf("revisions %s, current %s; want 1 to 11, 11 current (10 holds the same bytes)", strings.Join(seqs, ","), current)
	}
	if data, err := release.Read(ctx, o.Store, all[8]); err != nil || string(data) != "v9" {
		t.Fatalf("revision 9 reads %q, %v", data, err)
	}
	if _, err := release.Publish(ctx, o.Store, o.Key, release.Bundle{Data: []byte("v12")}, 3); err != nil {
		t.Fatal(err)
	}
	all, _ = release.History(ctx, o.Store, o.Key)
	if len(all) != 3 || all[0].Seq != 10 || all[2].Seq != 12 || !all[2].Current {
		t.Fatalf("after trimming to 3: %+v", all)
	}
	if other, _ := release.History(ctx, o.Store, o.Key+".old"); len(other) != 1 {
		t.Fatalf("trimming %s touched %s: %+v", o.Key, o.Key+".old", other)
	}
}

// TestRolloutErrors: what a rollout needs, and says when it is missing.
func TestRolloutErrors(t *testing.T) {
	o := object(t)
	ctx := t.Context()
	if _, err := release.Stage(ctx, o.Store, o.Key, release.Bundle{Data: []byte("next")}, 0, 10); err == nil ||
		!strings.Contains(err.Error(), "release: site.tgz holds no bundle for the hosts outside the canary (push one without --canary first)") {
		t.Fatalf("staging over nothing: %v", err)
	}
	if _, err := o.OpenRollout(ctx); err == nil || err.Error() != "obj://ccm/site.tgz: no rollout under way" {
		t.Fatalf("no rollout: %v", err)
	}
	if _, err := o.Store.Put(ctx, jetstream.ObjectMeta{Name: release.RolloutName(o.Key)}, bytes.NewReader([]byte("{"))); err != nil {
		t.Fatal(err)
	}
	if _, err := release.ReadRollout(ctx, o.Store, o.Key); err == nil || !strings.HasPrefix(err.Error(), "release: the rollout record of site.tgz is damaged: ") {
		t.Fatalf("a damaged record: %v", err)
	}
	if err := release.End(ctx, o.Store, o.Key); err != nil {
		t.Fatal(err)
	}
	if err := release.End(ctx, o.Store, o.Key); err != nil {
		t.Fatalf("ending no rollout: %v", err)
	}
	err := release.Promote(ctx, o.Store, o.Key, release.Rollout{Seq: 7})
	if !errors.Is(err, jetstream.ErrObjectNotFound) || !strings.HasPrefix(err.Error(), "release: revision 7 of site.tgz: ") {
		t.Fatalf("promoting a revision not kept: %v", err)
	}
}

// TestStageKeepsTheRevisionAside: a staged revision is in the history,
// the object still holds the old bundle, and a later push for everyone
// ends the rollout.
func TestStageKeepsTheRevisionAside(t *testing.T) {
	o := object(t)
	r := stage(t, o, 25, nil)
	if r.Seq != 2 || r.Percent != 25 || r.Started.IsZero() {
		t.Fatalf("rollout %+v", r)
	}
	if data, _ := holds(t, o); data != "current" {
		t.Fatalf("staging changed the object: %q", data)
	}
	data, _, err := release.Fetch(t.Context(), o.Store, release.HistoryObject(o.Key, r.Seq), 100)
	if err != nil || string(data) != "next" {
		t.Fatalf("revision %d holds %q, %v", r.Seq, data, err)
	}
	publish(t, o, "for everyone", nil)
	if got, err := release.ReadRollout(t.Context(), o.Store, o.Key); got != nil || err != nil {
		t.Fatalf("a push for every host left the rollout %+v, %v", got, err)
	}
}

func TestInWaveBounds(t *testing.T) {
	for i := range 200 {
		h := "host-" + strconv.Itoa(i)
		if release.InWave(h, release.Rollout{Digest: "d", Percent: 0}) {
			t.Fatalf("%s is in a wave of 0%%", h)
		}
		if !release.InWave(h, release.Rollout{Digest: "d", Percent: 100}) {
			t.Fatalf("%s is outside a wave of 100%%", h)
		}
	}
}
