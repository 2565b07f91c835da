package safepath

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// stage makes a stage in dir holding files (relative path → content).
func stage(t *testing.T, d *Dir, files map[string]string) *Stage {
	t.Helper()
	s, err := d.MkdirStage()
	if err != nil {
		t.Fatal(err)
	}
	for rel, content := range files {
		path := filepath.Join(s.Path(), rel)
		mkdir(t, filepath.Dir(path))
		resourcetest.WriteFile(t, path, content, 0o644)
	}
	return s
}

func TestStageMovesInWithoutFollowingLinks(t *testing.T) {
	needRoot(t)
	bothWays(t, func(t *testing.T) {
		dir := tree(t)
		victim := filepath.Join(dir, "real")
		into := filepath.Join(dir, "into")
		mkdir(t, filepath.Join(into, "merged"))
		resourcetest.WriteFile(t, filepath.Join(into, "merged", "kept"), "kept", 0o644)
		resourcetest.WriteFile(t, filepath.Join(into, "replaced"), "old", 0o644)
		symlink(t, victim, filepath.Join(into, "link"), nobody)
		d := openDir(t, into)
		s := stage(t, d, map[string]string{"merged/new": "new", "replaced": "new", "link/file": "new", "fresh/a/b": "new"})
		if err := s.MoveIn(); err != nil {
			t.Fatal(err)
		}
		if err := s.Remove(); err != nil {
			t.Fatal(err)
		}
		for rel, want := range map[string]string{"merged/kept": "kept", "merged/new": "new", "replaced": "new", "link/file": "new", "fresh/a/b": "new", "../real/file": "secret"} {
			if got := resourcetest.ReadFile(t, filepath.Join(into, rel)); got != want {
				t.Errorf("%s holds %q, want %q", rel, got, want)
			}
		}
		if st := stat(t, d, "link"); !isDir(&st) {
			t.Error("the link was not replaced by the directory")
		}
		if names := list(t, victim); !slices.Equal(names, []string{"file"}) {
			t.Errorf("the link's target now holds %v", names)
		}
		if names := list(t, into); !slices.Equal(names, []string{"fresh", "link", "merged", "replaced"}) {
			t.Errorf("left %v", names)
		}
	})
}

func TestStageRefusesADirectoryInTheWayOfAFile(t *testing.T) {
	dir := t.TempDir()
	mkdir(t, filepath.Join(dir, "name"))
	d := openDir(t, dir)
	s := stage(t, d, map[string]string{"name": "a file"})
	t.Cleanup(func() { s.Remove() })
	wantErr(t, s.MoveIn(), errDirInTheWay)
}

func TestStaleStagesAreRemoved(t *testing.T) {
	needRoot(t)
	dir := t.TempDir()
	d := openDir(t, dir)
	live := stage(t, d, map[string]string{"busy": "x"})
	t.Cleanup(func() { live.Remove() })
	stale := filepath.Join(dir, stagePrefix+"1")
	mkdir(t, filepath.Join(stale, "sub"))
	resourcetest.WriteFile(t, filepath.Join(stale, "sub", "f"), "a killed run's", 0o644)
	hers := filepath.Join(dir, stagePrefix+"2")
	mkdir(t, hers)
	if err := os.Chown(hers, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	s := stage(t, d, nil)
	if err := s.Remove(); err != nil {
		t.Fatal(err)
	}
	names := list(t, dir)
	if len(names) != 2 || !slices.Contains(names, filepath.Base(live.Path())) || !slices.Contains(names, filepath.Base(hers)) {
		t.Errorf("left %v, want the live stage and the one root does not own", names)
	}
	for _, n := range names {
		if !strings.HasPrefix(n, stagePrefix) {
			t.Errorf("unexpected %s", n)
		}
	}
}

// TestStageReplacedWhileMadeIsRefused: a stage name swapped, between
// its mkdir and its open, for a directory that is not an empty one only
// ccm's user can write is refused; so is one swapped for a link.
func TestStageReplacedWhileMadeIsRefused(t *testing.T) {
	needRoot(t)
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
		want  error
	}{
		{"another user's", func(t *testing.T, path string) {
			mkdir(t, path)
			chmod(t, path, 0o700)
			if err := os.Chown(path, nobody, nobody); err != nil {
				t.Fatal(err)
			}
		}, errReplaced},
		{"open to others", func(t *testing.T, path string) { mkdir(t, path); chmod(t, path, 0o755) }, errReplaced},
		{"holding a file", func(t *testing.T, path string) {
			mkdir(t, path)
			chmod(t, path, 0o700)
			resourcetest.WriteFile(t, filepath.Join(path, "planted"), "x", 0o644)
		}, errReplaced},
		{"a link to an empty private directory", func(t *testing.T, path string) {
			mkdir(t, path+".real")
			chmod(t, path+".real", 0o700)
			symlink(t, path+".real", path, 0)
		}, unix.ENOTDIR},
		{"an empty private directory", func(t *testing.T, path string) { mkdir(t, path); chmod(t, path, 0o700) }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			d := openDir(t, dir)
			name := stagePrefix + "7"
			tt.setup(t, filepath.Join(dir, name))
			s, err := d.openStage(name)
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Remove(); err != nil || resourcetest.Exists(filepath.Join(dir, name)) {
					t.Fatalf("removing the stage: %v", err)
				}
				return
			}
			wantErr(t, err, tt.want)
			if !resourcetest.Exists(filepath.Join(dir, name)) {
				t.Fatal("the refused directory was removed")
			}
		})
	}
}

// TestStageRemoveAfterItsNameWasTaken: Remove empties the stage through
// its descriptor; a directory someone put at its name since stays.
func TestStageRemoveAfterItsNameWasTaken(t *testing.T) {
	dir := t.TempDir()
	d := openDir(t, dir)
	s := stage(t, d, map[string]string{"a/b": "x", "c": "y"})
	name := filepath.Base(s.Path())
	if err := os.Rename(s.Path(), filepath.Join(dir, "moved")); err != nil {
		t.Fatal(err)
	}
	mkdir(t, filepath.Join(dir, name, "theirs"))
	if err := s.Remove(); err != nil {
		t.Fatal(err)
	}
	if got := list(t, filepath.Join(dir, "moved")); len(got) != 0 {
		t.Errorf("the stage still holds %v", got)
	}
	if got := list(t, filepath.Join(dir, name)); !slices.Equal(got, []string{"theirs"}) {
		t.Errorf("the directory at the stage's name holds %v", got)
	}
}

// TestStageMovesADirectoryOverAFile: a directory of the stage replaces
// a file of that name; a file in a stage directory merges beside what a
// directory of the Dir holds.
func TestStageMovesADirectoryOverAFile(t *testing.T) {
	dir := t.TempDir()
	resourcetest.WriteFile(t, filepath.Join(dir, "was-file"), "old", 0o644)
	d := openDir(t, dir)
	s := stage(t, d, map[string]string{"was-file/inner": "new"})
	t.Cleanup(func() { s.Remove() })
	if err := s.MoveIn(); err != nil {
		t.Fatal(err)
	}
	if got := resourcetest.ReadFile(t, filepath.Join(dir, "was-file", "inner")); got != "new" {
		t.Fatalf("inner holds %q", got)
	}
	if got := list(t, s.Path()); len(got) != 0 {
		t.Errorf("the stage still holds %v after MoveIn", got)
	}
}
