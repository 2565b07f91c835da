package systemd

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	sddbus "github.com/coreos/go-systemd/v22/dbus"
	godbus "github.com/godbus/dbus/v5"
)

// Options configure a Hub. The zero value is what Default uses.
type Options struct {
	// Dial opens an authenticated connection to systemd's bus API; the
	// connection must live until ctx is cancelled. Default: DialSystem.
	Dial func(ctx context.Context) (*godbus.Conn, error)
	// Poll, when non-zero, makes the hub poll the watched units at this
	// interval instead of subscribing to signals. The hub also polls, at
	// DefaultPoll, when signals cannot be subscribed to.
	Poll time.Duration
	// Logger receives one line per connection state change. Default:
	// slog.Default().
	Logger *slog.Logger
}

// DefaultPoll is the polling interval when signals are not available.
const DefaultPoll = 2 * time.Second

// Hub is one connection to systemd shared by the whole process. Its
// methods are safe for concurrent use.
type Hub struct {
	opts   Options
	start  sync.Once
	ready  chan struct{}      // closed once the first connection attempt is over
	kick   chan struct{}      // wakes the loop: the set of watched units changed
	syncs  chan chan struct{} // Sync's requests, each closed once served
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{} // closed when the loop has exited

	mu      sync.Mutex
	units   map[string]*watched // by unit name
	link    *link               // nil while disconnected
	lastErr error               // why link is nil
	state   string              // last logged state
	started bool                // the loop was started
}

var (
	defaultOnce sync.Once
	defaultHub  *Hub
)

// Default returns the process-wide hub. It connects on first use (Watch,
// Ready or Conn) and never closes.
func Default() *Hub {
	defaultOnce.Do(func() { defaultHub = New(Options{}) })
	return defaultHub
}

// New returns a hub with its own connection, for tests and tools; the
// engine uses Default. It connects on first use.
func New(opts Options) *Hub {
	if opts.Dial == nil {
		opts.Dial = DialSystem
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	// The loop's context outlives every caller: it is the connection's life.
	ctx, cancel := context.WithCancel(context.Background())
	return &Hub{
		opts: opts, ready: make(chan struct{}), kick: make(chan struct{}, 1), syncs: make(chan chan struct{}),
		ctx: ctx, cancel: cancel, done: make(chan struct{}),
		units: map[string]*watched{}, lastErr: fmt.Errorf("%w: not connected yet", ErrUnavailable),
	}
}

func (h *Hub) run() {
	h.start.Do(func() {
		h.mu.Lock()
		h.started = true
		h.mu.Unlock()
		go h.loop()
	})
}

// Ready returns once the hub is subscribed to systemd's signals, or
// polling, or has failed its first connection attempt (it keeps retrying),
// so the engine can arm watches before the first check. It returns at once
// when nothing was ever watched: a host without services needs no bus.
func (h *Hub) Ready(ctx context.Context) error {
	h.mu.Lock()
	idle := !h.started
	h.mu.Unlock()
	if idle {
		return nil
	}
	return h.waitReady(ctx)
}

// waitReady starts the hub if needed and waits for its first connection
// attempt.
func (h *Hub) waitReady(ctx context.Context) error {
	h.run()
	select {
	case <-h.ready:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("systemd: waiting for the hub: %w", ctx.Err())
	}
}

// Conn returns the shared connection for calls to systemd (start, stop,
// enable, unit properties). It waits for the first connection attempt and
// returns an error wrapping ErrUnavailable while disconnected. Callers must
// not close it.
func (h *Hub) Conn(ctx context.Context) (*sddbus.Conn, error) {
	l, err := h.current(ctx)
	if err != nil {
		return nil, err
	}
	return l.sd, nil
}

// current waits for the first connection attempt and returns the live
// connection, or an error wrapping ErrUnavailable.
func (h *Hub) current(ctx context.Context) (*link, error) {
	if err := h.waitReady(ctx); err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.link == nil || !h.link.sd.Connected() {
		return nil, h.lastErr
	}
	return h.link, nil
}

// Close stops the hub and closes its connection. Registrations stay
// registered but are never notified again.
func (h *Hub) Close() {
	h.cancel()
	h.start.Do(func() { close(h.done) })
	<-h.done
}

// setLink records the current connection (nil with the reason when
// disconnected) and logs the state when it changed.
func (h *Hub) setLink(l *link, state string, err error) {
	h.mu.Lock()
	h.link = l
	if err != nil {
		h.lastErr = fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	changed := state != h.state
	h.state = state
	h.mu.Unlock()
	if !changed {
		return
	}
	if err != nil {
		h.opts.Logger.Warn("systemd: "+state+"; retrying", "error", err)
		return
	}
	h.opts.Logger.Info("systemd: " + state)
}
