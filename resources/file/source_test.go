package file_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestSourceIsRelativeToTheManifestDirectory(t *testing.T) {
	manifestDir, target := t.TempDir(), filepath.Join(t.TempDir(), "app.conf")
	if err := os.Mkdir(filepath.Join(manifestDir, "files"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(manifestDir, "files", "app.conf")
	resourcetest.WriteFile(t, src, "v1\n", 0o600)
	inst := resourcetest.MustBuild(t, "file", target, "ensure: present\nsource: files/app.conf\nowner: root\ngroup: root\nmode: \"0644\"\n", manifestDir)
	r := inst.Resource
	if w := r.Watch(); !slices.Equal(w.Paths, []string{target}) || !slices.Equal(w.Inputs, []string{src}) {
		t.Errorf("watching %v and input %v, want the target and, as an input, the source", w.Paths, w.Inputs)
	}
	if !slices.Contains(inst.Uses, src) {
		t.Errorf("uses %v; want the source so the resource managing it runs first", inst.Uses)
	}

	resourcetest.Converge(t.Context(), t, r, false, false)
	isFile("v1\n", 0o644)(t, target)

	resourcetest.WriteFile(t, src, "v2\n", 0o600)
	out := resourcetest.Converge(t.Context(), t, r, false, false)
	if d := out.Before.Differences; len(d) != 1 || d[0].Property != "content" || d[0].Note != "+1 −1 lines" || d[0].Diff == "" {
		t.Errorf("after editing the source: differences %+v, want the content's", d)
	}
	isFile("v2\n", 0o644)(t, target)
}

func TestMissingSourceFails(t *testing.T) {
	manifestDir, target := t.TempDir(), filepath.Join(t.TempDir(), "f")
	resourcetest.WriteFile(t, target, "x", 0o644)
	r := resourcetest.MustBuild(t, "file", target, "ensure: present\nsource: nope\nowner: root\ngroup: root\nmode: \"0644\"\n", manifestDir).Resource
	_, err := r.Check(t.Context())
	want := fmt.Sprintf("source: open %s/nope: no such file or directory", manifestDir)
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestDeferredContent(t *testing.T) {
	dir := t.TempDir()
	tmpl := resourcetest.Vars{"host": "web1", "src": "a.txt"}
	resourcetest.WriteFile(t, filepath.Join(dir, "a.txt"), "from a", 0o644)
	tests := []struct {
		name, props, want string
	}{
		{"content", "ensure: present\ncontent: \"hello {{ host }}\"\nowner: root\ngroup: root\nmode: \"0644\"\n", "hello web1"},
		{"source", "ensure: present\nsource: \"{{ src }}\"\nowner: root\ngroup: root\nmode: \"0644\"\n", "from a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f")
			inst, err := resourcetest.BuildWith(t, "file", path, tt.props, dir, tmpl)
			if err != nil {
				t.Fatal(err)
			}
			resourcetest.Converge(t.Context(), t, inst.Resource, false, false)
			isFile(tt.want, 0o644)(t, path)
		})
	}
}

// TestTemplateErrorsCarryThePropertyPosition: a deferred property that fails
// to resolve, or resolves to something invalid, fails the resource, naming
// where the property is written.
func TestTemplateErrorsCarryThePropertyPosition(t *testing.T) {
	tests := []struct{ name, props, want string }{
		{"content", "ensure: present\nowner: root\ngroup: root\nmode: \"0644\"\ncontent: \"{{ nope }}\"\n",
			`test.yaml:5:10: content: unknown name "nope"`},
		{"source", "ensure: present\nsource: \"{{ nope }}\"\nowner: root\ngroup: root\nmode: \"0644\"\n",
			`test.yaml:2:9: source: unknown name "nope"`},
		{"source resolving to nothing", "ensure: present\nsource: \"{{ empty }}\"\nowner: root\ngroup: root\nmode: \"0644\"\n",
			`test.yaml:2:9: source: resolved to an empty path`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f")
			resourcetest.WriteFile(t, path, "x", 0o644)
			if got := resourcetest.ConvergeError(t, "file", path, tt.props, resourcetest.Vars{"empty": ""}); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestInstance: present and directory own their path, absent owns
// nothing; each uses and watches its path and claims the whole file.
func TestInstance(t *testing.T) {
	resourcetest.Declares(t, "file", "/srv/x", []resourcetest.Declared{
		{Props: helloProps,
			Want: "ensure present independent true owns [/srv/x] uses [/srv/x] claims [{/srv/x true content}] paths [/srv/x] mounts []"},
		{Props: "ensure: directory\nowner: root\ngroup: root\nmode: \"0755\"\n",
			Want: "ensure directory independent true owns [/srv/x] uses [/srv/x] claims [{/srv/x true ensure: directory}] paths [/srv/x] mounts []"},
		{Props: "ensure: absent\n",
			Want: "ensure absent independent true owns [] uses [/srv/x] claims [{/srv/x true ensure: absent}] paths [/srv/x] mounts []"},
	})
}

func TestSourceMustBeARegularFile(t *testing.T) {
	manifestDir, target := t.TempDir(), filepath.Join(t.TempDir(), "f")
	resourcetest.FIFO(t, filepath.Join(manifestDir, "fifo"))
	for _, src := range []string{"/dev/zero", "fifo", manifestDir} {
		r := resourcetest.MustBuild(t, "file", target, "ensure: present\nsource: "+src+"\nowner: root\ngroup: root\nmode: \"0644\"\n", manifestDir).Resource
		if _, err := resources.Converge(t.Context(), r, false, false); !errors.Is(err, safepath.ErrNotRegular) {
			t.Errorf("source %s: error %v, want %v", src, err, safepath.ErrNotRegular)
		}
	}
	if resourcetest.Exists(target) {
		t.Error("the target was written")
	}
}

func TestCheckRemovesLeftovers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	resourcetest.WriteFile(t, path, "x", 0o644)
	resourcetest.WriteFile(t, filepath.Join(dir, ".f.ccm-1234"), "a killed run's", 0o644)
	resourcetest.WriteFile(t, filepath.Join(dir, ".g.ccm-1234"), "another file's", 0o644)
	r := build(t, path, "ensure: present\ncontent: x\nowner: root\ngroup: root\nmode: \"0644\"\n")
	if st, err := r.Check(t.Context()); err != nil || !st.Desired {
		t.Fatalf("%+v %v", st, err)
	}
	if got := entries(t, dir); !slices.Equal(got, []string{".g.ccm-1234", "f"}) {
		t.Errorf("left %v", got)
	}
}
