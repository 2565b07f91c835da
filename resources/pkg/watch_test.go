package pkg_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/resources/pkg/internal/debfixture"
)

// startWatching runs manifest in a watching engine until the test ends.
// Each step of a watch timeline may take a minute: an apt-get run takes
// about half a second here, a loaded CI machine may be much slower. A
// repair may fail on the way (dpkg's lock) and be retried.
func startWatching(tb testing.TB, manifest string) *enginetest.Run {
	tb.Helper()
	return enginetest.Start(tb, manifest, enginetest.Options{Timeout: time.Minute, AllowFailures: true})
}

func TestWatchRepairsPackageDrift(t *testing.T) {
	r := newRepo(t)
	debfixture.Purge(t)
	w := startWatching(t, fmt.Sprintf("- package:\n    - %s: {ensure: 1.1-1}\n", fixA))
	id := "package#" + fixA
	if ev := w.Changed(t, id); ev.Trigger != engine.TriggerStartup || ev.FinalEnsure != "1.1-1" {
		t.Fatalf("first convergence: %+v", ev)
	}
	steps := []struct {
		name  string
		drift func(*testing.T)
	}{
		{"removed by hand is reinstalled", func(t *testing.T) { debfixture.Dpkg(t, false, "-r", fixA) }},
		{"upgraded by hand is downgraded back", func(t *testing.T) { debfixture.Dpkg(t, false, "-i", r.Deb(t, fixA, "2.0-1")) }},
		{"left unpacked by hand is configured", func(t *testing.T) {
			debfixture.Dpkg(t, false, "-r", fixA)
			debfixture.Dpkg(t, false, "--unpack", r.Deb(t, fixA, "1.1-1"))
		}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			st.drift(t)
			// The first repair may meet dpkg's lock (or a drift made of
			// two dpkg runs may be repaired in between) and be retried.
			ev := w.Changed(t, id)
			if (ev.Trigger != engine.TriggerDrift && ev.Trigger != engine.TriggerRetry) || ev.FinalEnsure != "1.1-1" {
				t.Errorf("repair event: %+v", ev)
			}
			// A repair made between a drift's two dpkg runs leaves the
			// second run's state, which the engine repairs again.
			for v, st := debfixture.Status(t, fixA); v != "1.1-1" || st != "installed"; v, st = debfixture.Status(t, fixA) {
				if ev := w.Changed(t, id); ev.FinalEnsure != "1.1-1" {
					t.Fatalf("dpkg has %s %s; the next repair: %+v", v, st, ev)
				}
			}
		})
	}
}

// BenchmarkRepairAfterExternalRemoval measures an administrator's dpkg -r
// and the watching engine putting the package back (ns/op), and the part
// of it from dpkg -r returning to the package being installed again
// (ms-back-after-dpkg/op). The repair starts before dpkg returns: dpkg
// writes its status file, inotify reports it, and the apply waits for
// dpkg's lock.
func BenchmarkRepairAfterExternalRemoval(b *testing.B) {
	debfixture.New(b, debfixture.Package{Name: fixA, Version: "1.0-1"})
	w := startWatching(b, fmt.Sprintf("- package:\n    - %s: {ensure: present}\n", fixA))
	id := "package#" + fixA
	w.Changed(b, id)
	var back time.Duration
	for b.Loop() {
		debfixture.Dpkg(b, false, "-r", fixA)
		removed := time.Now()
		w.Changed(b, id)
		back += time.Since(removed)
	}
	b.ReportMetric(float64(back.Milliseconds())/float64(b.N), "ms-back-after-dpkg/op")
}
