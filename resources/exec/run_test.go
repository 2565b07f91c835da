package exec_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestReturns(t *testing.T) {
	tests := []struct {
		name, props string
		wantErr     string
	}{
		{"zero is the default", "command: /bin/sh -c 'exit 0'\n", ""},
		{"non-zero fails by default", "command: /bin/sh -c 'exit 3'\n",
			"failed to reach desired state: exit code 3: exit code 3 not in allowed returns [0]"},
		{"listed code succeeds", "command: /bin/sh -c 'exit 3'\nreturns: [0, 3]\n", ""},
		{"zero fails when not listed", "command: /bin/sh -c 'exit 0'\nreturns: [2]\n",
			"failed to reach desired state: exit code 0: exit code 0 not in allowed returns [2]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := resources.Converge(t.Context(), build(t, "x", tt.props), false, false)
			if tt.wantErr == "" {
				if err != nil || !out.Change.Changed || !out.After.Desired {
					t.Fatalf("out %+v err %v; want a successful run", out, err)
				}
				return
			}
			if !errors.Is(err, resources.ErrDesiredStateFailed) || err.Error() != tt.wantErr {
				t.Errorf("got %v, want %s", err, tt.wantErr)
			}
		})
	}
}

// TestTimeoutKillsTheProcessGroup: the command and every child it started
// are killed when the timeout expires, for both providers.
func TestTimeoutKillsTheProcessGroup(t *testing.T) {
	for _, provider := range []string{"posix", "shell"} {
		t.Run(provider, func(t *testing.T) {
			pids := filepath.Join(t.TempDir(), "pids")
			script := "sleep 60 & echo $! >> " + pids + "; sleep 60 & echo $! >> " + pids + "; wait"
			props := fmt.Sprintf("command: %q\ntimeout: 1s\nprovider: %s\n", "/bin/sh -c '"+script+"'", provider)
			if provider == "shell" {
				props = fmt.Sprintf("command: %q\ntimeout: 1s\nprovider: shell\n", script)
			}
			_, err := resources.Converge(t.Context(), build(t, "sleeper", props), false, false)
			if !errors.Is(err, command.ErrTimeout) {
				t.Fatalf("got %v, want a timeout", err)
			}
			children := strings.Fields(resourcetest.ReadFile(t, pids))
			if len(children) != 2 {
				t.Fatalf("children %v, want 2", children)
			}
			for _, pid := range children {
				n, err := strconv.Atoi(pid)
				if err != nil {
					t.Fatalf("child %q: %v", pid, err)
				}
				resourcetest.WaitExited(t, n)
			}
		})
	}
}

func TestCreates(t *testing.T) {
	dir := t.TempDir()
	marker, ran := filepath.Join(dir, "marker"), filepath.Join(dir, "ran")
	r := build(t, "x", fmt.Sprintf("command: /bin/sh -c 'touch %s %s'\ncreates: %s\n", ran, marker, marker))
	out, err := resources.Converge(t.Context(), r, false, false)
	if err != nil || !out.Change.Changed || out.Before.Reason() != "creates absent → present ("+marker+")" {
		t.Fatalf("first converge: %+v %v", out, err)
	}
	if out.Before.Ensure != "absent" || out.After.Ensure != "present" {
		t.Errorf("ensure %q then %q, want absent then present", out.Before.Ensure, out.After.Ensure)
	}
	if err := os.Remove(ran); err != nil {
		t.Fatal(err)
	}
	if out, err := resources.Converge(t.Context(), r, false, false); err != nil || out.Applied {
		t.Errorf("ran although creates exists: %+v %v", out, err)
	}
	if resourcetest.Exists(ran) {
		t.Error("command ran although creates exists")
	}
}

