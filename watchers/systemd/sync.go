package systemd

import (
	"context"
	"fmt"
)

// Sync returns once the hub has applied every Watch and cancel made
// before the call (its references on the units taken or released; when
// polling, their states read) and has called the notify functions for
// every change systemd reported before it, so that a test can tell a
// notification still due from one that will never come. It fails, wrapping ErrUnavailable, while
// disconnected.
func (h *Hub) Sync(ctx context.Context) error {
	l, err := h.current(ctx)
	if err != nil {
		return err
	}
	// systemd answers after sending the signals it queued before the call
	// and the bus keeps one sender's messages in order, so once the answer
	// is in, those signals are in l.signals, which the loop drains.
	if err := l.manager().CallWithContext(ctx, "org.freedesktop.DBus.Peer.Ping", 0).Err; err != nil {
		return fmt.Errorf("%w: systemd did not answer a ping: %v", ErrUnavailable, err)
	}
	done := make(chan struct{})
	select {
	case h.syncs <- done:
	case <-ctx.Done():
		return fmt.Errorf("systemd: waiting for the hub's loop: %w", ctx.Err())
	}
	select {
	case <-done:
		return nil
	case <-l.lost():
		return fmt.Errorf("%w: the connection dropped during Sync", ErrUnavailable)
	case <-ctx.Done():
		return fmt.Errorf("systemd: waiting for the hub's loop: %w", ctx.Err())
	}
}
