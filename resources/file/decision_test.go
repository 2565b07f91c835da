package file_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/file"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestDecisionTable walks every row of the spec's decision table, plus the
// cases it leaves out (symlinks, a file where a directory stands).
func TestDecisionTable(t *testing.T) {
	const present = "ensure: present\ncontent: hello\nowner: root\ngroup: root\nmode: \"0644\"\n"
	const directory = "ensure: directory\nowner: root\ngroup: root\nmode: \"0750\"\n"
	tests := []struct {
		name    string
		props   string
		setup   func(t *testing.T, path string)
		before  string // the observed ensure
		changed bool
		verify  func(t *testing.T, path string)
	}{
		{"absent and absent: nothing", "ensure: absent\n", nil, "absent", false, isAbsent},
		{"absent and a file: removed", "ensure: absent\n", aFile("x", 0o644), "present", true, isAbsent},
		{"absent and an empty directory: removed", "ensure: absent\n", aDir(0o755), "directory", true, isAbsent},
		{"absent and a non-empty directory with force: removed", "ensure: absent\nforce: true\n", aTree, "directory", true, isAbsent},
		{"absent and a symlink: only the link removed", "ensure: absent\n", aLink, "symlink", true, func(t *testing.T, path string) {
			isAbsent(t, path)
			if !resourcetest.Exists(path + ".target") {
				t.Error("the link's target was removed")
			}
		}},
		{"directory and a matching directory: nothing", directory, aDir(0o750), "directory", false, isDir(0o750)},
		{"directory and absent: created", directory, nil, "absent", true, isDir(0o750)},
		{"directory and a file: replaced", directory, aFile("x", 0o644), "present", true, isDir(0o750)},
		{"directory and a symlink: replaced", directory, aLink, "symlink", true, isDir(0o750)},
		{"directory with wrong mode: mode fixed", directory, aDir(0o700), "directory", true, isDir(0o750)},
		{"present and matching: nothing", present, aFile("hello", 0o644), "present", false, isFile("hello", 0o644)},
		{"present and absent: stored", present, nil, "absent", true, isFile("hello", 0o644)},
		{"present and wrong content: stored", present, aFile("bye", 0o644), "present", true, isFile("hello", 0o644)},
		{"present and same size, other content: stored", present, aFile("HELLO", 0o644), "present", true, isFile("hello", 0o644)},
		{"present and wrong mode: fixed", present, aFile("hello", 0o600), "present", true, isFile("hello", 0o644)},
		{"present and setuid added: fixed", present, aFile("hello", 0o644|os.ModeSetuid), "present", true, isFile("hello", 0o644)},
		{"present and a symlink: replaced by a file", present, aLink, "symlink", true, func(t *testing.T, path string) {
			isFile("hello", 0o644)(t, path)
			if got := resourcetest.ReadFile(t, path+".target"); got != "target" {
				t.Errorf("the link's target was changed to %q", got)
			}
		}},
		{"present without content and absent: empty file", "ensure: present\nowner: root\ngroup: root\nmode: \"0600\"\n", nil, "absent", true, isFile("", 0o600)},
		{"present without content and a file: content kept", "ensure: present\nowner: root\ngroup: root\nmode: \"0600\"\n", aFile("mine", 0o644), "present", true, isFile("mine", 0o600)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "managed")
			if tt.setup != nil {
				tt.setup(t, path)
			}
			out, err := resources.Converge(t.Context(), build(t, path, tt.props), false, false)
			if err != nil {
				t.Fatalf("converge: %v", err)
			}
			if out.Before.Ensure != tt.before {
				t.Errorf("observed ensure %q, want %q", out.Before.Ensure, tt.before)
			}
			if out.Change.Changed != tt.changed {
				t.Errorf("changed = %v, want %v (before: %+v)", out.Change.Changed, tt.changed, out.Before)
			}
			tt.verify(t, path)
			if names := entries(t, filepath.Dir(path)); slices.ContainsFunc(names, func(n string) bool { return n[0] == '.' }) {
				t.Errorf("temporary files left behind: %v", names)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	tests := []struct {
		name, props string
		setup       func(t *testing.T, path string)
		want        error
		msg         string
		// noopFails is false where noop cannot know the apply would fail.
		noopFails bool
	}{
		{"a file where a directory stands", "ensure: present\ncontent: x\nowner: root\ngroup: root\nmode: \"0644\"\n",
			aTree, file.ErrIsDirectory, "exists as a directory; remove it first or use ensure: directory", true},
		{"absent on a non-empty directory without force", "ensure: absent\n",
			aTree, file.ErrNotEmpty, "is a non-empty directory; set force: true to remove it with its contents", false},
	}
	for _, tt := range tests {
		for _, noop := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s noop=%v", tt.name, noop), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "managed")
				tt.setup(t, path)
				_, err := resources.Converge(t.Context(), build(t, path, tt.props), false, noop)
				if noop && !tt.noopFails {
					if err != nil {
						t.Fatalf("noop: %v", err)
					}
					return
				}
				if !errors.Is(err, tt.want) {
					t.Fatalf("got %v, want %v", err, tt.want)
				}
				if want := path + " " + tt.msg; err.Error() != want {
					t.Errorf("message:\n%s\nwant:\n%s", err, want)
				}
				if !resourcetest.Exists(filepath.Join(path, "child")) {
					t.Error("the directory's content was touched")
				}
			})
		}
	}
}

