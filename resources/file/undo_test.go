package file_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/file"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestSaveAndRestore: what Save keeps before a change, Restore puts back,
// content and attributes, and then finds nothing more to do.
func TestSaveAndRestore(t *testing.T) {
	const attrs = "owner: root\ngroup: root\n"
	tests := []struct {
		name   string
		before func(t *testing.T, path string)
		props  string
		same   func(path string) bool
	}{
		{"content and mode of a file", func(t *testing.T, path string) {
			resourcetest.WriteFile(t, path, "port = 80\n", 0o640)
		}, "ensure: present\ncontent: \"port = 81\\n\"\nmode: \"0644\"\n" + attrs, func(path string) bool {
			fi, err := os.Stat(path)
			return resourcetest.FileIs(path, "port = 80\n") && err == nil && fi.Mode().Perm() == 0o640
		}},
		{"a file that was not there", func(*testing.T, string) {},
			"ensure: present\ncontent: new\nmode: \"0644\"\n" + attrs, func(path string) bool { return !resourcetest.Exists(path) }},
		{"a directory's mode", func(t *testing.T, path string) {
			mustMkdir(t, path, 0o700)
		}, "ensure: directory\nmode: \"0755\"\n" + attrs, func(path string) bool {
			fi, err := os.Stat(path)
			return err == nil && fi.IsDir() && fi.Mode().Perm() == 0o700
		}},
		{"a file where a directory was made", func(t *testing.T, path string) {
			resourcetest.WriteFile(t, path, "was a file", 0o600)
		}, "ensure: directory\nmode: \"0755\"\n" + attrs, func(path string) bool { return resourcetest.FileIs(path, "was a file") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "app.conf")
			tt.before(t, path)
			r := build(t, path, tt.props)
			u := r.(resources.Undoable)
			kept, err := u.Save(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			resourcetest.Converge(t.Context(), t, r, false, false)
			if tt.same(path) {
				t.Fatal("the change changed nothing")
			}
			if changed, err := u.Restore(t.Context(), kept); err != nil || !changed {
				t.Fatalf("restore: changed %v, %v", changed, err)
			}
			if !tt.same(path) {
				t.Fatal("restore did not put the path back")
			}
			if changed, err := u.Restore(t.Context(), kept); err != nil || changed {
				t.Fatalf("restore again: changed %v, %v; want nothing to do", changed, err)
			}
		})
	}
}

func TestSymlinkCannotBeKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "app.conf")
	if err := os.Symlink("/etc/hostname", path); err != nil {
		t.Fatal(err)
	}
	u := build(t, path, "ensure: present\ncontent: x\nowner: root\ngroup: root\nmode: \"0644\"\n").(resources.Undoable)
	if _, err := u.Save(t.Context()); !errors.Is(err, file.ErrNotUndoable) {
		t.Fatalf("save: %v, want ErrNotUndoable", err)
	}
}
