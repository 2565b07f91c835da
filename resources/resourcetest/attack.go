package resourcetest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Nobody is the uid and gid attacks run as: an unprivileged local user.
const Nobody = 65534

// attackEnv names the attack step a copy of the test binary runs instead
// of the tests.
const attackEnv = "CCM_TEST_ATTACK"

// Main runs the tests or, in a copy of the test binary started by
// AsNobody, Race or Hold, the attack step it was asked for. Packages with
// attack tests call it from TestMain: os.Exit(resourcetest.Main(m)); m is
// a *testing.M, or what wraps its Run in setup.
func Main(m interface{ Run() int }) int {
	if op := os.Getenv(attackEnv); op != "" {
		return attack(op, os.Args[1:])
	}
	return m.Run()
}

// Attacking reports whether this process is a copy of the test binary
// started to run an attack step, for a TestMain with work to do before
// the tests (building a binary) that an attacker must skip.
func Attacking() bool { return os.Getenv(attackEnv) != "" }

// NobodyHome returns a new directory owned by Nobody, as a user's home
// is, that Nobody can reach. It skips the test unless run as root.
func NobodyHome(t testing.TB) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("attack tests run as root, attacking as uid 65534")
	}
	dir := t.TempDir()
	// t.TempDir's directories are private to root.
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(home, Nobody, Nobody); err != nil {
		t.Fatal(err)
	}
	return home
}

// AsNobody runs one attack step as Nobody, failing the test when it fails,
// and returns what it printed: "symlink TARGET LINK", "mkdir DIR
// [OCTAL-MODE]", "write FILE TEXT", "rename FROM TO", "fifo PATH", and
// those of fileAttack.
func AsNobody(t testing.TB, op string, args ...string) string {
	t.Helper()
	out, err := nobodyCmd(op, args).CombinedOutput()
	if err != nil {
		t.Fatalf("as uid %d: %s %s: %v\n%s", Nobody, op, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Race starts an attack loop as Nobody until stop is called; stop returns
// how many times it acted. "exchange A B" swaps A and B atomically
// (renameat2 RENAME_EXCHANGE), so each path is always either one;
// "rewrite FILE A B" is one of fileAttack's.
func Race(t testing.TB, op string, args ...string) (stop func() int) {
	t.Helper()
	cmd, pipe, errb := startNobody(t, op, args)
	// The attacker says when it handles SIGTERM: a stop before that would
	// kill it instead of ending its loop.
	out := bufio.NewReader(pipe)
	if line, err := out.ReadString('\n'); line != readyLine {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("attack %s did not start: %q %v\n%s", op, line, err, errb.String())
	}
	stopped := false
	stop = func() int {
		t.Helper()
		if stopped {
			return 0
		}
		stopped = true
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		rest, _ := io.ReadAll(out)
		if err := cmd.Wait(); err != nil {
			t.Fatalf("attack %s: %v\n%s%s", op, err, rest, errb.String())
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(rest)))
		if err != nil {
			t.Fatalf("attack %s: %q", op, rest)
		}
		return n
	}
	t.Cleanup(func() { stop() })
	return stop
}

// RaceFor is how long Racing lets an attack run.
const RaceFor = 3 * time.Second

// Racing runs the attack op (as Race does) while it calls try again and
// again for RaceFor, then stops the attack and returns how many times the
// attacker acted.
func Racing(t testing.TB, try func(), op string, args ...string) (acted int) {
	t.Helper()
	stop := Race(t, op, args...)
	for deadline := time.Now().Add(RaceFor); time.Now().Before(deadline); {
		try()
	}
	return stop()
}

// Hold starts an attack as Nobody that acquires something and keeps it
// until stop is called: "connect ADDR N" opens N TCP connections to ADDR
// and sends nothing on them; "serve PATH" listens on the unix socket PATH
// as a fake daemon, answering every HTTP request with 200 and `{}`. It
// returns once the attacker holds what it could get, with how much that
// is (the connections opened, the one listener).
func Hold(t testing.TB, op string, args ...string) (held int, stop func()) {
	t.Helper()
	cmd, out, errb := startNobody(t, op, args)
	stopped := false
	stop = func() {
		t.Helper()
		if stopped {
			return
		}
		stopped = true
		_ = cmd.Process.Signal(syscall.SIGTERM)
		if err := cmd.Wait(); err != nil {
			t.Errorf("attack %s: %v\n%s", op, err, errb.String())
		}
	}
	t.Cleanup(stop)
	line, readErr := bufio.NewReader(out).ReadString('\n')
	held, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		stop()
		t.Fatalf("attack %s: %q (%v), %v\n%s", op, line, readErr, err, errb.String())
	}
	return held, stop
}

// startNobody starts an attack step as Nobody, with its output to read
// and its errors kept.
func startNobody(t testing.TB, op string, args []string) (*exec.Cmd, io.ReadCloser, *bytes.Buffer) {
	t.Helper()
	cmd := nobodyCmd(op, args)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errb := new(bytes.Buffer)
	cmd.Stderr = errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, out, errb
}

// nobodyCmd runs this test binary again as Nobody; /proc/self/exe reaches
// it even though the build directory is private to root.
func nobodyCmd(op string, args []string) *exec.Cmd {
	cmd := exec.Command("/proc/self/exe", args...)
	cmd.Env = []string{attackEnv + "=" + op}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: Nobody, Gid: Nobody}}
	return cmd
}

