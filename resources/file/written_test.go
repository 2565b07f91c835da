package file

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

const writtenProps = "ensure: present\nowner: root\ngroup: root\nmode: \"0644\"\ncontent: \"content of file 1\\n\"\n"

// built builds the file resource at path from props.
func built(t *testing.T, path, props string) *file {
	t.Helper()
	return resourcetest.MustBuild(t, "file", path, props, filepath.Dir(path)).Resource.(*file)
}

// TestCheckAfterWriteReadsNothing: the check after a write finds the
// file written by its stamp, without opening it for reading.
func TestCheckAfterWriteReadsNothing(t *testing.T) {
	f := built(t, filepath.Join(t.TempDir(), "f"), writtenProps)
	if _, err := f.Apply(t.Context(), resources.Request{}); err != nil {
		t.Fatal(err)
	}
	if !f.mine.ok {
		t.Skip("this filesystem or kernel gives no fine timestamps: the check reads")
	}
	v, err := f.compared(t.Context(), f.peek)
	if err != nil {
		t.Fatal(err)
	}
	defer v.close()
	if v.file != nil || v.known == nil || !v.d.none() {
		t.Fatalf("the check opened the file (%v) or did not know it (%v), drift %+v", v.file != nil, v.known != nil, v.d)
	}
}

// TestCheckAfterWriteSeesStrikes: another writer striking between the
// rename and the check after the write is seen, whatever it leaves of the
// file's stamp; a file replaced by the same content is read and found
// right.
func TestCheckAfterWriteSeesStrikes(t *testing.T) {
	tests := []struct {
		name   string
		strike func(t *testing.T, path string)
		drift  bool
	}{
		{"nothing", func(*testing.T, string) {}, false},
		{"rewritten in place, same size", func(t *testing.T, path string) { overwrite(t, path, 0, "CONTENT of file 1\n") }, true},
		{"rewritten, modification time put back", func(t *testing.T, path string) {
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			overwrite(t, path, 0, "CONTENT of file 1\n")
			if err := os.Chtimes(path, st.ModTime(), st.ModTime()); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"grown", func(t *testing.T, path string) { overwrite(t, path, os.O_APPEND, "more\n") }, true},
		{"truncated", func(t *testing.T, path string) {
			if err := os.Truncate(path, 4); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"replaced by other content", func(t *testing.T, path string) { replace(t, path, "CONTENT of file 1\n") }, true},
		{"replaced by the same content", func(t *testing.T, path string) { replace(t, path, "content of file 1\n") }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f")
			f := built(t, path, writtenProps)
			armed := false
			_, err := resources.ConvergeCycle(t.Context(), f, resources.Cycle{AfterApply: func() {
				armed = f.mine.ok
				tt.strike(t, path)
			}})
			if tt.drift != errors.Is(err, resources.ErrDesiredStateFailed) || !tt.drift && err != nil {
				t.Fatalf("error %v, want drift %v (the check trusted the stamp: %v)", err, tt.drift, armed)
			}
		})
	}
}

// overwrite writes text into the file at path in place, from the start or
// with flag os.O_APPEND at the end.
func overwrite(t *testing.T, path string, flag int, text string) {
	t.Helper()
	w, err := os.OpenFile(path, os.O_WRONLY|flag, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.WriteString(text)
	if err = errors.Join(err, w.Close()); err != nil {
		t.Fatal(err)
	}
}

// replace puts another file holding text at path, by rename.
func replace(t *testing.T, path, text string) {
	t.Helper()
	resourcetest.WriteFile(t, path+".new", text, 0o644)
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
}
