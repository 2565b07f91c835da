package control_test

import (
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/control"
)

// scripted serves a daemon of this process's user that answers every
// request with code and body, as a daemon of another version or a broken
// one might, and returns its socket.
func scripted(t *testing.T, code int, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ccm.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(code)
		_, _ = w.Write([]byte(body))
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return path
}

// TestClientReadsWhatTheDaemonAnswers: how the client takes each kind
// of answer.
func TestClientReadsWhatTheDaemonAnswers(t *testing.T) {
	events := func(c *control.Client) error {
		return c.Events(t.Context(), false, func(*engine.Event) error { return nil })
	}
	pause := func(c *control.Client) error {
		_, err := c.Pause(t.Context(), control.PauseRequest{All: true})
		return err
	}
	status := func(c *control.Client) error { _, err := c.Status(t.Context()); return err }
	for _, tc := range []struct {
		name string
		code int
		body string
		do   func(*control.Client) error
		is   error
		want string
	}{
		{"a refusal", http.StatusForbidden, `{"error": "the control socket answers root only"}`, status, control.ErrDenied,
			"control: permission denied: the control socket answers root only ("},
		{"an error", http.StatusInternalServerError, `{"error": "the engine stopped"}`, status, control.ErrRequest, "control: the engine stopped"},
		{"an error without a body", http.StatusBadGateway, ``, status, control.ErrRequest, "control: "},
		{"an answer that is no JSON", http.StatusOK, `<html>`, status, control.ErrRequest, "control: reading the daemon's answer: "},
		{"a pause not recorded", http.StatusOK, `{}`, pause, control.ErrRequest, "control: the daemon recorded no pause"},
		{"an event that is no JSON", http.StatusOK, "{\"type\": \"file\"}\n[1]\n", events, control.ErrRequest, "control: reading events: "},
		{"the stream's end said", http.StatusOK, "{\"error\": \"fell behind\"}\n", events, control.ErrFellBehind, control.ErrFellBehind.Error()},
		{"events", http.StatusOK, "{\"type\": \"file\", \"name\": \"/a\"}\n{\"type\": \"exec\", \"name\": \"b\"}\n", events, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.do(control.NewClient(scripted(t, tc.code, tc.body)))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if (tc.is == nil) != (err == nil) || (tc.is != nil && !errors.Is(err, tc.is)) || !strings.HasPrefix(got, tc.want) {
				t.Fatalf("error %v, want %v starting %q", err, tc.is, tc.want)
			}
		})
	}
}
