package natsconn_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn/natstest"
)

func TestOnceRunsOnAConnectionOfItsOwnThenClosesIt(t *testing.T) {
	isolate(t)
	srv := natstest.Start(t, natstest.Options{})
	t.Setenv("NATS_URL", srv.URL())
	var used *natsconn.Conn
	boom := errors.New("boom")
	err := natsconn.Once(t.Context(), natsconn.FromEnv(""), nil, time.Minute, func(ctx context.Context, c *natsconn.Conn) error {
		used = c
		if _, err := c.JetStream().AccountInfo(ctx); err != nil {
			return err
		}
		if _, ok := ctx.Deadline(); !ok {
			return errors.New("f runs without the timeout")
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Once = %v, want f's error", err)
	}
	if used == nil || !used.NATS().IsClosed() {
		t.Fatal("the connection is left open after f")
	}
}

func TestOnceFailsAtOnceOnARefusedLogin(t *testing.T) {
	isolate(t)
	srv := natstest.Start(t, natstest.Options{User: "ops", Password: "right"})
	t.Setenv("NATS_URL", srv.URL())
	t.Setenv("NATS_USER", "ops")
	t.Setenv("NATS_PASSWORD", "wrong")
	called := false
	// Without FailFast the login would be retried until the hour is up.
	err := natsconn.Once(t.Context(), natsconn.FromEnv(""), nil, time.Hour, func(context.Context, *natsconn.Conn) error {
		called = true
		return nil
	})
	if err == nil || called || !strings.Contains(strings.ToLower(err.Error()), "authorization") {
		t.Fatalf("Once = %v (f called: %t), want the refused login", err, called)
	}
}
