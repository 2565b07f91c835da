package writer_test

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/watchers/writer"
)

// TestMain doubles as a writer that replaces a file by renaming a
// temporary one over it, as sed -i, editors and ccm itself do: with
// CCM_TEST_RENAME=path it writes path's temporary file, says "created",
// waits for a line on stdin, renames it over path, says "renamed" and
// exits.
func TestMain(m *testing.M) {
	if path := os.Getenv("CCM_TEST_RENAME"); path != "" {
		renameOver(path)
		return
	}
	os.Exit(m.Run())
}

func renameOver(path string) {
	tmp := filepath.Join(filepath.Dir(path), ".theirs.tmp")
	if err := os.WriteFile(tmp, []byte("theirs\n"), 0o644); err != nil {
		panic(err)
	}
	fmt.Println("created")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		panic(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		panic(err)
	}
	fmt.Println("renamed")
}

// fought creates a file in a directory of its own and a witness of it.
func fought(t *testing.T) (*writer.Spotter, *writer.Witness, string) {
	t.Helper()
	// Open to every user, for writers that are not root.
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "fought.conf")
	if err := os.WriteFile(path, []byte("ours\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	s := writer.New(slog.New(slog.DiscardHandler))
	w := s.Watch([]string{path})
	t.Cleanup(w.Close)
	if s.Marks() != 1 {
		t.Skip("fanotify is unavailable here")
	}
	return s, w, path
}

// process is a running helper whose output a test reads line by line.
type process struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

func start(t *testing.T, cmd *exec.Cmd) *process {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return &process{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}
}

// expect waits for the process to print line.
func (p *process) expect(t *testing.T, line string) {
	t.Helper()
	got, err := p.out.ReadString('\n')
	if err != nil || got != line+"\n" {
		t.Fatalf("the helper printed %q (%v), want %q", got, err, line)
	}
}

// isNamed fails the test unless got names the process p: pid, the
// beginning of its command line (long ones are shortened) and uid.
func isNamed(t *testing.T, got string, p *process, command string, uid uint32) {
	t.Helper()
	prefix := fmt.Sprintf("pid %d (%s", p.cmd.Process.Pid, command)
	if !strings.HasPrefix(got, prefix) || !strings.HasSuffix(got, fmt.Sprintf(") uid %d", uid)) {
		t.Fatalf("writer %q, want %q… uid %d", got, prefix, uid)
	}
}

// shell runs script in sh, as uid when it is not 0.
func shell(t *testing.T, uid uint32, script string) *process {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	if uid != 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
	}
	return start(t, cmd)
}

func TestNamesAShellWritingInPlace(t *testing.T) {
	for _, uid := range []uint32{0, 65534} {
		t.Run(fmt.Sprintf("uid %d", uid), func(t *testing.T) {
			_, w, path := fought(t)
			script := "echo theirs > " + path + "; echo done; read x"
			p := shell(t, uid, script)
			p.expect(t, "done")
			if b, _ := os.ReadFile(path); string(b) != "theirs\n" {
				t.Fatalf("the shell did not write: %q", b)
			}
			isNamed(t, w.Writer(), p, "/bin/sh -c echo theirs > ", uid)
		})
	}
}

func TestNamesARenamingWriterAfterItExited(t *testing.T) {
	_, w, path := fought(t)
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "CCM_TEST_RENAME="+path)
	p := start(t, cmd)
	p.expect(t, "created")
	// The temporary file is not the watched path: nobody changed it yet,
	// but the process is seen, alive, in its directory.
	if got := w.Writer(); got != "" {
		t.Fatalf("writer %q before the rename, want none", got)
	}
	if _, err := io.WriteString(p.stdin, "go\n"); err != nil {
		t.Fatal(err)
	}
	p.expect(t, "renamed")
	if err := p.cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	isNamed(t, w.Writer(), p, os.Args[0], 0)
}

