package file_test

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestNoopChangesNothing: noop reports what it would do, with the exact
// messages, and leaves the directory exactly as it was.
func TestNoopChangesNothing(t *testing.T) {
	const dirProps = "ensure: directory\nowner: root\ngroup: root\nmode: \"0755\"\n"
	tests := []struct {
		name, props string
		setup       func(t *testing.T, path string)
		msg         string
	}{
		{"create a file", helloProps, nil, "Would have created the file"},
		{"rewrite content", helloProps, aFile("bye", 0o644), "Would have created the file"},
		{"create a directory", dirProps, nil, "Would have created directory"},
		{"remove a file", "ensure: absent\n", aFile("x", 0o644), "Would have removed the file"},
		{"remove a directory with its content", "ensure: absent\nforce: true\n", aTree, "Would have recursively removed the directory"},
		{"remove a directory", "ensure: absent\n", aDir(0o755), "Would have removed the directory"},
		{"create an empty file with attributes", "ensure: present\nowner: root\ngroup: root\nmode: \"0644\"\n", nil,
			"Would have created an empty file with requested attributes"},
		{"fix a mode", helloProps, aFile("hello", 0o600), "Would have changed mode"},
		{"fix a directory's mode", dirProps, aDir(0o700), "Would have changed mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "managed")
			if tt.setup != nil {
				tt.setup(t, path)
			}
			before := snapshot(t, dir)
			out, err := resources.Converge(t.Context(), build(t, path, tt.props), false, true)
			if err != nil {
				t.Fatal(err)
			}
			if !out.Change.Changed || out.Change.NoopMessage != tt.msg {
				t.Errorf("change %+v, want changed with %q", out.Change, tt.msg)
			}
			if after := snapshot(t, dir); !slices.Equal(before, after) {
				t.Errorf("noop changed the host:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

func TestNoopMessageNamesEveryDriftedAttribute(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	resourcetest.WriteFile(t, path, "x", 0o600)
	r := build(t, path, "ensure: present\nowner: 1000\ngroup: 1000\nmode: \"0644\"\n")
	out, err := resources.Converge(t.Context(), r, false, true)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Would have changed owner, group and mode"; out.Change.NoopMessage != want {
		t.Errorf("message %q, want %q", out.Change.NoopMessage, want)
	}
}

// snapshot describes every entry under dir: name, inode, mode, owner,
// size and modification time.
func snapshot(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st := stat(t, p)
		out = append(out, fmt.Sprintf("%s ino=%d mode=%o owner=%d:%d size=%d mtime=%v", p, st.Ino, st.Mode, st.Uid, st.Gid, st.Size, st.Mtim))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
