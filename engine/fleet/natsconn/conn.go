package natsconn

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/synadia-io/orbit.go/natscontext"
)

// reconnectWait is the pause between reconnection attempts, with nats.go's
// jitter on top.
const reconnectWait = time.Second

// Conn is one NATS connection for the whole process. It is safe for
// concurrent use.
type Conn struct {
	nc  *nats.Conn
	js  jetstream.JetStream
	log *slog.Logger

	mu sync.Mutex
	// changed is closed and replaced whenever the connection comes up or
	// goes down.
	changed chan struct{}
	// warned is set once a failed attempt was logged, so a server that
	// stays down is reported once, not every second.
	warned bool
	// denied is the last permission violation the server reported, and
	// deniedAt its count, so a request waiting for an answer that will
	// never come fails at once.
	denied   error
	deniedAt int
	// failFast is Settings.FailFast: a command that runs once; refused is
	// set when the server refused its credentials, which Wait returns.
	failFast bool
	refused  error
}

// Dial starts connecting as s says and returns at once: the connection
// comes up in the background and is re-established whenever it drops.
// Only unusable settings (an unknown context, an unreadable key) are
// errors.
func Dial(s Settings, log *slog.Logger) (*Conn, error) {
	if log == nil {
		log = slog.Default()
	}
	c := &Conn{log: log, changed: make(chan struct{}), failFast: s.FailFast}
	name := s.Name
	if name == "" {
		name = "ccm"
	}
	opts := []nats.Option{
		nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(reconnectWait),
		nats.RetryOnFailedConnect(true), nats.Timeout(2 * time.Second),
		nats.ConnectHandler(c.connected), nats.ReconnectHandler(c.up),
		nats.DisconnectErrHandler(c.down), nats.ReconnectErrHandler(c.failed),
		nats.ErrorHandler(c.async),
	}
	ch := s.choose()
	var err error
	if ch.useCtx {
		c.nc, _, err = natscontext.Connect(ch.context, opts...)
	} else {
		var env []nats.Option
		if env, err = envOptions(); err == nil {
			c.nc, err = nats.Connect(ch.url, append(env, opts...)...)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("natsconn: %w", explain(err))
	}
	if c.js, err = jetstream.New(c.nc); err != nil {
		c.nc.Close()
		return nil, fmt.Errorf("natsconn: %w", err)
	}
	return c, nil
}

// connected is the first connection: worth a line only after NATS was
// reported unreachable.
func (c *Conn) connected(nc *nats.Conn) {
	c.mu.Lock()
	warned := c.warned
	c.mu.Unlock()
	if !warned {
		c.log.Debug("connected to NATS", "server", nc.ConnectedUrlRedacted())
		c.signal()
		return
	}
	c.up(nc)
}

func (c *Conn) up(nc *nats.Conn) {
	c.log.Info("connected to NATS", "server", nc.ConnectedUrlRedacted())
	c.mu.Lock()
	c.warned = false
	c.mu.Unlock()
	c.signal()
}

func (c *Conn) down(_ *nats.Conn, err error) {
	if err != nil {
		c.log.Warn("disconnected from NATS; reconnecting in the background", "error", err)
	}
	c.signal()
}

func (c *Conn) failed(_ *nats.Conn, err error) {
	c.mu.Lock()
	first := !c.warned
	c.warned = true
	refused := c.failFast && (errors.Is(err, nats.ErrAuthorization) || errors.Is(err, nats.ErrAuthExpired) || errors.Is(err, nats.ErrAuthRevoked))
	if refused {
		// Waiting cannot help a command that runs once.
		c.refused = explain(err)
	}
	c.mu.Unlock()
	switch {
	case refused:
		c.signal()
	case first:
		c.log.Warn("NATS unreachable; retrying in the background", "error", err)
	}
}

// async hears the errors the server sends outside any request: a
// permission violation fails the requests in flight (see Up).
func (c *Conn) async(_ *nats.Conn, _ *nats.Subscription, err error) {
	if !errors.Is(err, nats.ErrPermissionViolation) {
		c.log.Warn("NATS reported an error", "error", err)
		return
	}
	c.log.Error("NATS refused an operation; grant the permission (see docs/fleet.md)", "error", err)
	if !c.failFast {
		// A long-running process carries on: the refusal concerns one
		// operation, which fails and is retried with the others untouched.
		return
	}
	c.mu.Lock()
	c.denied = fmt.Errorf("%w: %w", ErrPermission, err)
	c.deniedAt++
	c.mu.Unlock()
	c.signal()
}

// deniedSince returns the permission violation reported after the n-th.
func (c *Conn) deniedSince(n int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.deniedAt > n {
		return c.denied
	}
	return nil
}

func (c *Conn) denials() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.deniedAt
}

