package health_test

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/watchers/systemd/systemdtest"
)

// listen opens a TCP listener on loopback for the test and returns its port.
func listen(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l.Addr().(*net.TCPAddr).Port
}

// closedPort returns a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

func runGoss(t *testing.T, rules string) resources.HealthResult {
	t.Helper()
	return runFirst(t, "- {name: rules, goss_rules: "+rules+"}")
}

func TestGossRules(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "app.conf")
	resourcetest.WriteFile(t, conf, "port = 80\n", 0o640)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "Welcome to Acme Inc")
	}))
	t.Cleanup(srv.Close)
	open, closed := listen(t), closedPort(t)
	tests := []struct {
		name, rules string
		want        resources.HealthStatus
		wantOut     string
	}{
		{"a listening port", fmt.Sprintf("{port: {'tcp:%d': {listening: true}}}", open), resources.HealthOK, "Count: 1, Failed: 0"},
		{"a closed port", fmt.Sprintf("{port: {'tcp:%d': {listening: true}}}", closed), resources.HealthCritical, fmt.Sprintf("tcp:%d: listening:", closed)},
		{"a file's mode and content", fmt.Sprintf("{file: {%s: {exists: true, mode: '0640', contents: ['port = 80']}}}", conf), resources.HealthOK, "Failed: 0"},
		{"a file that is not there", "{file: {" + dir + "/missing: {exists: true}}}", resources.HealthCritical, "exists:"},
		{"an HTTP page", "{http: {" + srv.URL + ": {status: 200, body: [Acme Inc]}}}", resources.HealthOK, "Failed: 0"},
		{"an HTTP page without the text", "{http: {" + srv.URL + ": {status: 200, body: [Globex]}}}", resources.HealthCritical, "Globex"},
		{"a command's exit status", "{command: {'test -s " + conf + "': {exit-status: 0}}}", resources.HealthOK, "Failed: 0"},
		{"a running process", "{process: {sleep-that-never-runs: {running: true}}}", resources.HealthCritical, "running:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runGoss(t, tt.rules)
			if res.Status != tt.want || !strings.Contains(res.Output, tt.wantOut) || res.Name != "rules" {
				t.Errorf("result %+v, want %s with output containing %q", res, tt.want, tt.wantOut)
			}
		})
	}
}

// TestGossServiceInPrivateSystemd checks a unit of the private systemd
// with goss's service rule. Goss asks systemctl, which refuses to run on a
// host not booted with systemd: a systemctl first in PATH runs the real
// one inside the namespace.
func TestGossServiceInPrivateSystemd(t *testing.T) {
	sd := systemdtest.Require(t)
	const unit = "ccm-health-goss.service"
	sd.Install(t, unit, "[Service]\nExecStart=/bin/sleep infinity\n")
	// The namespace sees this PATH too: from here the harness names the
	// real systemctl by its path.
	systemctlShim(t, sd)
	rules := "{service: {ccm-health-goss: {running: true}}}"
	if res := runGoss(t, rules); res.Status != resources.HealthCritical {
		t.Fatalf("stopped unit: %+v, want CRITICAL", res)
	}
	if _, err := sd.Run(t.Context(), "/bin/systemctl", "start", unit); err != nil {
		t.Fatal(err)
	}
	if res := runGoss(t, rules); res.Status != resources.HealthOK {
		t.Fatalf("running unit: %+v, want OK", res)
	}
}

// TestGossTimeout: a rule set still running when the check's timeout
// expires is abandoned, and the check is UNKNOWN, saying so. The rule's
// command blocks on a FIFO until the test lets it go, so only the timeout
// can end the check; while it stays blocked, another rule set still runs.
func TestGossTimeout(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "hold")
	resourcetest.FIFO(t, fifo)
	t.Cleanup(func() { release(t, fifo) })
	res := runFirst(t, "- {name: slow, timeout: 100ms, goss_rules: {command: {'cat "+fifo+"': {exit-status: 0, timeout: 3600000}}}}")
	if res.Status != resources.HealthUnknown || res.Output != "goss: timed out after 100ms; the rules' run was abandoned" {
		t.Fatalf("result %+v, want UNKNOWN saying it timed out after 100ms", res)
	}
	if res := runGoss(t, fmt.Sprintf("{port: {'tcp:%d': {listening: true}}}", listen(t))); res.Status != resources.HealthOK {
		t.Fatalf("a rule set run beside the abandoned one: %+v, want OK", res)
	}
}

// release lets a reader blocked on fifo finish: opening it for writing
// waits for the reader, and closing it gives the reader its end of file.
func release(t *testing.T, fifo string) {
	t.Helper()
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Errorf("releasing the held rule: %v", err)
		return
	}
	f.Close()
}
