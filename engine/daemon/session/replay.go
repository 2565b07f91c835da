package session

import (
	"context"
	"fmt"
	"sync"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/resources"
)

// Replay is a resource standing for one recorded earlier in the session,
// as its last event left it: a graph vertex for it makes the engine gate
// a `require` on it and refresh a `subscribe` to it as upstream does. It
// failed when its last event failed or was skipped for a failed
// requirement; it changed when its last event changed (a noop "would
// change" too). It never touches the host.
func Replay(ev *engine.Event) resources.Resource {
	r := &replay{changed: ev.Changed, ensure: ev.FinalEnsure}
	switch {
	case ev.Failed:
		r.failure = fmt.Errorf("%s %w", ev.ID(), ErrFailed)
	case ev.Skipped && len(ev.UnmetRequirements) > 0:
		r.failure = fmt.Errorf("%s was skipped: its requirements %v %w", ev.ID(), ev.UnmetRequirements, ErrFailed)
	}
	return r
}

type replay struct {
	changed bool
	ensure  string
	failure error

	mu sync.Mutex
	// applied is set once the recorded change was passed on, so the
	// engine's check after Apply finds the state it wants.
	applied bool
}

func (r *replay) Watch() resources.WatchSpec { return resources.WatchSpec{} }

func (r *replay) Check(context.Context) (resources.Status, error) {
	if r.failure != nil {
		return resources.Status{}, r.failure
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return resources.Status{Ensure: r.ensure, Desired: !r.changed || r.applied}, nil
}

// Apply passes the recorded change on to the subscribers.
func (r *replay) Apply(context.Context, resources.Request) (resources.Change, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.applied = true
	return resources.Change{Changed: true}, nil
}
