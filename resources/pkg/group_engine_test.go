package pkg_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources/pkg/internal/debfixture"
)

// runManifest converges manifest once in an engine and returns each
// resource's event by name.
func runManifest(t testing.TB, manifest string) map[string]*engine.Event {
	t.Helper()
	file := filepath.Join(t.TempDir(), "manifest.yaml")
	if err := os.WriteFile(file, []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load([]string{file}, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	events := map[string]*engine.Event{}
	record := func(ev *engine.Event) {
		mu.Lock()
		defer mu.Unlock()
		events[ev.Name] = ev
	}
	if _, err := engine.New(g, engine.Options{Events: record}).Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	return events
}

// packages is a manifest keeping each name at ensure, in order.
func packages(ensure string, names ...string) string {
	var b strings.Builder
	b.WriteString("- package:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "    - %s: {ensure: %s}\n", n, ensure)
	}
	return b.String()
}

func TestEngineGroupsConsecutivePackages(t *testing.T) {
	r := newRepo(t)
	debfixture.Purge(t)
	nosuch := debfixture.Prefix + "nosuch"
	install := "/usr/bin/apt-get install -y -q -o DPkg::Options::=--force-confold "
	steps := []struct {
		name     string
		manifest string
		// wantHistory are the apt-get runs that reached dpkg: a run apt
		// refuses before dpkg (an unknown package) is not in its log.
		wantHistory []string
		wantFailed  string
	}{
		{"installed in one run", packages("present", fixA, fixConf),
			[]string{install + fixA + " " + fixConf}, ""},
		{"removed in one run", packages("absent", fixA, fixConf),
			[]string{"/usr/bin/apt-get -q -y remove " + fixA + " " + fixConf}, ""},
		{"a package apt does not know fails alone", packages("present", fixA, nosuch, fixConf),
			[]string{install + fixA, install + fixConf}, nosuch},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			seen := len(r.History(t))
			events := runManifest(t, st.manifest)
			if want := strings.Count(st.manifest, "ensure:"); len(events) != want {
				t.Errorf("%d events, want one per package (%d)", len(events), want)
			}
			if got := r.History(t)[seen:]; strings.Join(got, "\n") != strings.Join(st.wantHistory, "\n") {
				t.Errorf("apt history:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(st.wantHistory, "\n"))
			}
			for name, ev := range events {
				if name == st.wantFailed {
					if !ev.Failed || !strings.Contains(strings.Join(ev.Error, "; "), "Unable to locate package "+name) {
						t.Errorf("%s: %+v, want it failed with apt's reason about it", name, ev)
					}
					continue
				}
				if ev.Failed || !ev.Changed {
					t.Errorf("%s: failed %v changed %v error %q, want changed", name, ev.Failed, ev.Changed, ev.Error)
				}
			}
		})
	}
}

// BenchmarkEngineInstallPackages converges a manifest of 20 fixture
// packages, none installed, in a one-shot engine run: the whole path,
// from the checks through apt-get to the events. apt-get-runs/op counts
// the runs apt logged.
func BenchmarkEngineInstallPackages(b *testing.B) {
	names, r := debfixture.NewNumbered(b, "engine", 20)
	manifest := packages("present", names...)
	seen := len(r.History(b))
	for b.Loop() {
		b.StopTimer()
		debfixture.Purge(b)
		b.StartTimer()
		for name, ev := range runManifest(b, manifest) {
			if ev.Failed || !ev.Changed {
				b.Fatalf("%s: %+v", name, ev)
			}
		}
	}
	b.ReportMetric(float64(len(r.History(b))-seen)/float64(b.N), "apt-get-runs/op")
}
