package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
	"github.com/reactive-ccm/ccm/graph"
)

// announcements records what Options.Announce is told, in order.
type announcements chan announced

type announced struct {
	id     string
	stable bool
}

func (a announcements) hook(v *graph.Vertex, stable bool) { a <- announced{v.ID(), stable} }

// next returns the next announcement; none came within a minute fails.
func (a announcements) next(t *testing.T) announced {
	t.Helper()
	select {
	case got := <-a:
		return got
	case <-time.After(time.Minute):
		t.Fatal("nothing announced")
	}
	return announced{}
}

// expect checks the next announcement.
func (a announcements) expect(t *testing.T, id string, stable bool, why string) {
	t.Helper()
	if got := a.next(t); got != (announced{id, stable}) {
		t.Fatalf("%s: announced %+v, want %s stable=%t", why, got, id, stable)
	}
}

// none checks that nothing more was announced.
func (a announcements) none(t *testing.T, why string) {
	t.Helper()
	select {
	case got := <-a:
		t.Fatalf("%s: announced %+v", why, got)
	default:
	}
}

const registered = `
- fake:
    - app:
        value: good
        watch: true
        health_checks: [{command: '%CHECK%'}]
        register_when_stable:
          - {cluster: prod, service: web, protocol: http, address: 10.0.0.1, port: 80, priority: 1}
    - plain: {value: x}
`

// TestStabilityIsAnnouncedAsItChanges is the timeline of a registered
// resource in watch mode: stable once converged and healthy; not stable
// at once when it fails, when a check is not OK, while paused; stable
// again each time it recovers.
func TestStabilityIsAnnouncedAsItChanges(t *testing.T) {
	world := newWorld(t)
	check, setCheck := plugin(t, "0")
	ann := make(announcements, 100)
	w := startWatching(t, load(t, replace(registered, "%CHECK%", check)), engine.Options{Announce: ann.hook, Recheck: -1, HealthInterval: -1})
	ann.expect(t, "fake#app", true, "converged and healthy")

	world.mu.Lock()
	world.failing["app"] = true
	world.mu.Unlock()
	w.src.fire("/fake/app")
	ann.expect(t, "fake#app", false, "its check failed")
	world.mu.Lock()
	delete(world.failing, "app")
	world.mu.Unlock()
	w.advance(time.Minute)
	ann.expect(t, "fake#app", true, "recovered")

	setCheck("1")
	w.drift(world, "app", "drifted")
	ann.expect(t, "fake#app", false, "repaired, its health check WARNING")
	setCheck("0")
	w.drift(world, "app", "drifted")
	ann.expect(t, "fake#app", true, "repaired, healthy")

	if err := w.e.Pause([]string{"fake#app"}, status.Pause{By: "tester", Since: w.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	ann.expect(t, "fake#app", false, "paused")
	if err := w.e.Resume([]string{"fake#app"}); err != nil {
		t.Fatal(err)
	}
	ann.expect(t, "fake#app", true, "resumed")
	w.idle()
	ann.none(t, "a resource without registrations, or a stable one checked again")
}

// TestContestedIsNotStable: another writer undoing every repair makes the
// resource contested, which withdraws its registrations.
func TestContestedIsNotStable(t *testing.T) {
	ann := make(announcements, 100)
	w, world := fight(t, "- fake:\n    - fought: {value: ours, watch: true, register_when_stable: [{cluster: prod, service: web, protocol: http, address: 10.0.0.1, port: 80, priority: 1}]}\n", engine.Options{Contest: policy, Announce: ann.hook})
	ann.expect(t, "fake#fought", true, "converged")
	for range policy.Limit + 1 {
		w.advance(quick)
		w.strike(world)
	}
	ann.expect(t, "fake#fought", false, "contested")
}

// TestReloadWithoutTheResourceWithdraws: a reload that drops a stable
// registered resource, or its registrations, says so; one that keeps them
// leaves the decision to the new vertex.
func TestReloadWithoutTheResourceWithdraws(t *testing.T) {
	newWorld(t)
	check, _ := plugin(t, "0")
	ann := make(announcements, 100)
	dir := t.TempDir()
	w := startWatching(t, loadIn(t, dir, replace(registered, "%CHECK%", check)), engine.Options{Announce: ann.hook, Recheck: -1, HealthInterval: -1})
	ann.expect(t, "fake#app", true, "converged")
	if _, err := w.e.Swap(t.Context(), loadIn(t, dir, replace(registered, "value: good", "value: better", "%CHECK%", check))); err != nil {
		t.Fatal(err)
	}
	ann.expect(t, "fake#app", true, "the changed resource converged")
	if _, err := w.e.Swap(t.Context(), loadIn(t, dir, "- fake:\n    - plain: {value: x}\n")); err != nil {
		t.Fatal(err)
	}
	ann.expect(t, "fake#app", false, "removed")
}

func TestOneShotAnnouncesAndNoopDoesNot(t *testing.T) {
	for _, tc := range []struct {
		name   string
		props  string
		opts   engine.Options
		stable *bool
	}{
		{"converged and healthy", "", engine.Options{}, ptr(true)},
		{"failed", "fail: true", engine.Options{}, ptr(false)},
		// Without health checks, which a skipped resource does not run.
		{"skipped by control: not managed here", "control: {if: false}", engine.Options{}, ptr(false)},
		{"noop", "", engine.Options{Noop: true}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			newWorld(t)
			check, _ := plugin(t, "0")
			ann := make(announcements, 10)
			tc.opts.Announce = ann.hook
			m := replace(registered, "%CHECK%", check, "watch: true", tc.props)
			if strings.HasPrefix(tc.props, "control") {
				m = replace(m, "        health_checks: [{command: '"+check+"'}]\n", "")
			}
			runOnce(t, load(t, m), tc.opts)
			if tc.stable == nil {
				ann.none(t, "noop")
				return
			}
			ann.expect(t, "fake#app", *tc.stable, tc.name)
			ann.none(t, "one announcement")
		})
	}
}

func ptr[T any](v T) *T { return &v }

// replace replaces each old with its new in s.
func replace(s string, oldNew ...string) string {
	for i := 0; i+1 < len(oldNew); i += 2 {
		s = strings.ReplaceAll(s, oldNew[i], oldNew[i+1])
	}
	return s
}
