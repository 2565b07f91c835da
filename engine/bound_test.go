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
