package exec_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestDeferredPropertiesResolveAtRunTime(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	tmpl := resourcetest.Vars{"dir": dir, "word": "hello", "empty": ""}
	props := "command: /bin/sh -c 'echo $WORD > {{ dir }}/out'\ncwd: \"{{ dir }}\"\n" +
		"environment: [\"WORD={{ word }}\"]\ncreates: \"{{ dir }}/out\"\nunless: /bin/test -e {{ dir }}/stop\n"
	inst, err := resourcetest.BuildWith(t, "exec", "x", props, dir, tmpl)
	if err != nil {
		t.Fatal(err)
	}
	if w := inst.Resource.Watch(); !slices.Equal(w.Paths, []string{out}) || w.Poll != resources.PollDefault {
		t.Errorf("watching %+v, want the resolved creates path, polled", w)
	}
	resourcetest.Converge(t.Context(), t, inst.Resource, false, false)
	if got := resourcetest.ReadFile(t, out); got != "hello\n" {
		t.Errorf("wrote %q", got)
	}
}

// TestTemplateErrorsCarryThePropertyPosition: a deferred property that fails
// to resolve, or resolves to something invalid, fails the resource with the
// position where the property is written.
func TestTemplateErrorsCarryThePropertyPosition(t *testing.T) {
	tests := []struct{ name, props, want string }{
		{"command", "command: \"{{ nope }}\"\n", `test.yaml:1:10: command: unknown name "nope"`},
		{"command resolving to nothing", "command: \"{{ empty }}\"\n", `test.yaml:1:10: command: the command is empty`},
		{"cwd resolving to a relative path", "command: /bin/true\ncwd: \"{{ rel }}\"\n", `test.yaml:2:6: cwd: the templated value is not an absolute path`},
		{"environment item", "command: /bin/true\nenvironment:\n  - A=1\n  - \"B={{ empty }}\"\n",
			`test.yaml:4:5: environment: item 2: the templated value is not KEY=VALUE with a non-empty key and value`},
		{"creates", "command: /bin/true\ncreates: \"{{ nope }}\"\n", `test.yaml:2:10: creates: unknown name "nope"`},
		{"creates resolving to an unclean path", "command: /bin/true\ncreates: \"/opt/{{ empty }}/done\"\n",
			`test.yaml:2:10: creates: the templated value is not a clean path (no ., .., // or trailing /)`},
		{"cwd resolving to an unclean path", "command: /bin/true\ncwd: \"/opt/{{ rel }}/..\"\n",
			`test.yaml:2:6: cwd: the templated value is not a clean path (no ., .., // or trailing /)`},
		{"onlyif", "command: /bin/true\nonlyif: \"{{ nope }}\"\n", `test.yaml:2:9: onlyif: unknown name "nope"`},
		{"unless", "command: /bin/true\nunless: \"/bin/test '{{ empty }}\"\n",
			`test.yaml:2:9: unless: cannot be split into words: Unterminated single-quoted string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resourcetest.ConvergeError(t, "exec", "x", tt.props, resourcetest.Vars{"empty": "", "rel": "tmp"}); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestWatch(t *testing.T) {
	tests := []struct {
		name, props string
		want        resources.WatchSpec
	}{
		{"nothing to look at", "", resources.WatchSpec{}},
		{"refreshonly", "refreshonly: true\ncreates: /tmp/m\n", resources.WatchSpec{}},
		{"creates", "creates: /tmp/m\n", resources.WatchSpec{Paths: []string{"/tmp/m"}, Poll: resources.PollDefault}},
		{"onlyif", "onlyif: /bin/true\n", resources.WatchSpec{Poll: resources.PollDefault}},
		{"unless", "unless: /bin/true\n", resources.WatchSpec{Poll: resources.PollDefault}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := build(t, "/bin/true", tt.props).Watch()
			if !slices.Equal(got.Paths, tt.want.Paths) || got.Poll != tt.want.Poll || got.Func != nil || len(got.Units)+len(got.Trees) != 0 {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestInstanceUses(t *testing.T) {
	tests := []struct {
		name, exec, props string
		uses              []string
	}{
		{"program by name", "make", "", nil},
		{"program by absolute path", "/opt/app/bin/setup --now", "", []string{"/opt/app/bin/setup"}},
		{"cwd", "x", "command: make\ncwd: /opt/app\n", []string{"/opt/app"}},
		{"creates", "x", "command: make\ncreates: /opt/app/.done\n", []string{"/opt/app/.done"}},
		{"shell command", "x", "command: /opt/app/run.sh\nprovider: shell\n", nil},
		{"templated", "x", "command: \"{{ empty }}/bin/x\"\ncwd: \"{{ empty }}/opt\"\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst, err := resourcetest.BuildWith(t, "exec", tt.exec, tt.props, t.TempDir(), resourcetest.Vars{"empty": ""})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(inst.Uses, tt.uses) || len(inst.Owns) != 0 {
				t.Errorf("uses %v owns %v, want uses %v", inst.Uses, inst.Owns, tt.uses)
			}
		})
	}
}
