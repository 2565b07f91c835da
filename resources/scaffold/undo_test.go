package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// snapshot describes everything under dir, dir itself included: each
// entry's kind, mode, owner and content. Nil when dir does not exist.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		st := fi.Sys().(*syscall.Stat_t)
		desc := fmt.Sprintf("%v %d:%d", fi.Mode(), st.Uid, st.Gid)
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += " " + string(b)
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = desc
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// save is Save, failing the test on error.
func save(t *testing.T, s *scaffold) []byte {
	t.Helper()
	kept, err := s.Save(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return kept
}

// restores fails the test unless restoring kept changes something, leaves
// the target as was, and then finds nothing more to do; after says after
// what.
func restores(t *testing.T, s *scaffold, kept []byte, was map[string]string, after string) {
	t.Helper()
	if changed, err := s.Restore(t.Context(), kept); err != nil || !changed {
		t.Fatalf("restore after %s: changed %v, %v", after, changed, err)
	}
	if got := snapshot(t, s.target); !maps.Equal(got, was) {
		t.Fatalf("restored after %s:\n%v\nwant\n%v", after, got, was)
	}
	if changed, err := s.Restore(t.Context(), kept); err != nil || changed {
		t.Fatalf("restore again after %s: changed %v, %v; want nothing to do", after, changed, err)
	}
}

// TestSaveAndRestore: what Save keeps before a change, Restore puts back,
// every file's content, mode and owner, the files and directories the
// change added gone, and then finds nothing more to do.
func TestSaveAndRestore(t *testing.T) {
	v2 := map[string]string{
		"app.conf":         "name = [[ data.name ]] v2\n",
		"conf.d/web.conf":  "host = [[ facts.host ]]\n",
		"new.d/extra.conf": "extra\n",
	}
	tests := []struct {
		name  string
		props string
		// before prepares the target once the first templates converged
		// (nil: the target does not exist).
		before func(t *testing.T, target string)
		next   map[string]string
		// nextProps, when set, replace props for the change.
		nextProps string
	}{
		{"changed, added and purged files", "purge: true", func(t *testing.T, target string) {
			resourcetest.WriteFile(t, filepath.Join(target, "stray.txt"), "kept by hand\n", 0o600)
			if err := os.Chown(filepath.Join(target, "stray.txt"), 65534, 65534); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(filepath.Join(target, "app.conf"), 0o640); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(filepath.Join(target, "app.conf"), 65534, 0); err != nil {
				t.Fatal(err)
			}
		}, v2, ""},
		{"a target that was not there", "", nil, v2, ""},
		{"ensure: absent", "", func(*testing.T, string) {}, appTemplates, "ensure: absent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLayout(t, appTemplates)
			if tt.before != nil {
				resourcetest.Converge(t.Context(), t, l.build(t, tt.props), false, false)
				tt.before(t, l.target)
			}
			was := snapshot(t, l.target)
			resourcetest.WriteTree(t, l.source, tt.next)
			props := tt.props
			if tt.nextProps != "" {
				props = tt.nextProps
			}
			s := l.build(t, props)
			kept := save(t, s)
			if out := resourcetest.Converge(t.Context(), t, s, false, false); !out.Change.Changed {
				t.Fatalf("the change changed nothing: %+v", out)
			}
			restores(t, s, kept, was, "the change")
		})
	}
}

func TestAStraySymlinkCannotBeKept(t *testing.T) {
	l := newLayout(t, appTemplates)
	s := l.build(t, "purge: true")
	resourcetest.Converge(t.Context(), t, s, false, false)
	if err := os.Symlink("/etc/hostname", filepath.Join(l.target, "stray")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(t.Context()); !errors.Is(err, ErrNotUndoable) {
		t.Fatalf("save: %v, want ErrNotUndoable", err)
	}
}

// TestRestoreRepairsDriftTowardsTheKeptState: while a rollback holds a
// scaffold, Restore is its repair: a deleted or edited file comes back as
// kept, and with purge a new stray goes.
func TestRestoreRepairsDriftTowardsTheKeptState(t *testing.T) {
	l := newLayout(t, appTemplates)
	resourcetest.Converge(t.Context(), t, l.build(t, "purge: true"), false, false)
	was := snapshot(t, l.target)
	resourcetest.WriteTree(t, l.source, map[string]string{"app.conf": "name = [[ data.name ]] v2\n"})
	s := l.build(t, "purge: true")
	kept := save(t, s)
	resourcetest.Converge(t.Context(), t, s, false, false)
	if _, err := s.Restore(t.Context(), kept); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(l.target, "conf.d/web.conf")); err != nil {
		t.Fatal(err)
	}
	resourcetest.WriteFile(t, filepath.Join(l.target, "app.conf"), "edited\n", 0o644)
	resourcetest.WriteFile(t, filepath.Join(l.target, "conf.d/stray"), "stray\n", 0o644)
	restores(t, s, kept, was, "drift")
}

// TestRestoreUndoesARemoval: what Save kept before ensure: absent comes
// back, the directories the removal took made again; a file whose owner
// or mode alone changed is put back too.
func TestRestoreUndoesARemoval(t *testing.T) {
	l := newLayout(t, appTemplates)
	resourcetest.Converge(t.Context(), t, l.build(t, ""), false, false)
	was := snapshot(t, l.target)
	absent := l.build(t, "ensure: absent")
	kept := save(t, absent)
	resourcetest.Converge(t.Context(), t, absent, false, false)
	if resourcetest.Exists(filepath.Join(l.target, "conf.d")) {
		t.Fatal("the removal left conf.d")
	}
	restores(t, absent, kept, was, "the removal")
	for _, drift := range []func(string) error{
		func(p string) error { return os.Chown(p, 65534, 0) },
		func(p string) error { return os.Chown(p, 0, 65534) },
		func(p string) error { return os.Chmod(p, 0o600) },
	} {
		if err := drift(filepath.Join(l.target, "app.conf")); err != nil {
			t.Fatal(err)
		}
		restores(t, absent, kept, was, "drift")
	}
}

// TestSaveRefusesTooMuchAndRestoreBadState: a scaffold keeps at most 16
// MiB for a rollback; a kept state that is not JSON is an error naming
// the target.
func TestSaveRefusesTooMuchAndRestoreBadState(t *testing.T) {
	l := newLayout(t, appTemplates)
	s := l.build(t, "purge: true")
	resourcetest.Converge(t.Context(), t, s, false, false)
	big := filepath.Join(l.target, "big.log")
	resourcetest.WriteFile(t, big, "", 0o644)
	if err := os.Truncate(big, 16<<20); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(t.Context()); !errors.Is(err, ErrNotUndoable) || !strings.Contains(err.Error(), "larger than 16 MiB") {
		t.Errorf("save of 16 MiB and more: %v, want ErrNotUndoable", err)
	}
	if err := os.Truncate(big, 16<<20-64); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(t.Context()); err != nil {
		t.Errorf("save within the bound: %v", err)
	}
	if _, err := s.Restore(t.Context(), []byte("{")); err == nil || !strings.Contains(err.Error(), "reading the state kept for "+l.target) {
		t.Errorf("restore of bad state: %v", err)
	}
}
