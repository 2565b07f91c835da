package systemdtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Run runs a program inside the namespace (its mount and pid namespaces)
// and returns its combined output.
func (s *Systemd) Run(ctx context.Context, name string, args ...string) (string, error) {
	argv := append([]string{"-t", strconv.Itoa(s.PID), "-m", "-p", name}, args...)
	out, err := exec.CommandContext(ctx, "nsenter", argv...).CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("systemdtest: %s %s: %w: %s", name, strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// Systemctl runs systemctl inside the namespace.
func (s *Systemd) Systemctl(ctx context.Context, args ...string) (string, error) {
	return s.Run(ctx, "systemctl", args...)
}

// WriteUnit writes a unit file into the namespace's private
// /etc/systemd/system; the host's directory is never touched.
func (s *Systemd) WriteUnit(name, content string) error {
	if name == "" || strings.ContainsRune(name, '/') {
		return fmt.Errorf("systemdtest: bad unit name %q", name)
	}
	path := filepath.Join(s.Root(), "etc/systemd/system", name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		return fmt.Errorf("systemdtest: writing unit %s: %w", name, err)
	}
	return nil
}

// UnitPath is the host path of a unit file in the namespace's private
// /etc/systemd/system.
func (s *Systemd) UnitPath(name string) string {
	return filepath.Join(s.Root(), "etc/systemd/system", name)
}

// MainPID returns the main process of a service, as a host PID.
func (s *Systemd) MainPID(ctx context.Context, unit string) (int, error) {
	out, err := s.Systemctl(ctx, "show", "--property=MainPID", "--value", unit)
	if err != nil {
		return 0, err
	}
	nsPID, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil || nsPID == 0 {
		return 0, fmt.Errorf("systemdtest: %s has no main process (%q)", unit, out)
	}
	return s.hostPID(nsPID)
}

// hostPID maps a PID inside the namespace to the host's PID, through the
// NSpid line of each namespace process's status.
func (s *Systemd) hostPID(nsPID int) (int, error) {
	want := strconv.Itoa(nsPID)
	procs, err := s.processes()
	if err != nil {
		return 0, err
	}
	for _, pid := range procs {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			continue // exited meanwhile
		}
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) > 2 && f[0] == "NSpid:" && f[len(f)-1] == want {
				return pid, nil
			}
		}
	}
	return 0, fmt.Errorf("systemdtest: no process with PID %d in the namespace", nsPID)
}

// processes lists the host PIDs of every process in the namespace.
func (s *Systemd) processes() ([]int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("systemdtest: %w", err)
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ns, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/pid", pid)); err == nil && ns == s.pidNS {
			out = append(out, pid)
		}
	}
	return out, nil
}
