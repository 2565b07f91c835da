package systemdtest

import (
	"bufio"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

//go:embed boot.sh
var bootScript string

// Binary is the systemd the harness boots.
const Binary = "/lib/systemd/systemd"

// lockPath serialises harnesses across test binaries on one host.
const lockPath = "/run/lock/ccm-systemdtest.lock"

// masks are the units that would change state shared with the host: the
// kernel (sysctl, binfmt, modules), the host's /tmp, /var and journal, its
// users, clock and devices. The list is shared/notes/libraries.md §9.
var masks = []string{
	"systemd-tmpfiles-setup.service", "systemd-tmpfiles-setup-dev.service", "systemd-tmpfiles-clean.timer",
	"systemd-sysctl.service", "systemd-binfmt.service", "proc-sys-fs-binfmt_misc.automount",
	"proc-sys-fs-binfmt_misc.mount", "systemd-modules-load.service", "kmod-static-nodes.service",
	"systemd-remount-fs.service", "systemd-sysusers.service", "systemd-firstboot.service",
	"systemd-machine-id-commit.service", "systemd-random-seed.service", "systemd-journal-flush.service",
	"systemd-journal-catalog-update.service", "systemd-update-done.service", "systemd-update-utmp.service",
	"systemd-update-utmp-runlevel.service", "systemd-repart.service", "systemd-pcrphase.service",
	"systemd-pcrphase-sysinit.service", "systemd-pstore.service", "systemd-timesyncd.service",
	"systemd-hwdb-update.service", "ldconfig.service", "systemd-udevd.service", "systemd-udev-trigger.service",
	"dev-hugepages.mount", "dev-mqueue.mount", "sys-fs-fuse-connections.mount", "sys-kernel-config.mount",
	"sys-kernel-debug.mount", "sys-kernel-tracing.mount", "systemd-ask-password-console.path",
	"systemd-ask-password-wall.path", "systemd-journald-audit.socket",
}

// Systemd is a running private systemd.
type Systemd struct {
	// PID is the host PID of the namespace's systemd (its PID 1).
	PID     int
	unshare *exec.Cmd
	exited  chan error
	pidNS   string
	lock    *os.File
	host    hostState
	logDir  string
}

// Missing says what this host lacks to run the harness, or "" when it can.
func Missing() string {
	if os.Geteuid() != 0 {
		return "the systemd harness needs root (it boots systemd in private namespaces)"
	}
	if _, err := os.Stat(Binary); err != nil {
		return Binary + " is missing (install the systemd package)"
	}
	for _, tool := range []string{"unshare", "nsenter", "dbus-daemon"} {
		if _, err := exec.LookPath(tool); err != nil {
			return tool + " not found in PATH (install util-linux and dbus)"
		}
	}
	return ""
}

// Boot starts a private systemd and waits until it is running. It takes
// the host-wide harness lock, waiting for any other harness to stop.
func Boot(ctx context.Context) (*Systemd, error) {
	if why := Missing(); why != "" {
		return nil, errors.New("systemdtest: " + why)
	}
	lock, err := takeLock(ctx)
	if err != nil {
		return nil, err
	}
	s := &Systemd{lock: lock, exited: make(chan error, 1)}
	if s.host, err = snapshotHost(); err != nil {
		s.release()
		return nil, err
	}
	if err := s.start(); err != nil {
		s.release()
		return nil, err
	}
	if err := s.waitRunning(ctx); err != nil {
		return nil, errors.Join(err, s.Stop())
	}
	return s, nil
}

func (s *Systemd) start() error {
	hostNS, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil {
		return fmt.Errorf("systemdtest: reading this process's mount namespace: %w", err)
	}
	if s.logDir, err = os.MkdirTemp("", "ccm-systemdtest-"); err != nil {
		return fmt.Errorf("systemdtest: %w", err)
	}
	log, err := os.Create(filepath.Join(s.logDir, "systemd.log"))
	if err != nil {
		return fmt.Errorf("systemdtest: %w", err)
	}
	defer log.Close()
	args := append([]string{"--fork", "--pid", "--mount", "--uts", "--mount-proc", "--propagation", "private",
		"--kill-child", "/bin/sh", "-c", bootScript, "boot.sh", hostNS}, masks...)
	s.unshare = exec.Command("unshare", args...)
	s.unshare.Stdout, s.unshare.Stderr = log, log
	// If the test binary dies without Stop, unshare dies, and --kill-child
	// takes the namespace's PID 1 (and so every process in it) along.
	s.unshare.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	started, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("systemdtest: %w", err)
	}
	defer started.Close()
	s.unshare.ExtraFiles = []*os.File{w} // boot.sh's fd 3
	err = s.unshare.Start()
	w.Close()
	if err != nil {
		return fmt.Errorf("systemdtest: starting unshare: %w", err)
	}
	go func() { s.exited <- s.unshare.Wait() }()
	return s.findPID(started)
}