func TestMissingParentIsAnError(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "missing")
	path := filepath.Join(parent, "file")
	r := build(t, path, "ensure: present\ncontent: x\nowner: root\ngroup: root\nmode: \"0644\"\n")
	_, err := resources.Converge(t.Context(), r, false, false)
	if !errors.Is(err, file.ErrNoParent) {
		t.Fatalf("got %v, want ErrNoParent", err)
	}
	want := "parent directory does not exist: " + parent + "; create it first, for example with a file resource with ensure: directory"
	if err.Error() != want {
		t.Errorf("message:\n%s\nwant:\n%s", err, want)
	}
	if resourcetest.Exists(parent) {
		t.Error("the parent was created")
	}
}

func TestDirectoryCreatesItsParents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "c")
	r := build(t, path, "ensure: directory\nowner: root\ngroup: root\nmode: \"0700\"\n")
	if _, err := resources.Converge(t.Context(), r, false, false); err != nil {
		t.Fatal(err)
	}
	isDir(0o700)(t, path)
	isDir(0o755)(t, filepath.Dir(path))
}

func TestForceRemovesATree(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tree")
	aTree(t, path)
	if err := os.MkdirAll(filepath.Join(path, "deep", "er"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := build(t, path, "ensure: absent\nforce: true\n")
	if _, err := resources.Converge(t.Context(), r, false, false); err != nil {
		t.Fatal(err)
	}
	isAbsent(t, path)
}

func aFile(content string, mode os.FileMode) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		resourcetest.WriteFile(t, path, content, mode)
	}
}

func aDir(mode os.FileMode) func(t *testing.T, path string) {
	return func(t *testing.T, path string) { mustMkdir(t, path, mode) }
}

func aTree(t *testing.T, path string) {
	mustMkdir(t, path, 0o755)
	resourcetest.WriteFile(t, filepath.Join(path, "child"), "c", 0o644)
}

func aLink(t *testing.T, path string) {
	resourcetest.WriteFile(t, path+".target", "target", 0o644)
	if err := os.Symlink(path+".target", path); err != nil {
		t.Fatal(err)
	}
}

func isAbsent(t *testing.T, path string) {
	t.Helper()
	if resourcetest.Exists(path) {
		t.Errorf("%s still exists", path)
	}
}

func isDir(mode uint32) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		t.Helper()
		st := stat(t, path)
		if st.Mode&0o170000 != 0o040000 || st.Mode&0o7777 != mode {
			t.Errorf("%s: mode %o, want directory %04o", path, st.Mode, mode)
		}
	}
}

func isFile(content string, mode uint32) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		t.Helper()
		st := stat(t, path)
		if st.Mode&0o170000 != 0o100000 || st.Mode&0o7777 != mode {
			t.Errorf("%s: mode %o, want regular file %04o", path, st.Mode, mode)
		}
		if got := resourcetest.ReadFile(t, path); got != content {
			t.Errorf("%s: content %q, want %q", path, got, content)
		}
	}
}
