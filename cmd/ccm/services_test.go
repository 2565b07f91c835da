package main_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/metrics"
	"github.com/reactive-ccm/ccm/resources/document"
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

// TestPipeRefusesAnAliasBombAndAHugeRequest: an ensure request is
// bounded as a manifest is: its aliases by the same budget, its size by
// document.MaxSize. Each is refused at once: the bomb in about 20 MiB
// (5.1 GB and 30 s before), the huge request once it has read that much.
func TestPipeRefusesAnAliasBombAndAHugeRequest(t *testing.T) {
	bomb := "protocol: io.choria.ccm.v1.resource.ensure.request\ntype: exec\nproperties:\n  name: /bin/true\n" +
		strings.ReplaceAll(strings.TrimPrefix(aliasBomb(), "- exec:\n    - bomb:\n"), "      ", "")
	huge := io.MultiReader(strings.NewReader(`{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "file", "properties": {"content": "`),
		io.LimitReader(zeros{}, document.MaxSize))
	for _, c := range []struct {
		name  string
		stdin io.Reader
		want  string
	}{
		{"alias bomb", strings.NewReader(bomb), "request:10:47: YAML aliases expand the document too far"},
		{"huge", huge, fmt.Sprintf("invalid request: more than %d bytes", document.MaxSize)},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, code, kib := peakRunIn(t, c.stdin, "ensure", "api", "pipe")
			var resp struct{ Error string }
			if err := json.Unmarshal(out, &resp); err != nil || code != 0 || !strings.Contains(resp.Error, c.want) {
				t.Fatalf("exit %d, response %s; want an error mentioning %q", code, out, c.want)
			}
			if kib > 256<<10 {
				t.Errorf("peaked at %d KiB refusing the request", kib)
			}
		})
	}
}

// zeros reads as an endless run of the character 0.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '0'
	}
	return len(p), nil
}
