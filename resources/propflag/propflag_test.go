package propflag_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/internal/ownership"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/document"
	"github.com/reactive-ccm/ccm/resources/propflag"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"
)

type limits struct {
	CPU    string `yaml:"cpu" help:"cpu share"`
	Memory string `yaml:"memory" help:"memory limit"`
}

// props is a type's property struct using every command-line option.
type props struct {
	Ensure  string            `yaml:"ensure" help:"state" cli:"arg=1,default=present"`
	Content string            `yaml:"content" help:"content" cli:"alias=contents,file=content-file,filealias=contents-file"`
	Owner   string            `yaml:"owner" help:"owner" cli:"split=group,env=PROPFLAG_TEST_OWNER"`
	Group   string            `yaml:"group" help:"group"`
	Force   bool              `yaml:"force" help:"force" cli:"short=f"`
	Tries   int               `yaml:"tries" help:"tries"`
	Codes   []int             `yaml:"codes" help:"exit codes"`
	Tags    []string          `yaml:"tags" help:"tags"`
	Env     map[string]string `yaml:"env" help:"environment" cli:"sep=:"`
	Hidden  string            `yaml:"hidden" help:"not offered" cli:"-"`
	Enabled *bool             `yaml:"enabled" help:"enabled" cli:"negate=disabled"`
	Limits  limits            `yaml:"limits" help:"limits"`
	Data    map[string]any    `yaml:"data" help:"anything"`
}

// build parses args against the flags of props and returns the node as
// flow YAML.
func build(t *testing.T, args ...string) (string, error) {
	t.Helper()
	return buildOf(t, props{}, args...)
}

// buildOf parses args against the flags of the property struct decl and
// returns the node as flow YAML.
func buildOf(t *testing.T, decl any, args ...string) (string, error) {
	t.Helper()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	set := propflag.New(fs, resources.PropertiesOf(decl))
	if err := fs.Parse(args); err != nil {
		t.Fatalf("parse %v: %v", args, err)
	}
	n, err := set.Node(fs.Args())
	if err != nil {
		return "", err
	}
	setFlow(n)
	b, err := yaml.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b)), nil
}

func setFlow(n *yaml.Node) {
	n.Style = yaml.FlowStyle
	for _, c := range n.Content {
		setFlow(c)
	}
}

func TestNode(t *testing.T) {
	t.Setenv("PROPFLAG_TEST_OWNER", "")
	os.Unsetenv("PROPFLAG_TEST_OWNER")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"defaults only", []string{"x"}, `{name: x, ensure: present}`},
		{"positional argument", []string{"x", "absent"}, `{name: x, ensure: absent}`},
		{"typed scalars", []string{"x", "-f", "--tries", "3"}, `{name: x, ensure: present, force: true, tries: 3}`},
		{"repeated lists", []string{"x", "--codes", "1", "--codes", "2,3", "--tags", "a", "--tags", "b"}, `{name: x, ensure: present, codes: [1, 2, 3], tags: [a, b]}`},
		{"map with its separator", []string{"x", "--env", "A:1", "--env", "B:2"}, `{name: x, ensure: present, env: {A: "1", B: "2"}}`},
		{"alias", []string{"x", "--contents", "hi"}, `{name: x, ensure: present, content: hi}`},
		{"split sets the other property", []string{"x", "--owner", "www:adm"}, `{name: x, ensure: present, owner: www, group: adm}`},
		{"negate", []string{"x", "--disabled"}, `{name: x, ensure: present, enabled: false}`},
		{"object from its fields", []string{"x", "--cpu", "2"}, `{name: x, ensure: present, limits: {cpu: "2"}}`},
		{"an explicit false, zero and empty are values", []string{"x", "--force=false", "--tries", "0", "--content", ""}, `{name: x, ensure: present, content: "", force: false, tries: 0}`},
		{"negative numbers", []string{"x", "--tries=-1", "--codes=-2,3"}, `{name: x, ensure: present, tries: -1, codes: [-2, 3]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := build(t, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestNodeEnvDefault(t *testing.T) {
	t.Setenv("PROPFLAG_TEST_OWNER", "deploy")
	got, err := build(t, "x")
	if err != nil {
		t.Fatal(err)
	}
	if want := `{name: x, ensure: present, owner: deploy}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestNodeFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "content")
	if err := os.WriteFile(path, []byte("from a file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := build(t, "x", "--contents-file", path)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{name: x, ensure: present, content: "from a file\n"}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestNodeErrors(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	resourcetest.FIFO(t, fifo)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"flag and argument", []string{"x", "absent", "--ensure", "present"}, "--ensure: given both as a flag and as the ENSURE argument"},
		{"flag and its file", []string{"x", "--content", "a", "--content-file", "/dev/null"}, "--content: cannot be given with --content-file"},
		{"flag and its negation", []string{"x", "--enabled", "true", "--disabled"}, "--enabled: cannot be given with --disabled"},
		{"split and the other flag", []string{"x", "--owner", "a:b", "--group", "c"}, `--owner: "a:b" sets group, which is given too`},
		{"map without separator", []string{"x", "--env", "A=1"}, `--env: "A=1": want KEY:VALUE`},
		{"file that is a FIFO", []string{"x", "--content-file", fifo}, "not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := build(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestFileBounds(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, document.MaxSize+1); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]error{"/dev/zero": ownership.ErrNotRegular, big: ownership.ErrTooLarge} {
		if _, err := build(t, "x", "--content-file", path); !errors.Is(err, want) {
			t.Errorf("%s: got %v, want %v", path, err, want)
		}
	}
}

func TestUsageAndHelp(t *testing.T) {
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	set := propflag.New(fs, resources.PropertiesOf(props{}))
	if got := set.Usage(); got != "NAME [ENSURE]" {
		t.Errorf("Usage = %q", got)
	}
	if set.Args() != 1 {
		t.Errorf("Args = %d, want 1", set.Args())
	}
	for name, want := range map[string]bool{"hidden": false, "data": false, "cpu": true, "content-file": true, "disabled": true} {
		if got := fs.Lookup(name) != nil; got != want {
			t.Errorf("flag --%s registered = %v, want %v", name, got, want)
		}
	}
	if f := fs.Lookup("owner"); !strings.Contains(f.Usage, "(default $PROPFLAG_TEST_OWNER)") {
		t.Errorf("--owner usage %q does not name its variable", f.Usage)
	}
	if f := fs.Lookup("env"); !strings.Contains(f.Usage, "(KEY:VALUE)") {
		t.Errorf("--env usage %q does not name its form", f.Usage)
	}
	if f := fs.Lookup("contents"); !f.Hidden {
		t.Error("the alias --contents is not hidden")
	}
}
