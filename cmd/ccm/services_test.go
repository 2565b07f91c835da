package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/metrics"
	"github.com/reactive-ccm/ccm/engine/enginetest"
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
	addr := w.metricsAt()
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
			// The race detector's shadow memory multiplies what the huge
			// request's 64 MiB cost.
			budget := 256 << 10
			if raceEnabled {
				budget *= 4
			}
			if kib > budget {
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

// rawControl finds what a terminal would act on in ccm's output: an
// escape, a bell, a carriage return or a C1 control.
var rawControl = regexp.MustCompile("[\x1b\x07\r\u0080-\u009f]")

// TestAnotherUsersCommandLineReachesNoTerminal: uid 65534 fights over a
// file it may write, from a program whose command line holds an escape
// sequence. The contest names it, quoted, in the daemon's lines and logs
// and in status and events.
func TestAnotherUsersCommandLineReachesNoTerminal(t *testing.T) {
	resourcetest.NobodyHome(t)
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "fought.conf")
	m := manifest(t, dir, strings.Replace(foughtFile, `mode: "0644"`, `mode: "0666"`, 1))
	socket := socketPath(t)
	cmd := exec.Command(bin, append(append([]string{"run", "--watch", "--socket", socket}, fastContest...), m)...)
	var out, logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = syncWriter{&out}, syncWriter{&logs}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	enginetest.Eventually(t, "the first convergence", func() bool { return fileIs(path, "ours\n", 0o666) })
	fight := exec.Command("/bin/sh", "-c", "x=\x1b]0;owned\x07; while :; do echo theirs > "+path+"; sleep 0.005; done")
	fight.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: resourcetest.Nobody, Gid: resourcetest.Nobody}}
	if err := fight.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = fight.Process.Kill(); _ = fight.Wait() })
	const quoted = `"x=\x1b]0;owned\a;"`
	enginetest.Eventually(t, "the contest", func() bool { return strings.Contains(stderrOf(&out), "contested: repaired too often") })
	outputs := map[string]string{"the daemon's lines": stderrOf(&out), "the daemon's log": stderrOf(&logs)}
	for _, args := range [][]string{{"status"}, {"events"}} {
		r := ccm(t, append(args, "--socket", socket)...)
		outputs["ccm "+args[0]] = r.stdout + r.stderr
	}
	for what, text := range outputs {
		if rawControl.MatchString(text) {
			t.Errorf("%s holds a raw control character:\n%q", what, text)
		}
	}
	for _, what := range []string{"the daemon's lines", "ccm status"} {
		if !strings.Contains(outputs[what], quoted) {
			t.Errorf("%s does not name the writer as %s:\n%s", what, quoted, outputs[what])
		}
	}
}

// TestFileNamesFromTheHostAreEscaped: uid 65534 drops a file whose name
// holds an escape sequence and a forged line into a scaffold's target it
// owns; the purge reports it escaped, on its own line.
func TestFileNamesFromTheHostAreEscaped(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "tpl", "a.txt"), "hello\n")
	target := filepath.Join(home, "target")
	resourcetest.AsNobody(t, "mkdir", target)
	m := manifest(t, dir, "- scaffold:\n    - "+target+":\n        source: tpl\n        purge: true\n")
	if r := ccm(t, "run", m); r.code != 0 {
		t.Fatalf("the first run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	resourcetest.AsNobody(t, "write", filepath.Join(target, "x\x1b]0;owned\x07\nfailed    file#forged: y"), "")
	r := ccm(t, "run", m)
	if r.code != 0 || rawControl.MatchString(r.stdout+r.stderr) {
		t.Fatalf("exit %d, output %q", r.code, r.stdout+r.stderr)
	}
	want := `x\x1b]0;owned\x07\nfailed    file#forged: y present → absent (purge)`
	if lines := strings.Split(r.stdout, "\n"); len(lines) != 3 || !strings.Contains(lines[0], want) {
		t.Fatalf("output %q, want one line for the scaffold naming %q", r.stdout, want)
	}
}

// TestFleetHostNamesReachNoTerminal: whoever may write the fleet's status
// bucket names a host with an escape sequence and a forged row; fleet
// status prints it escaped, in its own row.
func TestFleetHostNamesReachNoTerminal(t *testing.T) {
	f := newFleet(t)
	m := manifest(t, t.TempDir(), motd("fleet"))
	f.must("run", "--report", "nats", "--hostname", "good", m)
	forged, err := json.Marshal(map[string]any{
		"host": "evil\x1b]0;owned\x07\nforged  converged", "updated": time.Now(), "heartbeat": time.Hour, "resources": 1,
		"failed": 1, "failed_resources": []string{"file#/x\x1b[2J\tcell"},
	})
	if err != nil {
		t.Fatal(err)
	}
	f.putKV("CCM_STATUS", "evil", string(forged))
	// Exit 1: the forged host is failing.
	r := f.ccm("fleet", "status")
	if r.code != 1 || rawControl.MatchString(r.stdout+r.stderr) {
		t.Fatalf("exit %d, output %q", r.code, r.stdout+r.stderr)
	}
	rows := 0
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(line, `evil\x1b]0;owned\x07\nforged  converged  failing`) && strings.Contains(line, `file#/x\x1b[2J\tcell`) {
			rows++
		}
	}
	if rows != 1 || strings.Count(r.stdout, "\n") != 6 {
		t.Fatalf("fleet status, want the forged host escaped in one row of six lines:\n%s", r.stdout)
	}
}
