package main_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// step is one command of a walkthrough and the output shown for it.
type step struct {
	cmd  string
	want []string
}

// walkthroughSteps reads the commands of a documentation section: a
// ```sh block is one step run whole (install lines left out: the tests'
// dependencies are installed by .ci/test-deps.sh); in other blocks, each
// "$ " line (with the lines that complete it) is a step, and the lines
// after it its output.
func walkthroughSteps(t *testing.T, doc, section string) []step {
	t.Helper()
	text := read(t, doc)
	i := strings.Index(text, section)
	if i < 0 {
		t.Fatalf("%s has no %q", doc, section)
	}
	text = text[i+len(section):]
	if j := strings.Index(text, "\n## "); j >= 0 {
		text = text[:j]
	}
	var steps []step
	blocks := strings.Split(text, "```")
	for k := 1; k < len(blocks); k += 2 {
		body, isScript := strings.CutPrefix(blocks[k], "sh\n")
		if isScript {
			var keep []string
			for _, l := range strings.Split(body, "\n") {
				if !strings.HasPrefix(l, "apt-get ") {
					keep = append(keep, l)
				}
			}
			steps = append(steps, step{cmd: strings.Join(keep, "\n")})
			continue
		}
		steps = append(steps, promptSteps(t, strings.Split(strings.TrimPrefix(body, "\n"), "\n"))...)
	}
	return steps
}

// promptSteps splits a block of "$ " commands and their output.
func promptSteps(t *testing.T, lines []string) []step {
	t.Helper()
	var steps []step
	for n := 0; n < len(lines); n++ {
		cmd, ok := strings.CutPrefix(lines[n], "$ ")
		if !ok {
			if len(steps) > 0 && lines[n] != "" {
				steps[len(steps)-1].want = append(steps[len(steps)-1].want, lines[n])
			}
			continue
		}
		for !complete(cmd) && n+1 < len(lines) {
			n++
			cmd += "\n" + lines[n]
		}
		steps = append(steps, step{cmd: cmd})
	}
	return steps
}

// complete reports whether bash parses cmd as a whole command.
func complete(cmd string) bool {
	return exec.Command("bash", "-n", "-c", cmd).Run() == nil
}

// shell is one bash session with job control, run step by step.
type shell struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Reader
}

const stepDone = "__ccm_step_done__"

func startShell(t *testing.T, dir string) *shell {
	t.Helper()
	cmd := exec.Command("bash")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "NATS_CONTEXT=", "NATS_URL=", "XDG_CONFIG_HOME="+t.TempDir())
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sh := &shell{t: t, in: in, out: bufio.NewReader(out)}
	sh.run("set -m; exec 2>&1")
	t.Cleanup(func() {
		// The jobs the walkthrough left, such as the server, if it failed.
		fmt.Fprintln(in, `kill $(jobs -p) 2>/dev/null; wait`)
		in.Close()
		_ = cmd.Wait()
	})
	return sh
}

// run runs cmd and returns what it printed and its exit code.
func (s *shell) run(cmd string) ([]string, int) {
	s.t.Helper()
	if _, err := fmt.Fprintf(s.in, "%s\necho %s $?\n", cmd, stepDone); err != nil {
		s.t.Fatal(err)
	}
	var out []string
	for {
		line, err := s.out.ReadString('\n')
		if err != nil {
			s.t.Fatalf("the shell ended: %v\n%s", err, strings.Join(out, "\n"))
		}
		line = strings.TrimRight(line, "\n")
		if rest, ok := strings.CutPrefix(line, stepDone+" "); ok {
			code, _ := strconv.Atoi(rest)
			return out, code
		}
		out = append(out, line)
	}
}

var (
	clock  = regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d+$`)
	digest = regexp.MustCompile(`[A-Za-z0-9_=-]{12,}`)
	number = regexp.MustCompile(`\d+`)
)

// key is what a line of output must show: its first three words, after
// the time of day a log line starts with, digests and numbers aside
// (sizes and digests change with the directory the bundle names).
func key(line string) string {
	f := strings.Fields(line)
	if len(f) > 0 && clock.MatchString(f[0]) {
		f = f[1:]
	}
	k := strings.Join(f[:min(len(f), 3)], " ")
	return number.ReplaceAllString(digest.ReplaceAllString(k, "…"), "#")
}

// matches reports what of want the output lacks: each line's key, and,
// unless the command only looks (fleet status exits 1 for a refusing
// host), a failure exit for a step shown failing ("ccm: …") and success
// for the others.
func matches(want, got []string, code int, looks bool) error {
	keys := map[string]bool{}
	for _, l := range got {
		keys[key(l)] = true
	}
	failing := false
	for _, w := range want {
		failing = failing || strings.HasPrefix(w, "ccm: ")
		if k := key(w); k != "" && !keys[k] {
			return fmt.Errorf("no line like %q", w)
		}
	}
	if !looks && failing != (code != 0) {
		return fmt.Errorf("exit %d", code)
	}
	return nil
}

// observes reports whether cmd only looks, so it may be asked again until
// the fleet has caught up.
func observes(cmd string) bool {
	for _, p := range []string{"ccm fleet status", "cat ", "tail "} {
		if strings.HasPrefix(cmd, p) {
			return true
		}
	}
	return false
}

func TestTheFleetWalkthroughAsWritten(t *testing.T) {
	if _, err := exec.LookPath("nats-server"); err != nil {
		t.Skip("no nats-server; .ci/test-deps.sh installs it")
	}
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	// As written, but in a directory and on a port of the test's own.
	local := strings.NewReplacer("/tmp/fleet-demo", dir, "127.0.0.1:4222", "127.0.0.1:"+port, "-a 127.0.0.1 ", "-a 127.0.0.1 -p "+port+" ")
	sh := startShell(t, dir)
	for _, st := range walkthroughSteps(t, filepath.Join("..", "..", "docs", "fleet.md"), "## From an empty NATS server to three watching hosts") {
		cmd := local.Replace(st.cmd)
		want := strings.Split(local.Replace(strings.Join(st.want, "\n")), "\n")
		deadline := time.Now().Add(20 * time.Second)
		for {
			got, code := sh.run(cmd)
			err := matches(want, got, code, observes(cmd))
			if err == nil {
				break
			}
			if !observes(cmd) || time.Now().After(deadline) {
				t.Fatalf("%s\n%v; it printed:\n%s", cmd, err, strings.Join(got, "\n"))
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}
