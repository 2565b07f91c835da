package session_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/session"
	"github.com/reactive-ccm/ccm/resources"
)

// store is a new session store under the test's temporary directory.
func store(t *testing.T) *session.Store {
	t.Helper()
	s, err := session.Create(filepath.Join(t.TempDir(), "session"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestOpenAMissingStoreSaysHowToStartOne(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "none")
	_, err := session.Open(dir)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "start one with `ccm session new --directory "+dir+"`") {
		t.Fatalf("Open(missing) = %v; want ErrNotExist saying how to start one", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open made the directory: %v", err)
	}
}

func TestCreate(t *testing.T) {
	t.Run("in an empty directory that exists", func(t *testing.T) {
		dir := t.TempDir()
		s, err := session.Create(dir)
		if err != nil {
			t.Fatal(err)
		}
		es, err := s.Events()
		if err != nil || es.Start == nil || es.Start.Protocol != session.StartProtocol || len(es.Resources) != 0 {
			t.Fatalf("a new store's events: %+v, %v; want its start event alone", es, err)
		}
	})
	t.Run("unnamed, under the temporary directory", func(t *testing.T) {
		t.Setenv("TMPDIR", t.TempDir())
		s, err := session.Create("")
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(s.Dir()) != os.Getenv("TMPDIR") || !strings.HasPrefix(filepath.Base(s.Dir()), "ccm-session-") {
			t.Fatalf("Create(\"\") made %s; want ccm-session-* under $TMPDIR", s.Dir())
		}
		if fi, err := os.Stat(s.Dir()); err != nil || fi.Mode().Perm() != 0o700 {
			t.Fatalf("its mode: %v, %v; want 0700", fi.Mode(), err)
		}
	})
	t.Run("over a file", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(file, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := session.Create(file); err == nil || !strings.Contains(err.Error(), "creating session store") {
			t.Fatalf("Create(a file) = %v; want an error saying it could not create the store", err)
		}
	})
}

func TestRecordLeavesOnlyTheEvent(t *testing.T) {
	s := store(t)
	ev := event("file", "/etc/motd", "", nil)
	if err := s.Record(ev); err != nil {
		t.Fatal(err)
	}
	names, err := filepath.Glob(filepath.Join(s.Dir(), "*"))
	if err != nil {
		t.Fatal(err)
	}
	hidden, _ := filepath.Glob(filepath.Join(s.Dir(), ".*"))
	if len(names) != 2 || len(hidden) != 0 {
		t.Fatalf("the store holds %v and %v; want the start and the event, no temporary file", names, hidden)
	}
	if fi, err := os.Stat(filepath.Join(s.Dir(), ev.EventID+".event")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the event's file: %v, %v; want mode 0600", fi, err)
	}
	if err := os.RemoveAll(s.Dir()); err != nil {
		t.Fatal(err)
	}
	if err := s.Record(ev); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), s.Dir()) {
		t.Fatalf("Record into a removed store = %v; want ErrNotExist naming it", err)
	}
}

