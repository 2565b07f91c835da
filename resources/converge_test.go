package resources

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// scripted is a Resource whose checks report the states given in turn.
type scripted struct {
	states             []Status
	checkErr, applyErr error
	// afterErr fails the checks after the first.
	afterErr        error
	checks, applies int
	// req is the request of the last apply.
	req Request
}

func (s *scripted) Watch() WatchSpec { return WatchSpec{} }

func (s *scripted) Check(context.Context) (Status, error) {
	st := s.states[min(s.checks, len(s.states)-1)]
	s.checks++
	if s.checks > 1 && s.afterErr != nil {
		return st, s.afterErr
	}
	return st, s.checkErr
}

func (s *scripted) Apply(_ context.Context, req Request) (Change, error) {
	s.applies++
	s.req = req
	return Change{Changed: true, Refreshed: req.Refresh}, s.applyErr
}

var (
	good = Status{Ensure: "present", Desired: true}
	bad  = Status{Ensure: "absent", Differences: []Difference{Differs("ensure", "absent", "present")}}
)

func TestConvergeCycle(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name             string
		r                *scripted
		cycle            Cycle
		checks, applies  int
		applied, changed bool
		wantErr          string
	}{
		{"in order: nothing applied", &scripted{states: []Status{good}}, Cycle{}, 1, 0, false, false, ""},
		{"drifted: applied and verified", &scripted{states: []Status{bad, good}}, Cycle{}, 2, 1, true, true, ""},
		{"a refresh applies even in order", &scripted{states: []Status{good}}, Cycle{Refresh: true}, 2, 1, true, true, ""},
		{"noop applies without a check after", &scripted{states: []Status{bad}}, Cycle{Noop: true}, 1, 1, true, true, ""},
		{"still wrong after the apply", &scripted{states: []Status{bad, bad}}, Cycle{}, 2, 1, true, true, "failed to reach desired state: absent → present"},
		{"a failed check stops the cycle", &scripted{states: []Status{bad}, checkErr: boom}, Cycle{}, 1, 0, false, false, "boom"},
		{"a failed apply is the error", &scripted{states: []Status{bad}, applyErr: boom}, Cycle{}, 1, 1, true, true, "boom"},
		{"a failed check after the apply is the error", &scripted{states: []Status{bad, good}, afterErr: boom}, Cycle{}, 2, 1, true, true, "boom"},
		{"BeforeApply's error ends it before any change", &scripted{states: []Status{bad}},
			Cycle{BeforeApply: func(context.Context) error { return boom }}, 1, 0, false, false, "boom"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := ConvergeCycle(t.Context(), tc.r, tc.cycle)
			if tc.r.checks != tc.checks || tc.r.applies != tc.applies || out.Applied != tc.applied || out.Change.Changed != tc.changed {
				t.Fatalf("checks %d applies %d applied %v changed %v", tc.r.checks, tc.r.applies, out.Applied, out.Change.Changed)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatal(err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if tc.r.applies > 0 && (tc.r.req.Noop != tc.cycle.Noop || tc.r.req.Refresh != tc.cycle.Refresh || tc.r.req.Status.Ensure != tc.r.states[0].Ensure) {
				t.Fatalf("apply asked %+v", tc.r.req)
			}
		})
	}
}

func TestConvergeCycleDesiredStateFailedIsMatchable(t *testing.T) {
	_, err := Converge(t.Context(), &scripted{states: []Status{bad, bad}}, false, false)
	if !errors.Is(err, ErrDesiredStateFailed) {
		t.Fatalf("error %v does not wrap ErrDesiredStateFailed", err)
	}
}

// TestConvergeCycleHooks: BeforeApply runs once work is found and before
// the apply (never in noop), AfterApply after a real apply and before the
// check that verifies it.
func TestConvergeCycleHooks(t *testing.T) {
	for _, noop := range []bool{false, true} {
		r := &scripted{states: []Status{bad, good}}
		var seen []string
		c := Cycle{Noop: noop,
			BeforeApply: func(context.Context) error { seen = append(seen, "before@"+strconv.Itoa(r.applies)); return nil },
			AfterApply:  func() { seen = append(seen, "after@"+strconv.Itoa(r.checks)) }}
		if _, err := ConvergeCycle(t.Context(), r, c); err != nil {
			t.Fatal(err)
		}
		want := "before@0 after@1"
		if noop {
			want = ""
		}
		if got := strings.Join(seen, " "); got != want {
			t.Fatalf("noop %v: hooks %q, want %q", noop, got, want)
		}
	}
}