func TestNamesSedInPlace(t *testing.T) {
	_, w, path := fought(t)
	cmd := exec.Command("sed", "-i", "s/ours/theirs/", path)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sed: %v\n%s", err, out)
	}
	// sed is named when its temporary file was seen while it ran; by its
	// command name alone when it was exiting (its command line already
	// gone); by pid alone when it exited before any event was read.
	pid := cmd.Process.Pid
	named := fmt.Sprintf("pid %d (sed -i s/ours/theirs/ %s) uid 0", pid, path)
	got := w.Writer()
	if got != named && got != fmt.Sprintf("pid %d (sed) uid 0", pid) && got != fmt.Sprintf("pid %d (exited)", pid) {
		t.Fatalf("writer %q, want %q or its pid alone", got, named)
	}
	t.Logf("writer: %s", got)
}

func TestNamesAChmodLoop(t *testing.T) {
	_, w, path := fought(t)
	p := shell(t, 0, "chmod 600 "+path+"; echo started; while :; do chmod 644 "+path+"; chmod 600 "+path+"; done")
	p.expect(t, "started")
	// Each chmod is a process of its own that exits at once: named when
	// its event is read before it exits (by its name alone once it is
	// exiting), else by pid.
	re := regexp.MustCompile(`^pid (\d+) \((chmod( 6[04]{2} ` + regexp.QuoteMeta(path) + `)?\) uid 0|exited\))$`)
	got := w.Writer()
	m := re.FindStringSubmatch(got)
	if m == nil || m[1] == fmt.Sprint(p.cmd.Process.Pid) {
		t.Fatalf("writer %q, want a chmod the loop started", got)
	}
	t.Logf("writer: %s", got)
}

func TestOwnChangesAreNotCounted(t *testing.T) {
	_, w, path := fought(t)
	if err := os.WriteFile(path, []byte("ours again\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := w.Writer(); got != "" {
		t.Fatalf("writer %q, want none: this process made every change", got)
	}
}

func TestNamesAProcessHoldingThePathOpenForWriting(t *testing.T) {
	t.Run("for writing", func(t *testing.T) {
		_, w, path := fought(t)
		p := shell(t, 0, "exec 3>>"+path+"; echo ready; read x")
		p.expect(t, "ready")
		isNamed(t, w.Writer(), p, "/bin/sh -c exec 3>>", 0)
	})
	t.Run("for reading only", func(t *testing.T) {
		_, w, path := fought(t)
		p := shell(t, 0, "exec 3<"+path+"; echo ready; read x")
		p.expect(t, "ready")
		if got := w.Writer(); got != "" {
			t.Fatalf("writer %q, want none: the file is only read", got)
		}
	})
}

func TestMarksFollowTheWitnesses(t *testing.T) {
	s, first, path := fought(t)
	second := s.Watch([]string{filepath.Join(filepath.Dir(path), "other.conf")})
	missing := s.Watch([]string{filepath.Join(filepath.Dir(path), "no", "such", "file")})
	if got := s.Marks(); got != 1 {
		t.Fatalf("%d directories marked, want the one both paths are in", got)
	}
	missing.Close()
	first.Close()
	if got := s.Marks(); got != 1 {
		t.Fatalf("%d directories marked while the second witness is open, want 1", got)
	}
	second.Close()
	if got := s.Marks(); got != 0 {
		t.Fatalf("%d directories marked once every witness closed, want 0", got)
	}
	if got := first.Writer(); got != "" {
		t.Fatalf("a closed witness names %q", got)
	}
	// Marking again after the group closed opens a new one.
	again := s.Watch([]string{path})
	defer again.Close()
	p := shell(t, 0, "echo theirs > "+path+"; echo done; read x")
	p.expect(t, "done")
	if got := again.Writer(); !strings.HasPrefix(got, fmt.Sprintf("pid %d ", p.cmd.Process.Pid)) {
		t.Fatalf("writer %q after the group was opened again", got)
	}
}

// TestEscapeSequencesInACommandLineAreQuoted: uid 65534 names its program
// with an escape sequence (retitling root's terminal); the description
// quotes it.
func TestEscapeSequencesInACommandLineAreQuoted(t *testing.T) {
	_, w, path := fought(t)
	p := shell(t, 65534, "x=\x1b]0;owned\x07; echo theirs > "+path+"; echo done; read x")
	p.expect(t, "done")
	got := w.Writer()
	if strings.ContainsAny(got, "\x1b\x07") || !strings.Contains(got, `"x=\x1b]0;owned\a;"`) {
		t.Fatalf("writer %q, want the escape sequence quoted", got)
	}
}
