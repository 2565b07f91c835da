package engine_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/resources"
)

// ownWatch is a resource type with an event source of its own
// (WatchSpec.Func), driven by the test through the funcs it records.
type ownWatch struct {
	mu sync.Mutex
	// notify is the engine's notify of the running watch function.
	notify func()
	// starts counts the watch function's starts, each also sent on
	// started; stop ends the running one with the error sent.
	starts  int
	started chan struct{}
	stop    chan error
	// good is the state Check reports.
	good bool
}

func init() {
	resources.Register(resources.Type{Name: "ownwatch", New: func(spec *resources.Spec) (resources.Instance, error) {
		if err := spec.Decode(&struct{}{}); err != nil {
			return resources.Instance{}, err
		}
		return resources.Instance{Resource: &ownWatch{started: make(chan struct{}, 16), stop: make(chan error), good: true}}, nil
	}})
}

func (r *ownWatch) Watch() resources.WatchSpec {
	return resources.WatchSpec{Func: func(ctx context.Context, ready, notify func()) error {
		r.mu.Lock()
		r.notify, r.starts = notify, r.starts+1
		r.mu.Unlock()
		r.started <- struct{}{}
		ready()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-r.stop:
			return err
		}
	}}
}

func (r *ownWatch) Check(context.Context) (resources.Status, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return resources.Status{Desired: r.good, Differences: []resources.Difference{resources.Differs("state", "bad", "good")}}, nil
}

func (r *ownWatch) Apply(context.Context, resources.Request) (resources.Change, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.good = true
	return resources.Change{Changed: true}, nil
}

func (r *ownWatch) fire() {
	r.mu.Lock()
	notify := r.notify
	r.mu.Unlock()
	notify()
}

func (r *ownWatch) startCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.starts
}

// TestOwnWatchFunction: a resource's own watch function is armed before
// the first check, its notify is drift, and when it stops with an error
// the vertex is checked at once (what happened meanwhile went unseen) and
// the function restarted after a back-off.
func TestOwnWatchFunction(t *testing.T) {
	newWorld(t)
	g := load(t, "- ownwatch:\n    - svc: {}\n")
	w := startWatching(t, g, engine.Options{Retry: engine.RetryPolicy{Base: time.Minute, Max: time.Minute}})
	w.next(func(ev *engine.Event) bool { return ev.Trigger == engine.TriggerStartup })
	r := g.Vertices[0].Resource.(*ownWatch)
	if r.startCount() != 1 {
		t.Fatalf("watch function started %d times, want once before the first check", r.startCount())
	}
	r.mu.Lock()
	r.good = false
	r.mu.Unlock()
	r.fire()
	if ev := w.next(changedEvent("ownwatch#svc")); ev.Trigger != engine.TriggerDrift {
		t.Fatalf("notify ran %+v, want a drift repair", ev)
	}
	r.mu.Lock()
	r.good = false
	r.mu.Unlock()
	r.stop <- errors.New("stream broken")
	if ev := w.next(changedEvent("ownwatch#svc")); ev.Trigger != engine.TriggerDrift {
		t.Fatalf("a stopped watch left the vertex unchecked: %+v", ev)
	}
	if r.startCount() != 1 {
		t.Fatal("restarted before its back-off")
	}
	<-r.started
	// The restart waits on a timer of the back-off, about a minute.
	soon := w.clock.Now().Add(80 * time.Second)
	if err := w.clock.WaitNext(t.Context(), func(next time.Time) bool { return next.Before(soon) }); err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(2 * time.Minute)
	select {
	case <-r.started:
	case <-time.After(time.Minute):
		t.Fatal("the watch function was not restarted after its back-off")
	}
}
