package pkg_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources/pkg/internal/debfixture"
	"github.com/reactive-ccm/ccm/watchers/inotify"
	"github.com/reactive-ccm/ccm/watchers/poll"
)

// repairWait bounds each step of a watch timeline: an apt-get run takes
// about half a second here, a loaded CI machine may be much slower.
const repairWait = time.Minute

// watching is a watch-mode engine with the real inotify and polling hubs,
// running a manifest until the test ends.
type watching struct {
	events chan *engine.Event
}

func startWatching(tb testing.TB, manifest string) *watching {
	tb.Helper()
	file := filepath.Join(tb.TempDir(), "manifest.yaml")
	if err := os.WriteFile(file, []byte(manifest), 0o644); err != nil {
		tb.Fatal(err)
	}
	g, err := graph.Load([]string{file}, graph.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(tb.Context())
	log := slog.New(slog.DiscardHandler)
	polls := poll.New(ctx)
	hub, err := inotify.New(ctx, log, func(_ string, notify func()) func() { return polls.Every(time.Second, notify) })
	if err != nil {
		tb.Skipf("inotify is unavailable: %v", err)
	}
	w := &watching{events: make(chan *engine.Event, 4096)}
	e := engine.New(g, engine.Options{
		Watch:    true,
		Logger:   log,
		Events:   func(ev *engine.Event) { w.events <- ev },
		Watchers: engine.Watchers{Paths: hub.Watch, Trees: hub.WatchTree, Poll: polls.Every},
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := e.Run(ctx); err != nil && ctx.Err() == nil {
			tb.Errorf("engine: %v", err)
		}
	}()
	tb.Cleanup(func() {
		cancel()
		<-done
	})
	return w
}

// awaitChange waits for the event of a change to id and returns it;
// failures on the way are retried by the engine and only reported if no
// change comes.
func (w *watching) awaitChange(tb testing.TB, id string) *engine.Event {
	tb.Helper()
	timeout := time.After(repairWait)
	var failures []string
	for {
		select {
		case ev := <-w.events:
			switch {
			case ev.ID() != id:
			case ev.Failed:
				failures = append(failures, strings.Join(ev.Error, "; "))
			case ev.Changed:
				return ev
			}
		case <-timeout:
			tb.Fatalf("no change to %s within %s; failures: %v", id, repairWait, failures)
			return nil
		}
	}
}

func TestWatchRepairsPackageDrift(t *testing.T) {
	r := newRepo(t)
	debfixture.Purge(t)
	w := startWatching(t, fmt.Sprintf("- package:\n    - %s: {ensure: 1.1-1}\n", fixA))
	id := "package#" + fixA
	if ev := w.awaitChange(t, id); ev.Trigger != engine.TriggerStartup || ev.FinalEnsure != "1.1-1" {
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
			ev := w.awaitChange(t, id)
			if ev.Trigger != engine.TriggerDrift || ev.FinalEnsure != "1.1-1" {
				t.Errorf("repair event: %+v", ev)
			}
			if v, st := debfixture.Status(t, fixA); v != "1.1-1" || st != "installed" {
				t.Errorf("dpkg has %s %s, want 1.1-1 installed", v, st)
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
	w.awaitChange(b, id)
	var back time.Duration
	for b.Loop() {
		debfixture.Dpkg(b, false, "-r", fixA)
		removed := time.Now()
		w.awaitChange(b, id)
		back += time.Since(removed)
	}
	b.ReportMetric(float64(back.Milliseconds())/float64(b.N), "ms-back-after-dpkg/op")
}
