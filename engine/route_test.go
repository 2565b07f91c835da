package engine_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/resources"
)

// routed is a resource whose WatchSpec is its properties.
type routedProps struct {
	Paths      []string `yaml:"paths"`
	Trees      []string `yaml:"trees"`
	Units      []string `yaml:"units"`
	Mounts     []string `yaml:"mounts"`
	Inputs     []string `yaml:"inputs"`
	InputTrees []string `yaml:"input_trees"`
	Poll       string   `yaml:"poll"`
}

type routed struct{ spec resources.WatchSpec }

func init() {
	resources.Register(resources.Type{Name: "routed", New: func(spec *resources.Spec) (resources.Instance, error) {
		var p routedProps
		if err := spec.Decode(&p); err != nil {
			return resources.Instance{}, err
		}
		poll, err := time.ParseDuration(orZero(p.Poll))
		if err != nil {
			return resources.Instance{}, err
		}
		return resources.Instance{Resource: &routed{resources.WatchSpec{Paths: p.Paths, Trees: p.Trees, Units: p.Units, Mounts: p.Mounts,
			Inputs: p.Inputs, InputTrees: p.InputTrees, Poll: poll}}}, nil
	}})
}

func (r *routed) Watch() resources.WatchSpec { return r.spec }
func (r *routed) Check(context.Context) (resources.Status, error) {
	return resources.Status{Desired: true}, nil
}
func (r *routed) Apply(context.Context, resources.Request) (resources.Change, error) {
	return resources.Change{}, nil
}

// registry records what the engine registered with each source, by
// "source key".
type registry struct {
	mu    sync.Mutex
	notes map[string]func()
}

func (r *registry) add(key string, notify func()) func() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notes[key] = notify
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.notes, key)
	}
}

func (r *registry) watchers(withPaths bool) engine.Watchers {
	w := engine.Watchers{
		Poll:   func(d time.Duration, fn func()) func() { return r.add("poll "+d.String(), fn) },
		Units:  func(u string, fn func()) func() { return r.add("unit "+u, fn) },
		Mounts: func(m string, fn func()) func() { return r.add("mount "+m, fn) },
		Trees:  func(t string, fn func()) func() { return r.add("tree "+t, fn) },
	}
	if withPaths {
		w.Paths = func(p string, fn, _ func()) func() { return r.add("path "+p, fn) }
	}
	return w
}

func (r *registry) keys() map[string]func() {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]func(){}
	for k, v := range r.notes {
		out[k] = v
	}
	return out
}

// TestWatchRoutesEachKindToItsSource: what a resource manages is watched
// as drift, what its desired state is read from as a new desired state,
// its poll as a poll; without a path source (or with --poll) one poll
// covers all of them.
func TestWatchRoutesEachKindToItsSource(t *testing.T) {
	newWorld(t)
	g := load(t, `
- routed:
    - r: {paths: [/p], trees: [/t], units: [u.service], mounts: [/mnt], inputs: [/in], input_trees: [/intree], poll: 7s}
`)
	for _, tc := range []struct {
		name      string
		withPaths bool
		forcePoll bool
		want      map[string]engine.Trigger
	}{
		{"events", true, false, map[string]engine.Trigger{"path /p": engine.TriggerDrift, "tree /t": engine.TriggerDrift,
			"unit u.service": engine.TriggerDrift, "mount /mnt": engine.TriggerDrift, "path /in": engine.TriggerSource,
			"tree /intree": engine.TriggerSource, "poll 7s": engine.TriggerPoll}},
		{"no path source: polled", false, false, map[string]engine.Trigger{"poll 10s": engine.TriggerPoll}},
		{"--poll: polled", true, true, map[string]engine.Trigger{"poll 10s": engine.TriggerPoll}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := &registry{notes: map[string]func(){}}
			events := make(chan *engine.Event, 100)
			e := engine.New(g, engine.Options{Watch: true, Recheck: -1, HealthInterval: -1, ForcePoll: tc.forcePoll,
				Watchers: reg.watchers(tc.withPaths), Verbose: true, Events: func(ev *engine.Event) { events <- ev },
				Logger: slog.New(slog.DiscardHandler)})
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan struct{})
			go func() { defer close(done); _, _ = e.Run(ctx) }()
			defer func() { cancel(); <-done }()
			<-events
			got := reg.keys()
			if len(got) != len(tc.want) {
				t.Fatalf("registered %v, want %v", keysOf(got), tc.want)
			}
			for key, trig := range tc.want {
				notify, ok := got[key]
				if !ok {
					t.Fatalf("%s not registered; got %v", key, keysOf(got))
				}
				notify()
				if ev := <-events; ev.Trigger != trig {
					t.Fatalf("%s ran the resource with trigger %s, want %s", key, ev.Trigger, trig)
				}
			}
		})
	}
}

func keysOf(m map[string]func()) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
