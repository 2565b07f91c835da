package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
)

// DefaultHeartbeat is the longest a host waits between two status
// publications.
const DefaultHeartbeat = 30 * time.Second

// queueSize bounds the events kept while NATS is away.
const queueSize = 10_000

// Options configure a Reporter.
type Options struct {
	// Host names the host in subjects, keys and events.
	Host string
	NATS *natsconn.Lazy
	// Heartbeat is the longest between two status publications; default
	// DefaultHeartbeat.
	Heartbeat time.Duration
	// Sources returns the source revisions in force and the last refusals,
	// read at each status publication.
	Sources func() ([]Revision, []Refusal)
	Logger  *slog.Logger
	// EventsOnly publishes the events and never the host's status: a noop
	// run says what would change, while the status bucket holds what the
	// host is, which a noop run of the same host must not overwrite.
	EventsOnly bool
}

// Reporter publishes one host's events and status. Its methods other than
// Run and Flush never block, so the engine's event path stays fast.
type Reporter struct {
	opts    Options
	subject string
	key     string
	kick    chan struct{}

	mu      sync.Mutex
	queue   []queued // events not yet published, oldest first
	seq     uint64   // sequence number of the last event queued
	dropped uint64
	status  Status
	dirty   bool // status changed since it was last published
	// ready is set once the stream and bucket are known to exist.
	ready  bool
	failed bool // the last attempt failed; logged once per outage
	// putRev is the revision of this process's last status put, 0 before
	// the first: a put expecting it fails when another process wrote since.
	putRev uint64
	// dupWarned is set once a duplicate host name was logged.
	dupWarned bool
}

