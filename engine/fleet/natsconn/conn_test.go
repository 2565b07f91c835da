package natsconn_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn/natstest"
)

// isolate points the nats CLI's configuration at an empty directory and
// clears the variables Dial reads.
func isolate(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	for _, v := range []string{"NATS_URL", "NATS_CONTEXT", "NATS_USER", "NATS_PASSWORD", "NATS_CREDS", "NATS_NKEY", "NATS_CERT", "NATS_KEY", "NATS_CA"} {
		t.Setenv(v, "")
	}
	return dir
}

func writeContext(t *testing.T, cfg, name, body string) string {
	t.Helper()
	dir := filepath.Join(cfg, "nats", "context")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, name+".json")
	if err := os.WriteFile(f, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

func waitUp(t *testing.T, c *natsconn.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := c.Wait(ctx); err != nil {
		t.Fatal(err)
	}
}

func dial(t *testing.T, s natsconn.Settings) *natsconn.Conn {
	t.Helper()
	c, err := natsconn.Dial(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func TestDialChoosesTheServer(t *testing.T) {
	srv := natstest.Start(t, natstest.Options{User: "ccm", Password: "s3cret"})
	ctxJSON := fmt.Sprintf(`{"url": %q, "user": "ccm", "password": "s3cret"}`, srv.URL())

	t.Run("named context", func(t *testing.T) {
		cfg := isolate(t)
		writeContext(t, cfg, "fleet", ctxJSON)
		waitUp(t, dial(t, natsconn.FromEnv("fleet")))
	})
	t.Run("NATS_CONTEXT", func(t *testing.T) {
		cfg := isolate(t)
		writeContext(t, cfg, "fleet", ctxJSON)
		t.Setenv("NATS_CONTEXT", "fleet")
		waitUp(t, dial(t, natsconn.FromEnv("")))
	})
	t.Run("context file by absolute path", func(t *testing.T) {
		cfg := isolate(t)
		f := writeContext(t, cfg, "elsewhere", ctxJSON)
		waitUp(t, dial(t, natsconn.FromEnv(f)))
	})
	t.Run("NATS_URL with NATS_USER", func(t *testing.T) {
		isolate(t)
		t.Setenv("NATS_URL", srv.URL())
		t.Setenv("NATS_USER", "ccm")
		t.Setenv("NATS_PASSWORD", "s3cret")
		waitUp(t, dial(t, natsconn.FromEnv("")))
	})
	t.Run("upstream's default context CCM", func(t *testing.T) {
		cfg := isolate(t)
		writeContext(t, cfg, natsconn.DefaultContext, ctxJSON)
		waitUp(t, dial(t, natsconn.FromEnv("")))
	})
	t.Run("unknown context", func(t *testing.T) {
		isolate(t)
		if _, err := natsconn.Dial(natsconn.FromEnv("nope"), nil); err == nil {
			t.Fatal("an unknown context was accepted")
		}
	})
}

func TestDialOverTLSWithTheContextsCA(t *testing.T) {
	cfg, ca := natstest.SelfSigned(t)
	srv := natstest.Start(t, natstest.Options{TLS: cfg})
	dir := isolate(t)
	writeContext(t, dir, "tls", fmt.Sprintf(`{"url": %q, "ca": %q}`, strings.Replace(srv.URL(), "nats://", "tls://", 1), ca))
	waitUp(t, dial(t, natsconn.FromEnv("tls")))

	t.Run("without the CA the server is not trusted", func(t *testing.T) {
		isolate(t)
		t.Setenv("NATS_URL", srv.URL())
		c := dial(t, natsconn.FromEnv(""))
		ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
		defer cancel()
		if err := c.Wait(ctx); err == nil {
			t.Fatal("connected to a server whose certificate no CA vouches for")
		}
	})
	t.Run("NATS_CA", func(t *testing.T) {
		isolate(t)
		t.Setenv("NATS_URL", srv.URL())
		t.Setenv("NATS_CA", ca)
		waitUp(t, dial(t, natsconn.FromEnv("")))
	})
}

func TestConnectionComesBackAfterTheServer(t *testing.T) {
	isolate(t)
	srv := natstest.Start(t, natstest.Options{})
	t.Setenv("NATS_URL", srv.URL())
	c := dial(t, natsconn.FromEnv(""))
	waitUp(t, c)
	srv.Stop()
	deadline := time.Now().Add(10 * time.Second)
	for c.Connected() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if c.Connected() {
		t.Fatal("still connected 10s after the server stopped")
	}
	srv.Restart()
	waitUp(t, c)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if _, err := c.JetStream().AccountInfo(ctx); err != nil {
		t.Fatalf("JetStream after the reconnect: %v", err)
	}
}

// TestDialWithNKeysAndCreds connects with an nkey seed and with a creds
// file, each named by a context and by the environment, and uses
// JetStream: in operator mode it is the account's.
func TestDialWithNKeysAndCreds(t *testing.T) {
	pub, seed := natstest.NKeyUser(t)
	nkeySrv := natstest.Start(t, natstest.Options{NKeys: []string{pub}})
	op := natstest.NewOperator(t)
	credsSrv := natstest.Start(t, natstest.Options{Operator: op})
	creds := op.Creds(t)
	tests := []struct {
		name, url, ctxJSON string
		env                map[string]string
	}{
		{"nkey in a context", nkeySrv.URL(), fmt.Sprintf(`{"url": %q, "nkey": %q}`, nkeySrv.URL(), seed), nil},
		{"NATS_NKEY", nkeySrv.URL(), "", map[string]string{"NATS_URL": nkeySrv.URL(), "NATS_NKEY": seed}},
		{"creds in a context", credsSrv.URL(), fmt.Sprintf(`{"url": %q, "creds": %q}`, credsSrv.URL(), creds), nil},
		{"NATS_CREDS", credsSrv.URL(), "", map[string]string{"NATS_URL": credsSrv.URL(), "NATS_CREDS": creds}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := isolate(t)
			name := ""
			if tt.ctxJSON != "" {
				writeContext(t, cfg, "fleet", tt.ctxJSON)
				name = "fleet"
			}
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			c := dial(t, natsconn.FromEnv(name))
			waitUp(t, c)
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			if _, err := c.JetStream().AccountInfo(ctx); err != nil {
				t.Fatalf("JetStream: %v", err)
			}
		})
	}
	t.Run("a key the server does not know is refused, saying so", func(t *testing.T) {
		_, other := natstest.NKeyUser(t)
		isolate(t)
		t.Setenv("NATS_URL", nkeySrv.URL())
		t.Setenv("NATS_NKEY", other)
		warned := make(chan string, 1)
		c, err := natsconn.Dial(natsconn.FromEnv(""), slog.New(slog.NewTextHandler(lineWriter(warned), nil)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		if line := <-warned; !strings.Contains(line, "Authorization Violation") || c.Connected() {
			t.Fatalf("first warning %q, connected %v: want a refused connection", line, c.Connected())
		}
	})
}

// lineWriter sends the first line written to it on ch and drops the rest.
type lineWriter chan string

func (w lineWriter) Write(p []byte) (int, error) {
	select {
	case w <- string(p):
	default:
	}
	return len(p), nil
}
