package main_test

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/metrics"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// openFiles counts the descriptors process pid holds.
func openFiles(t *testing.T, pid int) int {
	t.Helper()
	des, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(des)
}

// TestIdleMetricsClientsCannotExhaustTheDaemon: a local user holding a
// thousand idle connections to the metrics endpoint gets at most
// metrics.DefaultLimits.Conns of the daemon's descriptors; repairs go on,
// and scrapes are served once the user lets go.
func TestIdleMetricsClientsCannotExhaustTheDaemon(t *testing.T) {
	resourcetest.NobodyHome(t)
	dir := t.TempDir()
	w := startWatch(t, "--metrics-listen", "127.0.0.1:0", manifest(t, dir, watched))
	w.converged(5)
	var addr string
	eventually(t, "the metrics address in the log", func() bool {
		m := metricsAddr.FindStringSubmatch(w.logs())
		if m != nil {
			addr = m[1]
		}
		return m != nil
	})
	pid := w.cmd.Process.Pid
	before := openFiles(t, pid)
	const clients = 1000
	held, stop := resourcetest.Hold(t, "connect", addr, strconv.Itoa(clients))
	if held != clients {
		t.Fatalf("uid 65534 opened %d connections, want %d", held, clients)
	}
	motd := dir + "/srv/app/motd"
	if err := os.Remove(motd); err != nil {
		t.Fatal(err)
	}
	w.waitFor("the repair", func(ev engine.Event) bool { return ev.Name == motd && ev.Changed && !ev.Failed })
	if n := openFiles(t, pid); n > before+metrics.DefaultLimits.Conns+8 {
		t.Fatalf("the daemon holds %d descriptors with %d idle metrics clients, %d before", n, clients, before)
	}
	stop()
	scrape(t, addr)
}

// TestAgentMonitorPortListensOnLoopback: upstream's monitor_port serves
// metrics on 127.0.0.1 only; --metrics-listen names any other address.
func TestAgentMonitorPortListensOnLoopback(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cfg := filepath.Join(dir, "config.yaml")
	write(t, cfg, "manifests: ["+manifest(t, dir, watched)+"]\nmonitor_port: "+strconv.Itoa(port)+"\n")
	w := startCmd(t, exec.Command(bin, "agent", "--config", cfg, "--json", "--state-dir", t.TempDir()))
	w.converged(5)
	m := metricsAddr.FindStringSubmatch(w.logs())
	if want := "127.0.0.1:" + strconv.Itoa(port); m == nil || m[1] != want {
		t.Fatalf("metrics served at %q, want %s\n%s", m, want, w.logs())
	}
	scrape(t, m[1])
}
