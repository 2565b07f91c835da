package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/internal/ownership"
	"github.com/segmentio/ksuid"
	"golang.org/x/sys/unix"
)

// StartProtocol names the event recorded when a session is created.
const StartProtocol = "io.choria.ccm.v1.session.start"

// Env names the session store a command records in when it names none,
// as upstream CCM's.
const Env = "CCM_SESSION_STORE"

// Named is the session store's directory: named, else $CCM_SESSION_STORE,
// else "" (no session).
func Named(named string) string {
	if named != "" {
		return named
	}
	return strings.TrimSpace(os.Getenv(Env))
}

// ext is the suffix of event files.
const ext = ".event"

// MaxEvent bounds an event file: a thousand times a typical event.
const MaxEvent = 1 << 20

// Store is a session store: a directory of event files. Every use opens
// the directory again under the ownership rule (internal/ownership) and
// acts relative to that descriptor, so a directory another user owns or
// may write is refused each time, not only when it was opened.
type Store struct {
	dir string
}

// Start is the event that opens a session.
type Start struct {
	Protocol  string    `json:"protocol"`
	EventID   string    `json:"event_id"`
	Timestamp time.Time `json:"timestamp"`
}

// Open opens the session store in dir, which must exist and pass the
// ownership rule: owned by root or ccm's user, writable by no one else,
// nor under a directory others may change. A missing one says how to
// start it.
func Open(dir string) (*Store, error) {
	s := &Store{dir: dir}
	d, err := s.open()
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w; start one with `ccm session new --directory %s`", err, dir)
	}
	if err != nil {
		return nil, err
	}
	return s, d.Close()
}

// Create makes dir a new session store: it creates the directory (mode
// 0700), which may exist only when empty and passing the ownership rule,
// and records the start event. With dir empty it creates one under the
// system's temporary directory.
func Create(dir string) (*Store, error) {
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "ccm-session-"); err != nil {
			return nil, fmt.Errorf("creating session store: %w", err)
		}
	}
	d, err := ownership.MkdirAll(dir, 0o700)
	if err != nil {
		return nil, fmt.Errorf("creating session store: %w", err)
	}
	defer d.Close()
	names, err := entries(d)
	if err != nil {
		return nil, err
	}
	if len(names) > 0 {
		return nil, fmt.Errorf("session store %s: the directory exists and is not empty", dir)
	}
	s := &Store{dir: dir}
	id := ksuid.New()
	return s, s.write(d, id.String(), Start{Protocol: StartProtocol, EventID: id.String(), Timestamp: id.Time().UTC()})
}

// open opens the store's directory under the ownership rule.
func (s *Store) open() (*os.File, error) {
	d, err := ownership.OpenDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("session store %s: %w", s.dir, err)
	}
	return d, nil
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// Record writes ev as the store's next event.
func (s *Store) Record(ev *engine.Event) error {
	d, err := s.open()
	if err != nil {
		return err
	}
	defer d.Close()
	return s.write(d, ev.EventID, ev)
}

// write stores v as <id>.event in d, mode 0600: a temporary file renamed
// into place.
func (s *Store) write(d *os.File, id string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := writeIn(d, id+ext, append(b, '\n')); err != nil {
		return fmt.Errorf("recording the event in session %s: %w", s.dir, err)
	}
	return nil
}

// writeIn writes b to name in d through a new temporary file, private
// to ccm's user, that is renamed over name.
func writeIn(d *os.File, name string, b []byte) error {
	dfd := int(d.Fd())
	tmp := ".event-" + strconv.FormatUint(rand.Uint64(), 36)
	fd, err := unix.Openat(dfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), tmp)
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = unix.Renameat(dfd, tmp, dfd, name)
	}
	if err != nil {
		unix.Unlinkat(dfd, tmp, 0)
	}
	return err
}

// Events are what a session recorded, in order.
type Events struct {
	// Start is the session's start event, nil when the directory was made
	// by other means (export CCM_SESSION_STORE=$(mktemp -d)).
	Start *Start
	// Resources are the resources' events, oldest first.
	Resources []*engine.Event
}

// Events reads every event of the session. Each event file must be a
// regular file of at most MaxEvent bytes that passes the ownership rule
// (written by root or ccm's user, writable by no one else): a FIFO, a
// link (to /dev/zero or anywhere) or a file another user wrote is an
// error naming it, not a hang or an event believed.
func (s *Store) Events() (Events, error) {
	var out Events
	d, err := s.open()
	if err != nil {
		return out, err
	}
	defer d.Close()
	names, err := entries(d)
	if err != nil {
		return out, err
	}
	for _, name := range names {
		if !strings.HasSuffix(name, ext) {
			continue
		}
		b, err := ownership.ReadFileIn(d, name, MaxEvent)
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
	d, err := s.open()
	if err != nil {
		return err
	}
	defer d.Close()
	names, err := entries(d)
	if err != nil {
		return err
	}
	for _, name := range names {
		if !strings.HasSuffix(name, ext) {
			return fmt.Errorf("session %s: %w: it holds %s; remove it yourself", s.dir, ErrNotStore, name)
		}
	}
	for _, name := range names {
		if err := unix.Unlinkat(int(d.Fd()), name, 0); err != nil && !errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("session %s: removing %s: %w", s.dir, name, err)
		}
	}
	return os.Remove(s.dir)
}

// entries lists the names in d, sorted.
func entries(d *os.File) ([]string, error) {
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("session store: %w", err)
	}
	sort.Strings(names)
	return names, nil
}