func (c *Conn) signal() {
	c.mu.Lock()
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

// Changed returns a channel closed at the next time the connection comes
// up or goes down.
func (c *Conn) Changed() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.changed
}

// NATS is the underlying connection.
func (c *Conn) NATS() *nats.Conn { return c.nc }

// JetStream is the JetStream context of the connection.
func (c *Conn) JetStream() jetstream.JetStream { return c.js }

// Connected reports whether the connection is up now.
func (c *Conn) Connected() bool { return c.nc.IsConnected() }

// Wait returns once the connection is up, or ErrNotConnected when ctx
// ends first.
func (c *Conn) Wait(ctx context.Context) error {
	for {
		changed := c.Changed()
		if c.nc.IsConnected() {
			return nil
		}
		c.mu.Lock()
		refused := c.refused
		c.mu.Unlock()
		if refused != nil {
			return fmt.Errorf("natsconn: %w", refused)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("%w: %w", ErrNotConnected, context.Cause(ctx))
		}
	}
}

// Up waits for the connection like Wait, then returns a context that is
// cancelled with ErrNotConnected when the connection drops, or (for a
// command that runs once, Settings.FailFast) with ErrPermission when the
// server refuses something meanwhile, so a request in flight fails at
// once instead of waiting out its timeout.
func (c *Conn) Up(ctx context.Context) (context.Context, context.CancelFunc, error) {
	if err := c.Wait(ctx); err != nil {
		return nil, nil, err
	}
	uctx, cancel := context.WithCancelCause(ctx)
	seen := c.denials()
	go func() {
		// Handlers run late: a change may be the "connected" already seen.
		for {
			changed := c.Changed()
			if !c.nc.IsConnected() {
				cancel(ErrNotConnected)
				return
			}
			if err := c.deniedSince(seen); err != nil {
				cancel(err)
				return
			}
			select {
			case <-changed:
			case <-uctx.Done():
				return
			}
		}
	}()
	return uctx, func() { cancel(context.Canceled) }, nil
}

// Close drops the connection.
func (c *Conn) Close() { c.nc.Close() }

// Run calls f with a context from Up, for a command that runs once. When f
// fails because that context ended, the error says why it ended (the
// connection dropped, or the server refused a permission), and errors
// carry what to do (see Explain).
func (c *Conn) Run(ctx context.Context, f func(context.Context) error) error {
	uctx, cancel, err := c.Up(ctx)
	if err != nil {
		return Explain(err)
	}
	defer cancel()
	err = f(uctx)
	if cause := context.Cause(uctx); err != nil && uctx.Err() != nil && !errors.Is(cause, context.Canceled) {
		err = cause
	}
	return Explain(err)
}

// Once runs f once on a connection of its own, for an operator's command:
// the server is dialled without retrying (FailFast), so a refused login or
// a server that is not there is an error at once; f runs under Run, within
// timeout; the connection is closed when f returns.
func Once(ctx context.Context, s Settings, log *slog.Logger, timeout time.Duration, f func(context.Context, *Conn) error) error {
	s.FailFast = true
	c, err := Dial(s, log)
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return c.Run(ctx, func(ctx context.Context) error { return f(ctx, c) })
}
