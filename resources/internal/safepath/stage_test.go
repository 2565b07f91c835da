package safepath

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
