package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// env carries the namespaces the re-run binary must not be in, and marks
// it as the re-run one.
const env = "CCM_SANDBOX_FROM"

// Options say which namespaces and copies the tests get.
type Options struct {
	// Net gives the tests a network namespace of their own, with the
	// loopback interface up.
	Net bool
	// Copies are absolute directories that become a tmpfs holding a copy
	// of the host's directory.
	Copies []string
}

var (
	// inside is set in the re-run binary once the sandbox is set up.
	inside bool
	// missing says why the tests run unsandboxed.
	missing string
)

// Main runs the package's tests in the sandbox opts describe and exits
// with their status. It is called from TestMain.
func Main(m *testing.M, opts Options) { os.Exit(Run(m, opts)) }

// Run is Main returning the status, for a TestMain with work to do
// after the tests (in the process that started the sandbox, which runs
// no test itself when a sandbox can be made).
func Run(m *testing.M, opts Options) int {
	if from := os.Getenv(env); from != "" {
		if err := enter(from, opts); err != nil {
			fmt.Fprintln(os.Stderr, "sandbox:", err)
			return 2
		}
		inside = true
		return m.Run()
	}
	if missing = lacks(); missing != "" {
		return m.Run()
	}
	return rerun(opts)
}

// Inside reports whether the tests run in the sandbox: what they may
// change there is the sandbox's, not the host's.
func Inside() bool { return inside }

// Require skips t unless it runs in the sandbox.
func Require(t testing.TB) {
	t.Helper()
	if !inside {
		t.Skipf("sandbox: %s", missing)
	}
}

// Command runs a tool in the sandbox, as an administrator would, and
// returns what it printed; a tool that fails fails t. Outside the
// sandbox t is skipped.
func Command(t testing.TB, name string, args ...string) string {
	t.Helper()
	Require(t)
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v: %s", name, args, err, out)
	}
	return string(out)
}

// Step is Command to run later, by the test or subtest it is given:
// a drift a watch test makes (enginetest.Drift), say.
func Step(name string, args ...string) func(t *testing.T) {
	return func(t *testing.T) { Command(t, name, args...) }
}

// lacks says what the host lacks for a sandbox, or "".
func lacks() string {
	if os.Geteuid() != 0 {
		return "needs root (it mounts in private namespaces)"
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		return "unshare not found in PATH (install util-linux)"
	}
	return ""
}

// namespaces names this process's mount and network namespaces.
func namespaces() (string, error) {
	mnt, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil {
		return "", err
	}
	net, err := os.Readlink("/proc/self/ns/net")
	return mnt + " " + net, err
}

// rerun runs this test binary with the same arguments under unshare and
// returns its exit status.
func rerun(opts Options) int {
	from, err := namespaces()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sandbox:", err)
		return 2
	}
	args := []string{"--mount", "--propagation", "private"}
	if opts.Net {
		args = append(args, "--net")
	}
	args = append(append(args, "--", os.Args[0]), os.Args[1:]...)
	cmd := exec.Command("unshare", args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), env+"="+from)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	// The parent-death signal follows the thread that started the child:
	// keep this goroutine on it until the child ends.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sandbox: running the tests under unshare:", err)
		return 2
	}
	return 0
}

// enter checks that this process left the namespaces it was started from
// and sets up the copies.
func enter(from string, opts Options) error {
	hostMnt, hostNet, _ := strings.Cut(from, " ")
	now, err := namespaces()
	if err != nil {
		return err
	}
	mnt, net, _ := strings.Cut(now, " ")
	if mnt == hostMnt {
		return errors.New("still in the host's mount namespace; refusing to run")
	}
	if opts.Net && net == hostNet {
		return errors.New("still in the host's network namespace; refusing to run")
	}
	if opts.Net {
		if err := loopbackUp(); err != nil {
			return fmt.Errorf("bringing lo up: %w", err)
		}
	}
	for _, dir := range opts.Copies {
		if err := tmpfsCopy(dir); err != nil {
			return fmt.Errorf("a tmpfs copy of %s: %w", dir, err)
		}
	}
	return nil
}

// loopbackUp brings up lo, which a new network namespace has down.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}
