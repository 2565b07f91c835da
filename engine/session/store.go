package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/segmentio/ksuid"
)

// StartProtocol names the event recorded when a session is created.
const StartProtocol = "io.choria.ccm.v1.session.start"

// ext is the suffix of event files.
const ext = ".event"

// Store is a session store: a directory of event files.
type Store struct {
	dir string
}

// Start is the event that opens a session.
type Start struct {
	Protocol  string    `json:"protocol"`
	EventID   string    `json:"event_id"`
	Timestamp time.Time `json:"timestamp"`
}

// Open opens the session store in dir, which must exist.
func Open(dir string) (*Store, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("session store %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("session store %s: %w: not a directory", dir, ErrNotStore)
	}
	return &Store{dir: dir}, nil
}

// Create makes dir a new session store: it creates the directory (mode
// 0700), which may exist only when empty, and records the start event.
// With dir empty it creates one under the system's temporary directory.
func Create(dir string) (*Store, error) {
	var err error
	if dir == "" {
		dir, err = os.MkdirTemp("", "ccm-session-")
	} else {
		err = os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		return nil, fmt.Errorf("creating session store: %w", err)
	}
	names, err := entries(dir)
	if err != nil {
		return nil, err
	}
	if len(names) > 0 {
		return nil, fmt.Errorf("session store %s: the directory exists and is not empty", dir)
	}
	s := &Store{dir: dir}
	id := ksuid.New()
	return s, s.write(id.String(), Start{Protocol: StartProtocol, EventID: id.String(), Timestamp: id.Time().UTC()})
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// Record writes ev as the store's next event.
func (s *Store) Record(ev *engine.Event) error {
	return s.write(ev.EventID, ev)
}

// write stores v as <id>.event: a temporary file renamed into place.
func (s *Store) write(id string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(s.dir, ".event-*")
	if err != nil {
		return fmt.Errorf("recording the event in session %s: %w", s.dir, err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(s.dir, id+ext))
	}
	if err != nil {
		return fmt.Errorf("recording the event in session %s: %w", s.dir, err)
	}
	return nil
}

// Events are what a session recorded, in order.
type Events struct {
	// Start is the session's start event, nil when the directory was made
	// by other means (export CCM_SESSION_STORE=$(mktemp -d)).
	Start *Start
	// Resources are the resources' events, oldest first.
	Resources []*engine.Event
}

// Events reads every event of the session.
func (s *Store) Events() (Events, error) {
	var out Events
	names, err := entries(s.dir)
	if err != nil {
		return out, err
	}
	for _, name := range names {
		if !strings.HasSuffix(name, ext) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(s.dir, name))
		if err != nil {
			return out, fmt.Errorf("session %s: %w", s.dir, err)
		}
		if err := out.add(b); err != nil {
			return out, fmt.Errorf("session %s: %s: %w", s.dir, name, err)
		}
	}
	// ksuids order events only to the second: the timestamps say which
	// of two events in the same second came last.
	sort.SliceStable(out.Resources, func(i, j int) bool { return out.Resources[i].Timestamp.Before(out.Resources[j].Timestamp) })
	return out, nil
}

func (es *Events) add(b []byte) error {
	var head struct{ Protocol string }
	if err := json.Unmarshal(b, &head); err != nil {
		return err
	}
	switch head.Protocol {
	case StartProtocol:
		var st Start
		if err := json.Unmarshal(b, &st); err != nil {
			return err
		}
		es.Start = &st
	case engine.EventProtocol:
		var ev engine.Event
		if err := json.Unmarshal(b, &ev); err != nil {
			return err
		}
		es.Resources = append(es.Resources, &ev)
	}
	return nil
}

// Last returns the last event of the resource ref names (TYPE#NAME or
// TYPE#ALIAS), or an error wrapping ErrNoEvents.
func (s *Store) Last(ref string) (*engine.Event, error) {
	es, err := s.Events()
	if err != nil {
		return nil, err
	}
	for i := len(es.Resources) - 1; i >= 0; i-- {
		ev := es.Resources[i]
		if ev.ID() == ref || (ev.Alias != "" && ev.Type+"#"+ev.Alias == ref) {
			return ev, nil
		}
	}
	return nil, fmt.Errorf("%w (session %s)", ErrNoEvents, s.dir)
}

// Remove deletes the store: its event files, then the directory. A
// directory holding anything else is left alone.
func (s *Store) Remove() error {
	names, err := entries(s.dir)
	if err != nil {
		return err
	}
	for _, name := range names {
		if !strings.HasSuffix(name, ext) {
			return fmt.Errorf("session %s: %w: it holds %s; remove it yourself", s.dir, ErrNotStore, name)
		}
	}
	for _, name := range names {
		if err := os.Remove(filepath.Join(s.dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return os.Remove(s.dir)
}

// entries lists dir's names, sorted.
func entries(dir string) ([]string, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("session store: %w", err)
	}
	names := make([]string, len(des))
	for i, de := range des {
		names[i] = de.Name()
	}
	sort.Strings(names)
	return names, nil
}
