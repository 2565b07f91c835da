package sandbox_test

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
	"golang.org/x/sys/unix"
)

func TestMain(m *testing.M) {
	sandbox.Main(m, sandbox.Options{Net: true, Copies: []string{"/etc"}})
}

// TestWritesStayInTheSandbox: a file written in the copy of /etc is not
// in the host's /etc, which the process that started the sandbox still
// sees; the copy holds what the host's holds.
func TestWritesStayInTheSandbox(t *testing.T) {
	sandbox.Require(t)
	host := filepath.Join("/proc", strconv.Itoa(os.Getppid()), "root")
	probe := "/etc/ccm-sandbox-probe"
	if err := os.WriteFile(probe, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(host + probe); !os.IsNotExist(err) {
		t.Fatalf("the probe reached the host's /etc: %v", err)
	}
	want, err := os.ReadFile(host + "/etc/passwd")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile("/etc/passwd"); err != nil || string(got) != string(want) {
		t.Fatalf("the copy's passwd differs from the host's (%v)", err)
	}
	var fs unix.Statfs_t
	if err := unix.Statfs("/etc", &fs); err != nil || fs.Type != unix.TMPFS_MAGIC {
		t.Fatalf("/etc is not a tmpfs (%x, %v)", fs.Type, err)
	}
}

// TestNetworkNamespaceIsPrivate: the tests' network namespace is not the
// one of the process that started the sandbox, and its kernel parameters
// can be written.
func TestNetworkNamespaceIsPrivate(t *testing.T) {
	sandbox.Require(t)
	host, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(os.Getppid()), "ns/net"))
	if err != nil {
		t.Fatal(err)
	}
	if mine, err := os.Readlink("/proc/self/ns/net"); err != nil || mine == host {
		t.Fatalf("network namespace %s, the host's is %s (%v)", mine, host, err)
	}
	const key = "/proc/sys/net/ipv4/ip_forward"
	if err := os.WriteFile(key, []byte("1"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(key); err != nil || string(b) != "1\n" {
		t.Fatalf("ip_forward reads %q, %v", b, err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listening on loopback: %v", err)
	}
	l.Close()
}

// TestStepRunsWhenCalled: a step runs its tool in the sandbox when
// called, not when made.
func TestStepRunsWhenCalled(t *testing.T) {
	sandbox.Require(t)
	probe := filepath.Join(t.TempDir(), "step")
	step := sandbox.Step("touch", probe)
	if _, err := os.Lstat(probe); !os.IsNotExist(err) {
		t.Fatalf("the step ran when made: %v", err)
	}
	step(t)
	if _, err := os.Lstat(probe); err != nil {
		t.Fatalf("the step did not run: %v", err)
	}
}
