package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
)

// DefaultTimeout bounds a check or an apply of a type that sets no
// default of its own.
const DefaultTimeout = 5 * time.Minute

// deadline is how long one check or one apply of v may take, and where
// that bound comes from, for the message when it expires.
func (e *Engine) deadline(v *graph.Vertex) (time.Duration, boundFrom) {
	if b, ok := v.Resource.(resources.Bounded); ok {
		if d := b.Timeout(); d > 0 {
			return d, fromProperty
		}
	}
	if d := e.opts.Timeouts[v.Type]; d > 0 {
		return d, fromFlag
	}
	if t, ok := resources.Lookup(v.Type); ok && t.Timeout > 0 {
		return t.Timeout, fromTypeDefault
	}
	return DefaultTimeout, fromDefault
}

// boundFrom is where a deadline comes from. The message naming it is
// made only when a deadline expires, not for each run.
type boundFrom int

const (
	fromProperty boundFrom = iota
	fromFlag
	fromTypeDefault
	fromDefault
)

// why says where the deadline of a resource of type typ came from.
func (f boundFrom) why(typ string) string {
	switch f {
	case fromProperty:
		return "its timeout property"
	case fromFlag:
		return "--timeout " + typ
	case fromTypeDefault:
		return fmt.Sprintf("the default for %s resources; --timeout %s=DURATION changes it", typ, typ)
	}
	return fmt.Sprintf("the default; --timeout %s=DURATION changes it", typ)
}

// bounded runs each Check and Apply of a resource under a deadline. The
// context's expiry is what stops the work: the command runner stops the
// process group of a command still running (SIGTERM, then SIGKILL after
// a grace period), D-Bus and HTTP calls return.
type bounded struct {
	resources.Resource
	d    time.Duration
	from boundFrom
	typ  string
}

func (b bounded) Check(ctx context.Context) (resources.Status, error) {
	ctx, cancel := context.WithTimeout(ctx, b.d)
	defer cancel()
	st, err := b.Resource.Check(ctx)
	return st, b.expired(ctx, "check", err)
}

func (b bounded) Apply(ctx context.Context, req resources.Request) (resources.Change, error) {
	ctx, cancel := context.WithTimeout(ctx, b.d)
	defer cancel()
	ch, err := b.Resource.Apply(ctx, req)
	return ch, b.expired(ctx, "apply", err)
}

// expired replaces the error of a call cut short by its deadline with one
// saying so; a call that finished in time keeps its result.
func (b bounded) expired(ctx context.Context, op string, err error) error {
	if err == nil || !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("%w: the %s did not finish within %s (%s); what it ran was stopped: %v",
		ErrTimeout, op, b.d, b.from.why(b.typ), err)
}

// ParseTimeouts reads --timeout TYPE=DURATION values into Options.Timeouts,
// by each type's canonical name.
func ParseTimeouts(flag map[string]string) (map[string]time.Duration, error) {
	out := make(map[string]time.Duration, len(flag))
	for name, v := range flag {
		t, ok := resources.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("--timeout %s=%s: no resource type %q", name, v, name)
		}
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("--timeout %s=%s: want a positive duration such as 30s or 5m", name, v)
		}
		out[t.Name] = d
	}
	return out, nil
}
