package file_test

import (
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/template"
)

const attrs = "ensure: present\nowner: root\ngroup: root\nmode: \"0644\"\n"

// buildTemplated builds a file resource with the real templates, as a
// manifest in dir would.
func buildTemplated(t *testing.T, path, props, dir string) resources.Instance {
	t.Helper()
	inst, err := resourcetest.BuildWith(t, "file", path, props, dir, template.New(template.Env{Dir: dir}))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

func TestContentRenderingDifferentlyEachTimeConverges(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "motd")
	props := attrs + "content: \"Managed by CCM {{ now() }}\"\n"
	r := buildTemplated(t, path, props, dir).Resource

	if out := resourcetest.Converge(t.Context(), t, r, false, false); !out.Change.Changed {
		t.Fatalf("first run: %+v", out)
	}
	written := resourcetest.ReadFile(t, path)
	if out := resourcetest.Converge(t.Context(), t, r, false, false); out.Applied {
		t.Fatalf("a file holding what was written must be left alone until it drifts: %+v", out)
	}

	resourcetest.WriteFile(t, path, "drifted\n", 0o644)
	if out := resourcetest.Converge(t.Context(), t, r, false, false); !out.Change.Changed {
		t.Fatalf("drift: %+v", out)
	}
	if got := resourcetest.ReadFile(t, path); got == "drifted\n" || got == written {
		t.Fatalf("after drift the file holds %q; want a new rendering", got)
	}

	again := buildTemplated(t, path, props, dir).Resource
	if out := resourcetest.Converge(t.Context(), t, again, false, false); !out.Change.Changed {
		t.Fatalf("the next run renders again, as upstream: %+v", out)
	}
}

func TestContentReadingFilesIsRenderedForEveryCheck(t *testing.T) {
	dir := t.TempDir()
	path, input := filepath.Join(dir, "out"), filepath.Join(dir, "in")
	resourcetest.WriteFile(t, input, "one", 0o644)
	r := buildTemplated(t, path, attrs+"content: \"${ file('in') } {{ now() }}\"\n", dir).Resource

	resourcetest.Converge(t.Context(), t, r, false, false)
	resourcetest.WriteFile(t, input, "two", 0o644)
	if out := resourcetest.Converge(t.Context(), t, r, false, false); !out.Change.Changed {
		t.Fatalf("content reading a changed file must be written again: %+v", out)
	}
}

func TestIndependentUnlessTemplatesReadFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	tests := []struct {
		name, props string
		want        bool
	}{
		{"plain content", attrs + "content: hello\n", true},
		{"templated content", attrs + "content: \"{{ now() }}\"\n", true},
		{"content reading a file", attrs + "content: \"${ file('/etc/hostname') }\"\n", false},
		{"source", attrs + "source: in.txt\n", true},
		{"source named by a file read", attrs + "source: \"${ readFile('name') }\"\n", false},
		{"directory", "ensure: directory\nowner: root\ngroup: root\nmode: \"0755\"\n", true},
		{"absent", "ensure: absent\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := buildTemplated(t, path, tt.props, dir).Independent; got != tt.want {
				t.Fatalf("Independent = %v, want %v", got, tt.want)
			}
		})
	}
}
