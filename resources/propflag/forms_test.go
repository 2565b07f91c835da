package propflag_test

import (
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/propflag"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"
)

// rules is a list of single-key maps kept in order, as scaffold's post
// rules are.
type rules []map[string]string

func (rules) PropertyKind() resources.Kind { return resources.KindPairs }

type check struct {
	Command string `yaml:"command" help:"command"`
	Tries   int    `yaml:"check_tries" help:"tries"`
}

// service is a second property struct: two positional arguments
// declared out of order, the invoking user's defaults, a default that
// splits, pairs, a list of objects and a flag named apart from its key.
type service struct {
	State   string  `yaml:"state" help:"state" cli:"arg=2,default=running"`
	Unit    string  `yaml:"unit" help:"unit" cli:"arg=1"`
	User    string  `yaml:"user" help:"user" cli:"default=@user,split=group"`
	Group   string  `yaml:"group" help:"group" cli:"default=@group"`
	Owner   string  `yaml:"owner" help:"owner" cli:"default=root:adm,split=owner_group"`
	OGroup  string  `yaml:"owner_group" help:"owner's group"`
	Post    rules   `yaml:"post" help:"post rules"`
	Checks  []check `yaml:"checks" help:"checks"`
	Refresh bool    `yaml:"refresh_only" help:"refresh only" cli:"flag=refresh-only"`
}

func buildService(t *testing.T, args ...string) (string, error) {
	t.Helper()
	return buildOf(t, service{}, args...)
}

// invoking is the invoking user's and group's names, as @user and
// @group give them.
func invoking(t *testing.T) (string, string) {
	t.Helper()
	u, err := user.Current()
	if err != nil {
		t.Skipf("no name for the invoking user: %v", err)
	}
	g, err := user.LookupGroupId(strconv.Itoa(os.Getgid()))
	if err != nil {
		t.Skipf("no name for the invoking group: %v", err)
	}
	return u.Username, g.Name
}

func TestNodeForms(t *testing.T) {
	u, g := invoking(t)
	defaults := "user: " + u + ", group: " + g + ", owner: root, owner_group: adm"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"arguments in their declared order", []string{"x", "nginx", "stopped"}, "{name: x, state: stopped, unit: nginx, " + defaults + "}"},
		{"the second argument left out", []string{"x", "nginx"}, "{name: x, state: running, unit: nginx, " + defaults + "}"},
		{"a split argument's default", []string{"x", "--user", "www:web"}, "{name: x, state: running, user: www, group: web, owner: root, owner_group: adm}"},
		{"a split without a colon leaves the other's default", []string{"x", "--owner", "daemon"}, "{name: x, state: running, user: " + u + ", group: " + g + ", owner: daemon}"},
		{"pairs in order", []string{"x", "--post", "b=2", "--post", "a=1=2"}, "{name: x, state: running, " + defaults + ", post: [{b: \"2\"}, {a: 1=2}]}"},
		{"a list of objects from its fields", []string{"x", "--command", "true", "--check-tries", "2"}, "{name: x, state: running, " + defaults + ", checks: [{command: \"true\", check_tries: 2}]}"},
		{"a flag named apart from its key", []string{"x", "--refresh-only"}, "{name: x, state: running, " + defaults + ", refresh_only: true}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := buildService(t, tt.args...)
			if err != nil || got != tt.want {
				t.Fatalf("got  %s (%v)\nwant %s", got, err, tt.want)
			}
		})
	}
}

func TestNodeFormErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	tests := []struct {
		name  string
		build func(t *testing.T, args ...string) (string, error)
		args  []string
		want  string
	}{
		{"a pair without its separator", buildService, []string{"x", "--post", "b:2"}, `--post: "b:2": want KEY=VALUE`},
		{"the second argument also as a flag", buildService, []string{"x", "nginx", "stopped", "--state", "running"}, "--state: given both as a flag and as the STATE argument"},
		{"a split argument and the other flag", buildService, []string{"x", "--user", "a:b", "--group", "c"}, `--user: "a:b" sets group, which is given too`},
		{"a missing file", build, []string{"x", "--content-file", missing}, "--content: open " + missing + ": no such file or directory"},
		{"the file's alias and the flag's alias", build, []string{"x", "--contents", "a", "--contents-file", "/dev/null"}, "--content: cannot be given with --content-file"},
		{"an object's field error is the field's", build, []string{"x", "--cpu", "1", "--contents-file", missing}, "--content: open "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.build(t, tt.args...)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("got %s, %v; want an error starting %q", got, err, tt.want)
			}
		})
	}
}

func TestFlagsOfASecondType(t *testing.T) {
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	set := propflag.New(fs, resources.PropertiesOf(service{}))
	if got := set.Usage(); got != "NAME [UNIT] [STATE]" || set.Args() != 2 {
		t.Errorf("usage %q with %d arguments, want NAME [UNIT] [STATE] with 2", got, set.Args())
	}
	for name, want := range map[string]string{"user": "the invoking user", "group": "the invoking user's group", "owner": "root:adm", "state": "running", "unit": ""} {
		if f := fs.Lookup(name); f == nil || f.DefValue != want {
			t.Errorf("--%s shows the default %+v, want %q", name, f, want)
		}
	}
	for name, want := range map[string]string{"post": "post rules (KEY=VALUE) (repeatable)", "check-tries": "tries", "refresh-only": "refresh only"} {
		if f := fs.Lookup(name); f == nil || f.Usage != want {
			t.Errorf("--%s usage %+v, want %q", name, f, want)
		}
	}
	if fs.Lookup("refresh_only") != nil || fs.Lookup("checks") != nil {
		t.Error("a flag for the key of a renamed flag or of a list of objects")
	}
}

// TestEnvDefaultYieldsToTheFlag: a property's variable is its default
// only, taken as written (not split); a set but empty variable is a
// value.
func TestEnvDefaultYieldsToTheFlag(t *testing.T) {
	t.Setenv("PROPFLAG_TEST_OWNER", "deploy:ops")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"x", "--owner", "www"}, "{name: x, ensure: present, owner: www}"},
		{[]string{"x"}, "{name: x, ensure: present, owner: 'deploy:ops'}"},
	}
	for _, tt := range tests {
		if got, err := build(t, tt.args...); err != nil || got != tt.want {
			t.Errorf("%v: got %s (%v), want %s", tt.args, got, err, tt.want)
		}
	}
	t.Setenv("PROPFLAG_TEST_OWNER", "")
	if got, err := build(t, "x"); err != nil || got != `{name: x, ensure: present, owner: ""}` {
		t.Errorf("an empty variable: got %s (%v)", got, err)
	}
}

func TestATypeWithoutArguments(t *testing.T) {
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	set := propflag.New(fs, resources.PropertiesOf(check{}))
	if set.Usage() != "NAME" || set.Args() != 0 {
		t.Fatalf("usage %q with %d arguments", set.Usage(), set.Args())
	}
	if err := fs.Parse([]string{"--check-tries", "3"}); err != nil {
		t.Fatal(err)
	}
	n, err := set.Node([]string{"x", "ignored"})
	if err != nil {
		t.Fatal(err)
	}
	setFlow(n)
	if b, _ := yaml.Marshal(n); strings.TrimSpace(string(b)) != "{name: x, check_tries: 3}" {
		t.Fatalf("node %s", b)
	}
}
