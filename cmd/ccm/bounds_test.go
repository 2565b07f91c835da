package main_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/engine/enginetest"
)

// aliasBomb is a resource block whose properties nest nine levels of ten
// aliases: about 700 bytes that expand to a billion nodes.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("- exec:\n    - bomb:\n        l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "        l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	return b.String()
}

func TestAliasBombIsRefusedWithItsPosition(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, watched+aliasBomb())
	for _, cmd := range []string{"validate", "run"} {
		out, code, kib := peakRun(t, cmd, m)
		if code != 2 || !strings.Contains(string(out), m+":28:53:") || !strings.Contains(string(out), "aliases expand the document too far") {
			t.Fatalf("ccm %s: exit %d, want 2 and the alias's position\n%s", cmd, code, out)
		}
		if kib > 256<<10 {
			t.Errorf("ccm %s peaked at %d KiB refusing a 700-byte manifest", cmd, kib)
		}
	}
	if _, err := os.Stat(dir + "/srv"); err == nil {
		t.Error("ccm run touched the host")
	}
}

func TestWatchKeepsTheRunningGraphOnAnAliasBomb(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, watched)
	w := startWatch(t, m)
	w.converged(5)
	writeManifest(t, m, dir, watched+aliasBomb())
	enginetest.Eventually(t, "the alias bomb to be refused", func() bool {
		logs := w.logs()
		return strings.Contains(logs, "reload failed; the running manifests stay in force") && strings.Contains(logs, "aliases expand the document too far")
	})
	if err := os.Remove(dir + "/srv/app/motd"); err != nil {
		t.Fatal(err)
	}
	enginetest.Eventually(t, "repairs to go on", func() bool { return fileIs(dir+"/srv/app/motd", "hello\n", 0o644) })
}

func TestDocumentsMustBeRegularFiles(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, watched)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	// Each would block or read forever if opened as a file.
	for _, args := range [][]string{{"run", "/dev/zero"}, {"validate", fifo}, {"run", "--hiera", fifo, m}, {"run", "--facts", "/dev/zero", m}} {
		res := ccm(t, args...)
		if res.code != 2 || !strings.Contains(res.stderr, "not a regular file") {
			t.Errorf("ccm %v: exit %d, want 2 and a clear error\n%s", args, res.code, res.stdout+res.stderr)
		}
	}
	if _, err := os.Stat(dir + "/srv"); err == nil {
		t.Error("ccm run touched the host")
	}
}

// dataSecretManifest uses a secret from data in every way that fails.
const dataSecretManifest = `data:
  token: s3cr3t-T0KEN-value
  files: {path: s3cr3t-T0KEN-value}
ccm:
  resources:
    - file:
        - defaults: {owner: root, group: root, mode: "0644", ensure: present}
        - @/int: {content: "${ int(Data.token) }"}
        - @/lookup: {content: "${ lookup(Data.token) }"}
        - @/fetch: {content: "${ Data.files[Data.token] + 1 }"}
        - @/read: {content: "${ readFile(Data.token) }"}
        - @/duration: {content: "${ duration(Data.token) }"}
        - @/json: {content: "${ fromJSON(Data.token) }"}
        - @/jet: {content: "${ jet('[[ lookup(Data.token) ]]') }"}
        - @/nested: {content: "${ template('{{ int(Data.token) }}') }"}
        - @/owner: {owner: "${ Data.token }"}
        - @/group: {group: "${ Data.token }"}
        - @/source: {source: "${ Data.token }"}
        - @/mode: {mode: "${ Data.token }"}
    - exec:
        - /bin/true:
            cwd: "${ Data.token }"
            environment: ["${ Data.token }"]
        - /bin/false:
            timeout: "${ Data.token }"
    - service:
        - ccm-fixture-secret: {ensure: "${ Data.token }"}
`

// loadTime are the lines of dataSecretManifest that fail when it is
// loaded, which stops a run before anything else fails.
var loadTime = []string{
	`        - @/mode: {mode: "${ Data.token }"}` + "\n",
	`        - /bin/false:` + "\n" + `            timeout: "${ Data.token }"` + "\n",
	`    - service:` + "\n" + `        - ccm-fixture-secret: {ensure: "${ Data.token }"}` + "\n",
}

func TestNoSecretInAnError(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, dataSecretManifest)
	// Some properties are resolved at load, so the run stops there;
	// without them the run reaches every other failure.
	src := dataSecretManifest
	for _, l := range loadTime {
		src = strings.Replace(src, l, "", 1)
	}
	running := manifest(t, t.TempDir(), src)
	for _, args := range [][]string{{"validate", m}, {"run", m}, {"run", "--json", running}, {"run", running}} {
		res := ccm(t, args...)
		out := res.stdout + res.stderr
		if res.code == 0 {
			t.Fatalf("ccm %v succeeded\n%s", args, out)
		}
		if strings.Contains(out, "s3cr3t") {
			t.Errorf("ccm %v printed the secret:\n%s", args, out)
		}
	}
	if res := ccm(t, "validate", m); strings.Count(res.stdout+res.stderr, "the templated value") < 3 {
		t.Errorf("a load-time failure is not reported:\n%s", res.stdout+res.stderr)
	}
	res := ccm(t, "run", "--json", running)
	for _, expr := range []string{"int(Data.token)", "lookup(Data.token)", "readFile(Data.token)", "duration(Data.token)", "cwd: the templated value",
		"no such user the templated value", "no such group the templated value", "source: open"} {
		if !strings.Contains(res.stdout, expr) {
			t.Errorf("the failure of %s is not reported:\n%s", expr, res.stdout)
		}
	}
}

func TestClosedStdoutDoesNotKillTheDaemon(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, watched)
	r, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "--watch", "--json", m)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = wr, syncWriter{&stderr}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	wr.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// The first event shows ccm started; then nobody reads any more.
	if _, err := bufio.NewReader(r).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	r.Close()
	enginetest.Eventually(t, "the first convergence", func() bool { return fileIs(dir+"/srv/app/motd", "hello\n", 0o644) })
	for i := range 3 {
		if err := os.WriteFile(dir+"/srv/app/motd", []byte(fmt.Sprintf("drift %d\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		enginetest.Eventually(t, "the repair", func() bool { return fileIs(dir+"/srv/app/motd", "hello\n", 0o644) })
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("ccm is gone: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("ccm exited with %v\n%s", err, stderrOf(&stderr))
	}
	if n := strings.Count(stderrOf(&stderr), "cannot write events to standard output"); n != 1 {
		t.Errorf("warned %d times, want once\n%s", n, stderrOf(&stderr))
	}
}

// stderrOf reads what a syncWriter collected.
func stderrOf(b *bytes.Buffer) string {
	stderrMu <- struct{}{}
	defer func() { <-stderrMu }()
	return b.String()
}
