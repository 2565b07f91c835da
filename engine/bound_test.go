package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
)

// boundedRes is a resource with its own timeout property.
type boundedRes struct {
	resources.Resource
	d time.Duration
}

func (b boundedRes) Timeout() time.Duration { return b.d }

func init() {
	resources.Register(resources.Type{Name: "slowdefault", Timeout: 42 * time.Second,
		New: func(*resources.Spec) (resources.Instance, error) { return resources.Instance{}, nil }})
}

// TestDeadlineSources: a check's or an apply's bound comes from the
// resource's timeout property, else --timeout TYPE, else the type's own
// default, else DefaultTimeout; the reason says which, and how to change
// it.
func TestDeadlineSources(t *testing.T) {
	e := New(&graph.Graph{}, Options{Timeouts: map[string]time.Duration{"exec": 2 * time.Second, "slowdefault": 3 * time.Second}})
	for _, c := range []struct {
		name string
		v    graph.Vertex
		d    time.Duration
		why  string
	}{
		{"its property", graph.Vertex{Type: "exec", Resource: boundedRes{d: time.Second}}, time.Second, "its timeout property"},
		{"a zero property keeps --timeout", graph.Vertex{Type: "exec", Resource: boundedRes{}}, 2 * time.Second, "--timeout exec"},
		{"--timeout over the type's default", graph.Vertex{Type: "slowdefault"}, 3 * time.Second, "--timeout slowdefault"},
		{"the type's default", graph.Vertex{Type: "slowdefault"}, 42 * time.Second, "the default for slowdefault resources; --timeout slowdefault=DURATION changes it"},
		{"the engine's default", graph.Vertex{Type: "nodefault"}, DefaultTimeout, "the default; --timeout nodefault=DURATION changes it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := e
			if c.name == "the type's default" {
				e = New(&graph.Graph{}, Options{})
			}
			d, from := e.deadline(&c.v)
			if why := from.why(c.v.Type); d != c.d || why != c.why {
				t.Fatalf("deadline = %s, %q; want %s, %q", d, why, c.d, c.why)
			}
		})
	}
}

// TestExpiredOnlyRewordsACallItsDeadlineCut: an error of a call that
// ran out of time says so and what bound it; any other result stays.
func TestExpiredOnlyRewordsACallItsDeadlineCut(t *testing.T) {
	b := bounded{d: time.Millisecond, from: fromFlag, typ: "exec"}
	ended, cancel := context.WithDeadline(t.Context(), time.Unix(1, 0))
	defer cancel()
	cancelled, stop := context.WithCancel(t.Context())
	stop()
	own := errors.New("exit status 1")
	for _, c := range []struct {
		name string
		ctx  context.Context
		err  error
		want string
	}{
		{"in time, no error", t.Context(), nil, ""},
		{"in time, its own error", t.Context(), own, "exit status 1"},
		{"cancelled, not expired", cancelled, own, "exit status 1"},
		{"expired, but no error", ended, nil, ""},
		{"expired", ended, own, "timed out: the check did not finish within 1ms (--timeout exec); what it ran was stopped: exit status 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := b.expired(c.ctx, "check", c.err)
			if got := ""; err != nil {
				got = err.Error()
				if !strings.HasSuffix(got, c.want) || c.want == "" {
					t.Fatalf("expired = %q, want %q", got, c.want)
				}
			} else if c.want != "" {
				t.Fatalf("expired = nil, want %q", c.want)
			}
			if timedOut := errors.Is(err, ErrTimeout); timedOut != (c.name == "expired") {
				t.Fatalf("errors.Is(ErrTimeout) = %t", timedOut)
			}
		})
	}
}

type ctxKey struct{}

// TestDeadlineContextEndsAsWithTimeouts: withDeadline's context, whose
// timer is set only when something waits on it, ends as
// context.WithTimeout's does: by its deadline (looked at or waited for),
// its parent's end, or its cancel, with the same Err, Cause and Deadline,
// and the parent's values.
func TestDeadlineContextEndsAsWithTimeouts(t *testing.T) {
	soon, cancelSoon := context.WithTimeout(t.Context(), time.Hour)
	defer cancelSoon()
	gone, cancelGone := context.WithCancelCause(t.Context())
	cancelGone(errors.New("the engine stops"))
	for _, c := range []struct {
		name   string
		parent context.Context
		d      time.Duration
		// wait waits on Done first; cancel cancels before looking.
		wait, cancel bool
		want         error
	}{
		{"in time", t.Context(), time.Hour, false, false, nil},
		{"past its deadline, never waited on", t.Context(), -time.Second, false, false, context.DeadlineExceeded},
		{"past its deadline, waited on", t.Context(), time.Millisecond, true, false, context.DeadlineExceeded},
		{"its parent ended", gone, time.Hour, false, false, context.Canceled},
		{"its parent ended, waited on", gone, time.Hour, true, false, context.Canceled},
		{"cancelled", t.Context(), time.Hour, false, true, context.Canceled},
		{"its parent's deadline is sooner", soon, 2 * time.Hour, false, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			parent := context.WithValue(c.parent, ctxKey{}, "v")
			got, cancel := withDeadline(parent, c.d)
			defer cancel()
			want, cancelWant := context.WithTimeout(parent, c.d)
			defer cancelWant()
			if c.wait {
				<-got.Done()
				<-want.Done()
			}
			if c.cancel {
				cancel()
				cancelWant()
			}
			if got.Err() != c.want || want.Err() != c.want {
				t.Fatalf("Err = %v (context.WithTimeout: %v), want %v", got.Err(), want.Err(), c.want)
			}
			if g, w := context.Cause(got), context.Cause(want); g != w {
				t.Errorf("Cause = %v, want %v", g, w)
			}
			gd, _ := got.Deadline()
			wd, _ := want.Deadline()
			if gd.Sub(wd).Abs() > time.Second {
				t.Errorf("Deadline = %v, want about %v", gd, wd)
			}
			if got.Value(ctxKey{}) != "v" {
				t.Errorf("the parent's value is lost")
			}
			select {
			case <-got.Done():
				if c.want == nil {
					t.Error("Done is closed in time")
				}
			default:
				if c.want != nil {
					t.Error("Done is open after the end")
				}
			}
		})
	}
}