// findPID waits for boot.sh's line on started, which says that unshare's
// child, the namespace's PID 1, exists, and reads its PID.
func (s *Systemd) findPID(started *os.File) error {
	if err := started.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		return fmt.Errorf("systemdtest: %w", err)
	}
	if _, err := bufio.NewReader(started).ReadString('\n'); err != nil {
		return fmt.Errorf("systemdtest: boot.sh did not start (%v); log:\n%s", err, s.Log())
	}
	children := fmt.Sprintf("/proc/%d/task/%d/children", s.unshare.Process.Pid, s.unshare.Process.Pid)
	b, err := os.ReadFile(children)
	if err != nil {
		return fmt.Errorf("systemdtest: unshare exited early (%v); log:\n%s", err, s.Log())
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return fmt.Errorf("systemdtest: unshare has no child after boot.sh started; log:\n%s", s.Log())
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil {
		return fmt.Errorf("systemdtest: %s: %w", children, err)
	}
	s.PID = pid
	s.pidNS, err = os.Readlink(fmt.Sprintf("/proc/%d/ns/pid", pid))
	if err != nil {
		return fmt.Errorf("systemdtest: namespace of PID %d: %w", pid, err)
	}
	return nil
}

// waitRunning waits until systemd has finished booting basic.target.
func (s *Systemd) waitRunning(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	// systemctl cannot wait before systemd has opened its private socket.
	private := filepath.Join(s.Root(), "run/systemd/private")
	for _, err := os.Stat(private); err != nil; _, err = os.Stat(private) {
		select {
		case <-ctx.Done():
			return fmt.Errorf("systemdtest: %s never appeared: %w; log:\n%s", private, ctx.Err(), s.Log())
		case err := <-s.exited:
			return fmt.Errorf("systemdtest: systemd exited while booting (%v); log:\n%s", err, s.Log())
		case <-time.After(10 * time.Millisecond):
		}
	}
	out, err := s.Systemctl(ctx, "is-system-running", "--wait")
	state := strings.TrimSpace(out)
	if state == "running" || state == "degraded" {
		return nil
	}
	return fmt.Errorf("systemdtest: systemd did not finish booting (%q, %v); log:\n%s", state, err, s.Log())
}

// Log returns what systemd printed so far, for failure messages.
func (s *Systemd) Log() string {
	b, err := os.ReadFile(filepath.Join(s.logDir, "systemd.log"))
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// BusAddress is the DBUS_SYSTEM_BUS_ADDRESS of the namespace's system bus,
// reachable from the host.
func (s *Systemd) BusAddress() string {
	return fmt.Sprintf("unix:path=/proc/%d/root/run/dbus/system_bus_socket", s.PID)
}

// Root is the namespace's root directory seen from the host; its /run and
// /etc/systemd/system are the private ones.
func (s *Systemd) Root() string { return fmt.Sprintf("/proc/%d/root", s.PID) }
