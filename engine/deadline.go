package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
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
	ctx, cancel := withDeadline(ctx, b.d)
	defer cancel()
	st, err := b.Resource.Check(ctx)
	return st, b.expired(ctx, "check", err)
}

func (b bounded) Apply(ctx context.Context, req resources.Request) (resources.Change, error) {
	ctx, cancel := withDeadline(ctx, b.d)
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

// deadlineCtx is a context ended by a deadline, whose timer is set only
// once something waits for it to end (Done): a file's check, a few
// system calls that look at Err between reads, never does, and a timer
// per check was 3 % of the instructions of a one-shot run. Until then Err
// compares the time with the deadline.
type deadlineCtx struct {
	context.Context
	deadline time.Time

	mu sync.Mutex
	// armed is the parent ended by the deadline, as the context package
	// makes it, once needed; stopped is set when the call is over.
	armed   context.Context
	cancel  context.CancelFunc
	stopped bool
}

// withDeadline is context.WithTimeout(parent, d), with the timer set only
// when needed.
func withDeadline(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	c := &deadlineCtx{Context: parent, deadline: time.Now().Add(d)}
	return c, c.stop
}

func (c *deadlineCtx) Deadline() (time.Time, bool) {
	if d, ok := c.Context.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

func (c *deadlineCtx) Done() <-chan struct{} { return c.arm().Done() }

func (c *deadlineCtx) Err() error {
	c.mu.Lock()
	armed, stopped := c.armed, c.stopped
	c.mu.Unlock()
	switch {
	case armed != nil:
		return armed.Err()
	case c.Context.Err() != nil:
		return c.Context.Err()
	case stopped:
		return context.Canceled
	case !time.Now().Before(c.deadline):
		return context.DeadlineExceeded
	}
	return nil
}

// Value is the parent's, or once armed the armed context's: a context
// made from this one then finds the context package's own below it, and
// ends with it without a goroutine to watch it.
func (c *deadlineCtx) Value(key any) any {
	c.mu.Lock()
	armed := c.armed
	c.mu.Unlock()
	if armed != nil {
		return armed.Value(key)
	}
	return c.Context.Value(key)
}

// arm returns the parent ended by the deadline, made on first use.
func (c *deadlineCtx) arm() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.armed == nil {
		c.armed, c.cancel = context.WithDeadline(c.Context, c.deadline)
		if c.stopped {
			c.cancel()
		}
	}
	return c.armed
}

// stop ends the context once its call is over, and its timer if set.
func (c *deadlineCtx) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopped = true
	if c.cancel != nil {
		c.cancel()
	}
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
