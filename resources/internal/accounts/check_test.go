package accounts_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/accounts"
	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestChecks(t *testing.T) {
	id := func(n int64) *int { v := int(n); return &v }
	tests := []struct {
		name, user string
		uid        *int
		// wide ids do not fit a 32-bit int: those rows run on 64-bit hosts.
		wide   bool
		groups []string
		want   []string
	}{
		{name: "valid", user: "ccm_user-1.x$", uid: id(1<<32 - 2), wide: true, groups: []string{"wheel", "adm"}},
		{name: "no id given", user: "_x", groups: nil},
		{name: "bad name", user: "-lead", want: []string{`m.yaml:1:1: user#-lead: "-lead" is not a user name (letters, digits, _ . -, at most 32)`}},
		{name: "32 characters", user: strings.Repeat("a", 32)},
		{name: "a machine account", user: "host01$"},
		{name: "name too long", user: strings.Repeat("a", 33), want: []string{"is not a user name"}},
		{name: "dollar only last", user: "a$b", want: []string{"is not a user name"}},
		{name: "negative id", user: "ok", uid: id(-1), want: []string{"m.yaml:2:6: uid: -1 is out of range"}},
		{name: "the none id", user: "ok", uid: id(1<<32 - 1), wide: true, want: []string{"uid: 4294967295 is out of range"}},
		{name: "bad and repeated groups", user: "ok", groups: []string{"adm", "a b", "adm", "wheel"},
			want: []string{`m.yaml:3:9: groups: item 2, "a b", is not a group name`, `m.yaml:3:9: groups: "adm" is listed twice`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.wide && strconv.IntSize < 64 {
				t.Skip("ids of 2^31 and over do not fit this platform's int")
			}
			spec := &resources.Spec{Type: "user", Name: tt.user, Pos: resources.Pos{File: "m.yaml", Line: 1, Col: 1},
				Props: resourcetest.YAMLNode(t, "ensure: present\nuid: 1\ngroups: [x]")}
			var errs resources.ErrorList
			accounts.CheckName(spec, &errs, "user")
			accounts.CheckID(spec, &errs, "uid", tt.uid)
			accounts.CheckNames(spec, &errs, "groups", tt.groups, "group")
			if len(errs) != len(tt.want) {
				t.Fatalf("errors %v, want %q", errs, tt.want)
			}
			for i, w := range tt.want {
				if !strings.Contains(errs[i].Error(), w) {
					t.Errorf("error %d %q, want %q", i, errs[i], w)
				}
			}
		})
	}
}

// recorder is a Runner that records each command and answers with the
// exit code of exits, in turn.
type recorder struct {
	ran   []string
	stdin []bool
	exits []int
}

func (r *recorder) Run(_ context.Context, c command.Cmd) (command.Result, error) {
	r.ran = append(r.ran, c.Name+" "+strings.Join(c.Args, " "))
	r.stdin = append(r.stdin, c.Stdin != nil)
	if c.Timeout != accounts.Timeout {
		return command.Result{}, errors.New("run without the tools' timeout")
	}
	code := r.exits[0]
	r.exits = r.exits[1:]
	return command.Result{ExitCode: code, Stderr: []byte("useradd: group 'x' does not exist\n")}, nil
}

func TestRunSteps(t *testing.T) {
	steps := []accounts.Step{
		{What: "created the user", Tool: "useradd", Args: []string{"--uid", "1500", "ccmu"}},
		{What: "set the password", Tool: "chpasswd", Args: []string{"--encrypted"}, Stdin: "ccmu:$6$secret"},
		{What: "locked it", Tool: "usermod", Args: []string{"--lock", "ccmu"}},
	}
	if got, want := accounts.NoopMessage(steps), "Would have created the user; set the password; locked it"; got != want {
		t.Errorf("noop message %q, want %q", got, want)
	}
	if got := accounts.NoopMessage(steps[:1]); got != "Would have created the user" {
		t.Errorf("noop message of one step %q", got)
	}
	if err := accounts.RunSteps(t.Context(), &recorder{}, nil); err != nil {
		t.Errorf("no steps: %v", err)
	}
	t.Run("all run in order, stdin only where given", func(t *testing.T) {
		r := &recorder{exits: []int{0, 0, 0}}
		if err := accounts.RunSteps(t.Context(), r, steps); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(r.ran, "; "); got != "useradd --uid 1500 ccmu; chpasswd --encrypted; usermod --lock ccmu" {
			t.Errorf("ran %q", got)
		}
		if r.stdin[0] || !r.stdin[1] || r.stdin[2] {
			t.Errorf("stdin given %v, want only to chpasswd", r.stdin)
		}
	})
	t.Run("a failure stops the rest and says what the tool said", func(t *testing.T) {
		r := &recorder{exits: []int{0, 6, 0}}
		err := accounts.RunSteps(t.Context(), r, steps)
		if err == nil || err.Error() != "chpasswd --encrypted exited 6: useradd: group 'x' does not exist" {
			t.Fatalf("error %v", err)
		}
		if strings.Contains(err.Error(), "secret") || len(r.ran) != 2 {
			t.Errorf("ran %q, error %v", r.ran, err)
		}
	})
}