func TestEventsReadsOnlyEventFiles(t *testing.T) {
	s := store(t)
	put := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(s.Dir(), name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	put("notes.txt", "not an event")
	put("other.event", `{"protocol": "io.example.other", "type": "file", "name": "/x"}`)
	put("a.event", `{"protocol": "`+engine.EventProtocol+`", "type": "exec", "name": "late", "timestamp": "2026-01-01T00:00:02Z"}`)
	put("b.event", `{"protocol": "`+engine.EventProtocol+`", "type": "exec", "name": "early", "timestamp": "2026-01-01T00:00:01Z"}`)
	es, err := s.Events()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, ev := range es.Resources {
		ids = append(ids, ev.ID())
	}
	if strings.Join(ids, " ") != "exec#early exec#late" {
		t.Fatalf("events %v; want the two resource events by their timestamps, other protocols and files left out", ids)
	}
	for name, body := range map[string]string{
		"not JSON":          `{"protocol": `,
		"a bad event field": `{"protocol": "` + engine.EventProtocol + `", "timestamp": "yesterday"}`,
		"a bad start field": `{"protocol": "` + session.StartProtocol + `", "timestamp": 1}`,
	} {
		t.Run(name, func(t *testing.T) {
			put("z.event", body)
			defer os.Remove(filepath.Join(s.Dir(), "z.event"))
			if _, err := s.Events(); err == nil || !strings.Contains(err.Error(), "session "+s.Dir()+": z.event: ") {
				t.Fatalf("Events = %v; want an error naming the store and the file", err)
			}
		})
	}
}

func TestLastMatchesAnAliasOnlyWhenThereIsOne(t *testing.T) {
	s := store(t)
	if err := s.Record(event("file", "/etc/motd", "", nil)); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"file#", "exec#/etc/motd", "file#/etc/motd "} {
		if ev, err := s.Last(ref); !errors.Is(err, session.ErrNoEvents) {
			t.Errorf("Last(%q) = %+v, %v; want ErrNoEvents", ref, ev, err)
		}
	}
	if _, err := s.Last("file#"); !strings.Contains(err.Error(), "(session "+s.Dir()+")") {
		t.Errorf("the error %q does not name the session", err)
	}
}

func TestSummarizeWithoutAStartEvent(t *testing.T) {
	first := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(d time.Duration, long time.Duration) *engine.Event {
		return event("exec", "same", "", func(ev *engine.Event) { ev.Timestamp, ev.Duration = first.Add(d), long })
	}
	// Out of order, and one ends after the one that started last.
	got := session.Summarize(session.Events{Resources: []*engine.Event{at(time.Second, 5*time.Second), at(0, time.Second), at(2*time.Second, time.Second)}})
	want := session.Counts{StartTime: first, EndTime: first.Add(6 * time.Second), Duration: 6 * time.Second, Total: 3, Unique: 1, Stable: 3}
	if got.Counts != want || got.Errors != 0 {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	if empty := session.Summarize(session.Events{}); empty != (session.Summary{}) {
		t.Fatalf("no events: %+v, want nothing counted", empty)
	}
}

func TestSummaryWrite(t *testing.T) {
	s := session.Summary{Counts: session.Counts{Duration: 1500*time.Millisecond + 400*time.Microsecond, Total: 6, Stable: 1, Changed: 2, Failed: 1, Skipped: 2, Refreshed: 1}, Errors: 1}
	var b strings.Builder
	s.Write(&b)
	want := `
Session Summary

             Run Time: 1.5s
      Total Resources: 6
     Stable Resources: 1
    Changed Resources: 2
     Failed Resources: 1
    Skipped Resources: 2
  Refreshed Resources: 1
         Total Errors: 1
`
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	session.Summary{}.Write(&b)
	if strings.Contains(b.String(), "Run Time") {
		t.Fatalf("a session that took no time shows a run time:\n%s", b.String())
	}
}

func TestReplayStandsAsRecorded(t *testing.T) {
	r := session.Replay(event("file", "/x", "", func(ev *engine.Event) { ev.Changed, ev.FinalEnsure = true, "present" }))
	if w := r.Watch(); !reflect.ValueOf(w).IsZero() {
		t.Fatalf("a replay watches %+v; it never touches the host", w)
	}
	st, err := r.Check(t.Context())
	if err != nil || st.Desired || st.Ensure != "present" {
		t.Fatalf("before Apply: %+v, %v; want the recorded change pending, ensure present", st, err)
	}
	if _, err := r.Apply(t.Context(), resources.Request{}); err != nil {
		t.Fatal(err)
	}
	if st, err := r.Check(t.Context()); err != nil || !st.Desired {
		t.Fatalf("after Apply: %+v, %v; want desired", st, err)
	}
	failed := session.Replay(event("exec", "x", "", func(ev *engine.Event) { ev.Skipped, ev.UnmetRequirements = true, []string{"exec#y"} }))
	if _, err := failed.Check(t.Context()); err == nil || err.Error() != "exec#x was skipped: its requirements [exec#y] failed earlier in this session" {
		t.Fatalf("a replay skipped for a failed requirement: %v", err)
	}
}