func TestSubscribeWinsOverCreatesAndGuards(t *testing.T) {
	dir := t.TempDir()
	marker, ran := filepath.Join(dir, "marker"), filepath.Join(dir, "ran")
	resourcetest.WriteFile(t, marker, "", 0o644)
	tests := []struct{ name, guard string }{
		{"creates exists", "creates: " + marker + "\n"},
		{"onlyif fails", "onlyif: /bin/false\n"},
		{"unless succeeds", "unless: /bin/true\n"},
		{"refreshonly", "refreshonly: true\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := build(t, "x", "command: /usr/bin/touch "+ran+"\n"+tt.guard)
			if out, err := resources.Converge(t.Context(), r, false, false); err != nil || out.Applied {
				t.Fatalf("ran without a refresh: %+v %v", out, err)
			}
			out, err := resources.Converge(t.Context(), r, true, false)
			if err != nil || !out.Change.Changed || !out.Change.Refreshed {
				t.Fatalf("refresh: %+v %v", out, err)
			}
			if !resourcetest.Exists(ran) {
				t.Error("the refresh did not run the command")
			}
			if err := os.Remove(ran); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestFailedRunIsReportedEvenWhenCreatesExists: a refresh that runs the
// command despite its marker reports the command's failure instead of
// hiding it behind the marker.
func TestFailedRunIsReportedEvenWhenCreatesExists(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "marker")
	resourcetest.WriteFile(t, marker, "", 0o644)
	r := build(t, "x", "command: /bin/false\ncreates: "+marker+"\n")
	_, err := resources.Converge(t.Context(), r, true, false)
	if want := "failed to reach desired state: exit code 1: exit code 1 not in allowed returns [0]"; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	if out, err := resources.Converge(t.Context(), r, false, false); err != nil || out.Applied {
		t.Errorf("without a refresh the marker decides: %+v %v", out, err)
	}
}

// TestGuards runs onlyif and unless under both providers: posix runs the
// guard as a program, shell through /bin/sh.
func TestGuards(t *testing.T) {
	tests := []struct {
		name, provider, guards string
		runs                   bool
	}{
		{"posix onlyif succeeds", "posix", "onlyif: /bin/true\n", true},
		{"posix onlyif fails", "posix", "onlyif: /bin/false\n", false},
		{"posix unless succeeds", "posix", "unless: /bin/true\n", false},
		{"posix unless fails", "posix", "unless: /bin/false\n", true},
		{"posix onlyif passes and unless blocks", "posix", "onlyif: /bin/true\nunless: /bin/true\n", false},
		{"posix both allow", "posix", "onlyif: /bin/true\nunless: /bin/false\n", true},
		{"posix guard does not use a shell", "posix", "onlyif: \"/bin/false || /bin/true\"\n", false},
		{"shell onlyif succeeds", "shell", "onlyif: \"false || true\"\n", true},
		{"shell onlyif fails", "shell", "onlyif: \"true && false\"\n", false},
		{"shell unless succeeds", "shell", "unless: \"test -d /\"\n", false},
		{"shell unless fails", "shell", "unless: \"test -d /nonexistent\"\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran := filepath.Join(t.TempDir(), "ran")
			r := build(t, "x", fmt.Sprintf("command: /usr/bin/touch %s\nprovider: %s\n%s", ran, tt.provider, tt.guards))
			out, err := resources.Converge(t.Context(), r, false, false)
			if err != nil {
				t.Fatal(err)
			}
			if resourcetest.Exists(ran) != tt.runs || out.Change.Changed != tt.runs {
				t.Errorf("ran=%v changed=%v, want %v (status %+v)", resourcetest.Exists(ran), out.Change.Changed, tt.runs, out.Before)
			}
		})
	}
}

func TestGuardThatCannotRunIsAnError(t *testing.T) {
	r := build(t, "x", "command: /bin/true\nonlyif: ccm-fixture-no-such-program\n")
	_, err := r.Check(t.Context())
	want := "onlyif: ccm-fixture-no-such-program: executable not found in " + command.DefaultPath
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestRefreshOnly(t *testing.T) {
	ran := filepath.Join(t.TempDir(), "ran")
	r := build(t, "x", "command: /usr/bin/touch "+ran+"\nrefreshonly: true\n")
	if w := r.Watch(); w.Poll != 0 || len(w.Paths) != 0 {
		t.Errorf("refreshonly watches %+v, want nothing", w)
	}
	for range 2 {
		if out, err := resources.Converge(t.Context(), r, false, false); err != nil || out.Applied || !out.Before.Desired {
			t.Fatalf("without refresh: %+v %v", out, err)
		}
	}
	if resourcetest.Exists(ran) {
		t.Fatal("ran without a refresh")
	}
	out, err := resources.Converge(t.Context(), r, true, false)
	if err != nil || !out.Change.Refreshed || !resourcetest.Exists(ran) {
		t.Fatalf("with refresh: %+v %v ran=%v", out, err, resourcetest.Exists(ran))
	}
}

// TestRunsOncePerGraph: an exec with nothing to look at runs once, not on
// every check; a failed run is tried again.
func TestRunsOncePerGraph(t *testing.T) {
	count := filepath.Join(t.TempDir(), "count")
	r := build(t, "x", fmt.Sprintf("command: /bin/sh -c 'echo x >> %s'\n", count))
	for i := range 3 {
		out, err := resources.Converge(t.Context(), r, false, false)
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if i == 0 {
			want = "command not run → run"
		}
		if out.Before.Reason() != want {
			t.Errorf("converge %d: reason %q, want %q", i+1, out.Before.Reason(), want)
		}
	}
	if got := resourcetest.ReadFile(t, count); got != "x\n" {
		t.Errorf("ran %d times, want once", strings.Count(got, "x"))
	}

	failing := build(t, "y", fmt.Sprintf("command: /bin/sh -c 'echo y >> %s; exit 1'\n", count))
	for range 2 {
		if _, err := resources.Converge(t.Context(), failing, false, false); !errors.Is(err, resources.ErrDesiredStateFailed) {
			t.Fatalf("got %v, want a failure", err)
		}
	}
	if got := strings.Count(resourcetest.ReadFile(t, count), "y"); got != 2 {
		t.Errorf("failing command ran %d times, want 2", got)
	}
}

func TestPathFindsTheProgramAndIsTheChildsPATH(t *testing.T) {
	bin, out := t.TempDir(), filepath.Join(t.TempDir(), "out")
	resourcetest.WriteFile(t, filepath.Join(bin, "ccm-fixture-hello"), "#!/bin/sh\necho \"$PATH\" > "+out+"\n", 0o755)
	path := bin + ":/usr/bin:/bin"
	r := build(t, "ccm-fixture-hello", "path: "+path+"\n")
	if _, err := resources.Converge(t.Context(), r, false, false); err != nil {
		t.Fatal(err)
	}
	if got := resourcetest.ReadFile(t, out); got != path+"\n" {
		t.Errorf("child PATH %q, want %q", got, path)
	}
}

func TestEnvironmentIsReplaced(t *testing.T) {
	t.Setenv("CCM_FIXTURE_CANARY", "leaked")
	out := filepath.Join(t.TempDir(), "env")
	r := build(t, "x", "command: /bin/sh -c '/usr/bin/env > "+out+"'\n"+
		"environment: [GREETING=hello world, LANG=en_US.UTF-8]\n")
	if _, err := resources.Converge(t.Context(), r, false, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(resourcetest.ReadFile(t, out)), "\n")
	for _, want := range []string{"GREETING=hello world", "LC_ALL=C", "PATH=" + command.DefaultPath, "LANG=en_US.UTF-8"} {
		if !slices.Contains(lines, want) {
			t.Errorf("child environment lacks %q: %v", want, lines)
		}
	}
	for _, line := range lines {
		if strings.HasPrefix(line, "CCM_FIXTURE_CANARY=") || strings.HasPrefix(line, "HOME=") || line == "LANG=C" {
			t.Errorf("child environment has %q: %v", line, lines)
		}
	}
}

func TestWorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ name, cwd, want string }{
		{"defaults to /", "", "/"},
		{"cwd", "cwd: " + dir + "\n", dir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "pwd")
			r := build(t, "x", "command: /bin/sh -c 'pwd > "+out+"'\n"+tt.cwd)
			if _, err := resources.Converge(t.Context(), r, false, false); err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(resourcetest.ReadFile(t, out)); got != tt.want {
				t.Errorf("ran in %q, want %q", got, tt.want)
			}
		})
	}
}
