package metrics_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine/daemon/metrics"
)

// TestListenAndStop: a bad address is refused at start, saying which;
// Serve answers scrapes, nothing else, and ends without error when its
// context does.
func TestListenAndStop(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:99999", "127.0.0.1"} {
		if _, err := metrics.Listen(addr); err == nil || !strings.HasPrefix(err.Error(), "metrics: listening on "+addr+": ") {
			t.Errorf("Listen(%s) = %v", addr, err)
		}
	}
	ln, err := metrics.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(t.Context())
	served := make(chan error)
	go func() { served <- metrics.New(fixed{}, metrics.Options{Version: "9.9.9"}).Serve(ctx, ln) }()
	base := "http://" + ln.Addr().String()
	for _, tc := range []struct {
		method, path string
		code         int
	}{
		{"GET", "/metrics", http.StatusOK},
		{"POST", "/metrics", http.StatusMethodNotAllowed},
		{"GET", "/", http.StatusNotFound},
	} {
		req, err := http.NewRequestWithContext(t.Context(), tc.method, base+tc.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("%s %s: %s, want %d", tc.method, tc.path, resp.Status, tc.code)
		}
	}
	stop()
	if err := <-served; err != nil {
		t.Fatalf("Serve after its context ended: %v", err)
	}
}