// New returns a reporter for opts.Host, which CheckHost must accept.
func New(opts Options) (*Reporter, error) {
	if err := CheckHost(opts.Host); err != nil {
		return nil, err
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = DefaultHeartbeat
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Reporter{
		opts: opts, subject: SubjectPrefix + opts.Host, key: opts.Host, kick: make(chan struct{}, 1),
		status: Status{Host: opts.Host, Heartbeat: opts.Heartbeat, Instance: instance()}, dirty: true,
	}, nil
}

// queued is an event waiting to be published.
type queued struct {
	seq  uint64
	data []byte
}

// Event queues ev for publication, as its JSON with the host's name
// added first.
func (r *Reporter) Event(ev *engine.Event) {
	b, err := json.Marshal(ev)
	if err != nil || len(b) < 2 || b[0] != '{' {
		return
	}
	host, _ := json.Marshal(r.opts.Host)
	sep := []byte(",")
	if b[1] == '}' {
		sep = nil
	}
	b = append(append(append([]byte(`{"host":`), host...), sep...), b[1:]...)
	r.mu.Lock()
	if len(r.queue) >= queueSize {
		r.queue = r.queue[1:]
		r.dropped++
	}
	r.seq++
	r.queue = append(r.queue, queued{seq: r.seq, data: b})
	r.mu.Unlock()
	r.poke()
}

// Settled records the engine's standing after it went idle.
func (r *Reporter) Settled(st engine.State) {
	now := time.Now()
	r.update(func(s *Status) {
		s.Resources, s.Converged, s.Failed, s.Blocked, s.Contested, s.Pending = st.Resources, st.Converged, st.Failed, st.Blocked, st.Contested, st.Pending
		s.Unhealthy, s.RolledBack = st.Unhealthy, st.RolledBack
		s.FailedResources, s.ContestedResources, s.ContestedWriters = st.FailedIDs, st.ContestedIDs, st.Writers
		s.LastSettled = now
		if st.Converged == st.Resources {
			s.LastConverged = now
		}
	})
}

// Applied records the revisions of the manifests now running, after a
// load or a reload that compiled; a revision keeps the time it was first
// applied.
func (r *Reporter) Applied(revs []Revision) {
	now := time.Now()
	r.update(func(s *Status) {
		since := map[string]time.Time{}
		for _, a := range s.Applied {
			since[a.Source+"\x00"+a.Revision] = a.Since
		}
		s.Applied = make([]Revision, len(revs))
		for i, rev := range revs {
			rev.Since = now
			if t, ok := since[rev.Source+"\x00"+rev.Revision]; ok {
				rev.Since = t
			}
			rev.Cached = false
			s.Applied[i] = rev
		}
	})
}

// Refresh publishes the status again soon, for a change it reads through
// Options.Sources (a refused revision).
func (r *Reporter) Refresh() { r.update(func(*Status) {}) }

// Reloaded records the outcome of a reload: err is why it failed, nil
// once one succeeded.
func (r *Reporter) Reloaded(err error) {
	r.update(func(s *Status) {
		s.ReloadError = ""
		if err != nil {
			s.ReloadError = err.Error()
		}
	})
}

func (r *Reporter) update(f func(*Status)) {
	r.mu.Lock()
	f(&r.status)
	r.dirty = true
	r.mu.Unlock()
	r.poke()
}

func (r *Reporter) poke() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// Run publishes until ctx ends: queued events and status changes at once,
// the status at least every heartbeat. While NATS is away it waits for
// it, keeping the newest events.
func (r *Reporter) Run(ctx context.Context) {
	beat := time.NewTicker(r.opts.Heartbeat)
	defer beat.Stop()
	for failures := 0; ; {
		select {
		case <-ctx.Done():
			return
		case <-r.kick:
		case <-beat.C:
			r.mu.Lock()
			r.dirty = true
			r.mu.Unlock()
		}
		if err := r.publish(ctx); err != nil {
			if ctx.Err() != nil {
				return
			}
			r.report(err)
			d := min(time.Second<<min(failures, 5), 30*time.Second)
			failures++
			select {
			case <-ctx.Done():
				return
			case <-time.After(d):
			}
			r.poke()
			continue
		}
		failures = 0
	}
}

// Flush publishes everything queued and the status now, for a one-shot
// run about to exit.
func (r *Reporter) Flush(ctx context.Context) error {
	return r.publish(ctx)
}

// report logs a failure once per outage.
func (r *Reporter) report(err error) {
	r.mu.Lock()
	first := !r.failed
	r.failed = true
	r.mu.Unlock()
	if first {
		r.opts.Logger.Warn("reporting to NATS failed; events are kept and sent when it is back", "error", err)
	}
}

// publish sends the queued events, then the status if it changed.
func (r *Reporter) publish(ctx context.Context) error {
	c, err := r.opts.NATS.Get()
	if err != nil {
		return err
	}
	ctx, cancel, err := c.Up(ctx)
	if err != nil {
		return err
	}
	defer cancel()
	js := c.JetStream()
	kv, err := r.setup(ctx, js)
	if err != nil {
		return err
	}
	if err := r.sendEvents(ctx, js); err != nil {
		return err
	}
	if !r.opts.EventsOnly {
		if err := r.sendStatus(ctx, kv); err != nil {
			return err
		}
	}
	r.mu.Lock()
	r.failed = false
	r.mu.Unlock()
	return nil
}

// setup makes sure the stream and the bucket exist, once per process.
func (r *Reporter) setup(ctx context.Context, js jetstream.JetStream) (jetstream.KeyValue, error) {
	r.mu.Lock()
	ready := r.ready
	r.mu.Unlock()
	if !ready {
		if _, err := EnsureStream(ctx, js); err != nil {
			return nil, err
		}
	}
	kv, err := EnsureBucket(ctx, js)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.ready = true
	r.mu.Unlock()
	return kv, nil
}

func (r *Reporter) sendEvents(ctx context.Context, js jetstream.JetStream) error {
	for {
		r.mu.Lock()
		if len(r.queue) == 0 {
			r.mu.Unlock()
			return nil
		}
		next := r.queue[0]
		r.mu.Unlock()
		if _, err := js.Publish(ctx, r.subject, next.data); err != nil {
			return fmt.Errorf("publishing an event to %s: %w", r.subject, err)
		}
		r.mu.Lock()
		// A full queue may have dropped it meanwhile.
		if len(r.queue) > 0 && r.queue[0].seq == next.seq {
			r.queue = r.queue[1:]
		}
		r.mu.Unlock()
	}
}

func (r *Reporter) sendStatus(ctx context.Context, kv jetstream.KeyValue) error {
	r.mu.Lock()
	if !r.dirty {
		r.mu.Unlock()
		return nil
	}
	r.dirty = false
	r.mu.Unlock()
	st := r.snapshot()
	b, err := json.Marshal(st)
	if err == nil {
		err = r.put(ctx, kv, st, b)
	}
	if err != nil {
		r.mu.Lock()
		r.dirty = true
		r.mu.Unlock()
		return fmt.Errorf("publishing the status to %s/%s: %w", Bucket, r.key, err)
	}
	return nil
}

// put writes the status, finding out on the way whether another process
// reports under the same name: the put expects the revision of this
// process's last one, and fails when someone else wrote since.
func (r *Reporter) put(ctx context.Context, kv jetstream.KeyValue, st Status, b []byte) error {
	if r.putRev > 0 {
		rev, err := kv.Update(ctx, r.key, b, r.putRev)
		if err == nil {
			r.putRev = rev
			if st.Duplicate != "" {
				// Nobody else wrote since: the other process is gone.
				r.update(func(s *Status) { s.Duplicate = "" })
			}
			return nil
		}
		if !errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			return err
		}
		r.duplicate(ctx, kv, st)
		if b, err = json.Marshal(r.snapshot()); err != nil {
			return err
		}
	}
	rev, err := kv.Put(ctx, r.key, b)
	if err == nil {
		r.putRev = rev
	}
	return err
}

// duplicate records and logs (once) the other process that wrote under
// this host's key.
func (r *Reporter) duplicate(ctx context.Context, kv jetstream.KeyValue, st Status) {
	e, err := kv.Get(ctx, r.key)
	if err != nil {
		return
	}
	var other Status
	if json.Unmarshal(e.Value(), &other) != nil || other.Instance == st.Instance {
		return
	}
	r.mu.Lock()
	r.status.Duplicate = other.Instance
	first := !r.dupWarned
	r.dupWarned = true
	r.mu.Unlock()
	if first {
		r.opts.Logger.Error("another process reports under this host's name; give each host its own --hostname", "host", r.opts.Host, "other", other.Instance)
	}
}

// snapshot is the status to publish now.
func (r *Reporter) snapshot() Status {
	var srcs []Revision
	var refused []Refusal
	if r.opts.Sources != nil {
		srcs, refused = r.opts.Sources()
	}
	r.mu.Lock()
	st := r.status
	st.Updated, st.DroppedEvents = time.Now(), r.dropped
	r.mu.Unlock()
	st.Sources, st.Refused = srcs, refused
	return st
}

// instance names this process among those reporting: its host, pid and
// start time.
func instance() string {
	h, _ := os.Hostname()
	return fmt.Sprintf("pid %d on %s since %s", os.Getpid(), h, time.Now().UTC().Format(time.RFC3339Nano))
}