// attack runs one step in the attacking process and returns its exit code.
func attack(op string, args []string) int {
	var err error
	switch {
	case op == "symlink" && len(args) == 2:
		err = os.Symlink(args[0], args[1])
	case op == "mkdir" && len(args) == 1:
		err = os.Mkdir(args[0], 0o755)
	case op == "mkdir" && len(args) == 2:
		err = mkdirMode(args[0], args[1])
	case op == "write" && len(args) == 2:
		err = os.WriteFile(args[0], []byte(args[1]), 0o644)
	case op == "rename" && len(args) == 2:
		err = os.Rename(args[0], args[1])
	case op == "fifo" && len(args) == 1:
		err = unix.Mkfifo(args[0], 0o644)
	case op == "exchange" && len(args) == 2:
		err = exchange(args[0], args[1])
	case op == "serve" && len(args) == 1:
		err = serve(args[0])
	case op == "connect" && len(args) == 2:
		err = connect(args[0], args[1])
	default:
		err = fileAttack(op, args)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// exchange swaps a and b until SIGTERM, then prints how many times.
func exchange(a, b string) error {
	return untilTerm(func() (bool, error) {
		err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
		if errors.Is(err, unix.ENOENT) {
			// The code under attack replaces one of them: not there for
			// an instant.
			return false, nil
		}
		return err == nil, err
	})
}

// readyLine is what a Race attacker prints once SIGTERM ends its loop
// rather than killing it.
const readyLine = "ready\n"

// untilTerm runs act again and again until SIGTERM, then prints how many
// times it acted.
func untilTerm(act func() (acted bool, err error)) error {
	var done atomic.Bool
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	go func() { <-sig; done.Store(true) }()
	fmt.Print(readyLine)
	n := 0
	for !done.Load() {
		acted, err := act()
		if err != nil {
			return err
		}
		if acted {
			n++
		}
	}
	fmt.Println(n)
	return nil
}

// mkdirMode makes dir with the octal mode, whatever the umask.
func mkdirMode(dir, mode string) error {
	m, err := strconv.ParseUint(mode, 8, 32)
	if err != nil {
		return err
	}
	if err := unix.Mkdir(dir, uint32(m)); err != nil {
		return err
	}
	return unix.Chmod(dir, uint32(m))
}

// connect opens n connections to addr, prints how many it opened, and
// holds them until SIGTERM.
func connect(addr, n string) error {
	count, err := strconv.Atoi(n)
	if err != nil {
		return err
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	var conns []net.Conn
	for range count {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			break
		}
		conns = append(conns, c)
	}
	fmt.Println(len(conns))
	<-sig
	for _, c := range conns {
		c.Close()
	}
	return nil
}

// serve listens on the unix socket at path, prints 1 (the listener it
// holds), and answers every request with 200 and `{}` until SIGTERM.
func serve(path string) error {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return err
	}
	fmt.Println(1)
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintln(w, "{}")
	}))
	<-sig
	return ln.Close()
}
