package exec_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestLogOutputLogsEveryLineOfBothStreams(t *testing.T) {
	got := convergeLogged(t, "greet", "command: /bin/sh -c 'echo one; echo two >&2; printf three'\nlogoutput: true\n")
	slices.SortFunc(got, func(a, b logRecord) int { return strings.Compare(a.Msg, b.Msg) })
	want := []logRecord{
		{"INFO", "one", "exec#greet", "stdout"},
		{"INFO", "three", "exec#greet", "stdout"},
		{"INFO", "two", "exec#greet", "stderr"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("logged %+v\nwant %+v", got, want)
	}
}

func TestNoLogOutputByDefault(t *testing.T) {
	if got := convergeLogged(t, "greet", "command: /bin/echo hello\nonlyif: /bin/echo guard\n"); len(got) != 0 {
		t.Errorf("logged %+v, want nothing", got)
	}
}

// TestShellSyntax: without a shell, $HOME, ;, | and * reach the program
// as plain words; the shell provider interprets them.
func TestShellSyntax(t *testing.T) {
	tests := []struct{ name, title, props, want string }{
		{"posix passes it literally", "/bin/echo $HOME ; ls | wc * `id` $(id) 'a  b'", "logoutput: true\n",
			"$HOME ; ls | wc * `id` $(id) a  b"},
		{"shell interprets it", "x", "command: \"echo $((6*7)) | tr 4 X\"\nprovider: shell\nlogoutput: true\nenvironment: [HOME=/home/ccm]\n",
			"X2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := convergeLogged(t, tt.title, tt.props); len(got) != 1 || got[0].Msg != tt.want {
				t.Errorf("logged %+v, want one line %q", got, tt.want)
			}
		})
	}
}

// TestNoopNeverExecutes: noop runs nothing but the guards, which only look.
func TestNoopNeverExecutes(t *testing.T) {
	tests := []struct {
		name    string
		guard   string // GUARD stands for a file the guard creates
		refresh bool
		msg     string
	}{
		{"plain", "", false, "Would have executed"},
		{"refresh", "", true, "Would have executed via subscribe"},
		{"refreshonly with refresh", "refreshonly: true\n", true, "Would have executed via subscribe"},
		{"guard still runs", "onlyif: /usr/bin/touch GUARD\n", false, "Would have executed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			ran, guard := filepath.Join(dir, "ran"), filepath.Join(dir, "guard")
			props := fmt.Sprintf("command: /usr/bin/touch %s\n%s", ran, strings.ReplaceAll(tt.guard, "GUARD", guard))
			out, err := resources.Converge(t.Context(), build(t, "x", props), tt.refresh, true)
			if err != nil {
				t.Fatal(err)
			}
			if !out.Change.Changed || out.Change.NoopMessage != tt.msg || out.Change.Refreshed != tt.refresh {
				t.Errorf("change %+v, want changed with %q, refreshed %v", out.Change, tt.msg, tt.refresh)
			}
			if resourcetest.Exists(ran) {
				t.Error("noop executed the command")
			}
			if strings.Contains(tt.guard, "GUARD") && !resourcetest.Exists(guard) {
				t.Error("noop did not run the guard")
			}
		})
	}
}

func TestNoopResolvesTheCommand(t *testing.T) {
	inst, err := resourcetest.BuildWith(t, "exec", "x", "command: \"/bin/echo {{ missing }}\"\n", t.TempDir(), resourcetest.Vars{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := resources.Converge(t.Context(), inst.Resource, false, true); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("noop of a command that cannot be resolved: %v, want the template's error", err)
	}
}

func TestEnsureAbsentRunsAsPresent(t *testing.T) {
	ran := filepath.Join(t.TempDir(), "ran")
	inst := resourcetest.MustBuild(t, "exec", "/usr/bin/touch "+ran, "ensure: absent\n", t.TempDir())
	if inst.Ensure != "absent" {
		t.Fatalf("requested ensure %q, want absent", inst.Ensure)
	}
	resourcetest.Converge(t.Context(), t, inst.Resource, false, false)
	if !resourcetest.Exists(ran) {
		t.Fatal("as upstream, an exec with ensure: absent runs its command")
	}
}
