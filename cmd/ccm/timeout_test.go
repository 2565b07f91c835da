package main_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// alive reports whether the process whose pid is in file still runs; a
// killed one waiting to be reaped (a zombie) does not.
func alive(t *testing.T, file string) bool {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the hung command did not start: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		t.Fatalf("pid file %s holds %q", file, b)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	state := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))[0]
	return state != "Z" && state != "X"
}

// hungGuard is an exec whose unless guard never returns, leaving a
// background child behind it in its process group.
const hungGuard = `
- exec:
    - guarded:
        command: /bin/true
        unless: /bin/sh -c "sleep 600 & echo $! > @/child; wait"%s
    - independent:
        command: /bin/sh -c "touch @/ran"
`

func TestHungCommandsAreKilledAtTheirDeadline(t *testing.T) {
	for _, tc := range []struct {
		name, timeout string
		args          []string
		says          string
	}{
		{"the exec's timeout bounds its guards", "\n        timeout: 1s", nil, "1s"},
		{"the type's bound from --timeout", "", []string{"--timeout", "exec=1s"}, "did not finish within 1s (--timeout exec)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			m := manifest(t, dir, strings.Replace(hungGuard, "%s", tc.timeout, 1))
			r := ccm(t, append(append([]string{"run"}, tc.args...), m)...)
			if r.code != 1 {
				t.Fatalf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout, "timed out") || !strings.Contains(r.stdout, tc.says) {
				t.Errorf("the failure does not say %q:\n%s", tc.says, r.stdout)
			}
			if alive(t, filepath.Join(dir, "child")) {
				t.Error("the guard's child outlived the timeout: its process group was not killed")
			}
			if _, err := os.Stat(filepath.Join(dir, "ran")); err != nil {
				t.Errorf("an independent resource did not run: %v", err)
			}
		})
	}
}

func TestTimeoutFlagIsChecked(t *testing.T) {
	m := manifest(t, t.TempDir(), "- exec:\n    - /bin/true: {}\n")
	for _, arg := range []string{"nosuchtype=1s", "exec=soon", "exec=-1s"} {
		if r := ccm(t, "run", "--timeout", arg, m); r.code != 2 || !strings.Contains(r.stderr, "--timeout") {
			t.Errorf("--timeout %s: exit %d, stderr %q; want exit 2 naming the flag", arg, r.code, r.stderr)
		}
	}
}

// TestExecTimeoutLetsAHandlerRun: an exec stopped by its timeout gets
// SIGTERM first, so a handler cleans up, and its event says how it ended:
// by SIGTERM, or by SIGKILL once timeout_grace passed.
func TestExecTimeoutLetsAHandlerRun(t *testing.T) {
	for _, tc := range []struct{ name, trap, grace, says string }{
		{"the handler runs", `touch @/cleaned; exit 1`, "1h", "got SIGTERM and exited within the 1h0m0s grace period"},
		{"SIGTERM ignored", ``, "200ms", "got SIGTERM, then SIGKILL when it had not exited after the 200ms grace period"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			m := manifest(t, dir, `
- exec:
    - stopped:
        command: /bin/sh -c "trap '`+tc.trap+`' TERM; sleep 600 & wait"
        timeout: 200ms
        timeout_grace: `+tc.grace+`
`)
			r := ccm(t, "run", "--json", m)
			if r.code != 1 || !strings.Contains(r.stdout, tc.says) {
				t.Fatalf("exit %d, want 1 and the event saying %q\n%s%s", r.code, tc.says, r.stdout, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "cleaned")); (err == nil) != (tc.trap != "") {
				t.Fatalf("the handler's file exists: %v", err == nil)
			}
		})
	}
}
