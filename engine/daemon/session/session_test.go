package session_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/session"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/segmentio/ksuid"
)

func event(typ, name, alias string, set func(*engine.Event)) *engine.Event {
	ev := &engine.Event{Protocol: engine.EventProtocol, EventID: ksuid.New().String(), Timestamp: time.Now(), Type: typ, Name: name, Alias: alias, Duration: time.Millisecond}
	if set != nil {
		set(ev)
	}
	return ev
}

func TestStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "session")
	s, err := session.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := session.Create(dir); err == nil {
		t.Fatal("a store was created over a non-empty directory")
	}
	// Recorded within one second: the ksuids may sort either way.
	at := time.Now()
	first := event("file", "/etc/motd", "motd", func(ev *engine.Event) { ev.Changed, ev.Timestamp = true, at })
	second := event("file", "/etc/motd", "", func(ev *engine.Event) { ev.Timestamp = at.Add(time.Microsecond) })
	for _, ev := range []*engine.Event{first, second, event("exec", "x", "", nil)} {
		if err := s.Record(ev); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("events are files named by their ids", func(t *testing.T) {
		if _, err := os.Stat(filepath.Join(dir, first.EventID+".event")); err != nil {
			t.Fatal(err)
		}
		es, err := s.Events()
		if err != nil || es.Start == nil || len(es.Resources) != 3 {
			t.Fatalf("events %+v, %v", es, err)
		}
	})
	t.Run("last by name or alias", func(t *testing.T) {
		for _, ref := range []string{"file#/etc/motd", "file#motd"} {
			ev, err := s.Last(ref)
			if err != nil {
				t.Fatal(err)
			}
			if want := second.EventID; ref == "file#/etc/motd" && ev.EventID != want {
				t.Fatalf("%s: got %s, want the last event %s", ref, ev.EventID, want)
			}
		}
		if _, err := s.Last("file#/nothere"); !errors.Is(err, session.ErrNoEvents) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("remove only a store", func(t *testing.T) {
		stray := filepath.Join(dir, "notes.txt")
		if err := os.WriteFile(stray, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := s.Remove(); !errors.Is(err, session.ErrNotStore) {
			t.Fatalf("got %v", err)
		}
		os.Remove(stray)
		if err := s.Remove(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Fatal("not removed")
		}
	})
}

func TestSummarize(t *testing.T) {
	start := time.Now()
	at := func(d time.Duration, set func(*engine.Event)) *engine.Event {
		return event("exec", "e"+d.String(), "", func(ev *engine.Event) {
			ev.Timestamp = start.Add(d)
			if set != nil {
				set(ev)
			}
		})
	}
	es := session.Events{
		Start: &session.Start{Timestamp: start},
		Resources: []*engine.Event{
			at(time.Second, func(ev *engine.Event) { ev.Changed, ev.Refreshed = true, true }),
			at(2*time.Second, func(ev *engine.Event) { ev.Failed = true }),
			at(3*time.Second, func(ev *engine.Event) { ev.Skipped, ev.UnmetRequirements = true, []string{"exec#x"} }),
			at(4*time.Second, nil),
		},
	}
	got := session.Summarize(es)
	want := session.Summary{Counts: session.Counts{StartTime: start, EndTime: start.Add(4*time.Second + time.Millisecond), Duration: 4*time.Second + time.Millisecond,
		Total: 4, Unique: 4, Changed: 1, Failed: 1, Skipped: 1, Stable: 1, Refreshed: 1, Unmet: 1}, Errors: 1}
	if got != want {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

func TestReplay(t *testing.T) {
	ctx := t.Context()
	tests := []struct {
		name    string
		set     func(*engine.Event)
		fails   bool
		changes bool
	}{
		{"stable", nil, false, false},
		{"changed", func(ev *engine.Event) { ev.Changed = true }, false, true},
		{"failed", func(ev *engine.Event) { ev.Failed = true }, true, false},
		{"skipped for a failed requirement", func(ev *engine.Event) { ev.Skipped, ev.UnmetRequirements = true, []string{"x#y"} }, true, false},
		{"skipped by control", func(ev *engine.Event) { ev.Skipped = true }, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := resources.Converge(ctx, session.Replay(event("file", "/x", "", tt.set)), false, false)
			if fails := errors.Is(err, session.ErrFailed); fails != tt.fails || (err != nil && !fails) {
				t.Fatalf("error %v, want failure %v", err, tt.fails)
			}
			if out.Change.Changed != tt.changes {
				t.Fatalf("changed %v, want %v", out.Change.Changed, tt.changes)
			}
		})
	}
}

func TestNamedFallsBackToTheEnvironment(t *testing.T) {
	t.Setenv(session.Env, " /from/env\n")
	if got := session.Named("/named"); got != "/named" {
		t.Errorf("Named(/named) = %q; the name wins", got)
	}
	if got := session.Named(""); got != "/from/env" {
		t.Errorf("Named(\"\") = %q; want $%s trimmed", got, session.Env)
	}
	t.Setenv(session.Env, "")
	if got := session.Named(""); got != "" {
		t.Errorf("Named(\"\") without $%s = %q; want no session", session.Env, got)
	}
}
