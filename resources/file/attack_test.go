package file_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestMain(m *testing.M) { os.Exit(resourcetest.Main(m)) }

// raceFor is how long each race runs.
const raceFor = 3 * time.Second

// victim makes a root-only directory holding a root-only secret, which no
// attack may change, and returns the directory.
func victim(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "victim")
	mustMkdir(t, dir, 0o700)
	resourcetest.WriteFile(t, filepath.Join(dir, "secret"), "root's secret\n", 0o600)
	return dir
}

// untouched fails the test unless the victim directory holds only its
// secret, as it was.
func untouched(t *testing.T, dir string) {
	t.Helper()
	if names := entries(t, dir); len(names) != 1 || names[0] != "secret" {
		t.Fatalf("the victim directory now holds %v", names)
	}
	st := stat(t, filepath.Join(dir, "secret"))
	if st.Uid != 0 || st.Mode&0o7777 != 0o600 || resourcetest.ReadFile(t, filepath.Join(dir, "secret")) != "root's secret\n" {
		t.Fatalf("the secret changed: uid %d mode %o", st.Uid, st.Mode&0o7777)
	}
}

func TestAttackSymlinkedParent(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	v := victim(t)
	resourcetest.AsNobody(t, "symlink", v, filepath.Join(home, "app"))
	r := build(t, filepath.Join(home, "app", "secret"), "ensure: present\nowner: nobody\ngroup: nogroup\nmode: \"0644\"\ncontent: user's\n")
	_, err := resources.Converge(t.Context(), r, false, false)
	want := "refusing to follow symlink " + filepath.Join(home, "app") + " -> " + v
	if !errors.Is(err, safepath.ErrSymlink) || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
	untouched(t, v)
}

func TestAttackFollowSymlinksAllowsTheLink(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	real := filepath.Join(home, "real")
	resourcetest.AsNobody(t, "mkdir", real)
	resourcetest.AsNobody(t, "symlink", real, filepath.Join(home, "app"))
	r := build(t, filepath.Join(home, "app", "config"), "ensure: present\nowner: nobody\ngroup: nogroup\nmode: \"0644\"\ncontent: x\nfollow_symlinks: ["+filepath.Join(home, "app")+"]\n")
	resourcetest.Converge(t.Context(), t, r, false, false)
	if got := resourcetest.ReadFile(t, filepath.Join(real, "config")); got != "x" {
		t.Fatalf("content %q", got)
	}
}

func TestAttackParentSwappedDuringWrites(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	v := victim(t)
	app := filepath.Join(home, "app")
	resourcetest.AsNobody(t, "mkdir", app)
	resourcetest.AsNobody(t, "symlink", v, filepath.Join(home, "swap"))
	// Two resources for the same path with different content: every
	// converge writes.
	rs := []resources.Resource{
		build(t, filepath.Join(app, "secret"), "ensure: present\nowner: nobody\ngroup: nogroup\nmode: \"0644\"\ncontent: one\n"),
		build(t, filepath.Join(app, "secret"), "ensure: present\nowner: nobody\ngroup: nogroup\nmode: \"0644\"\ncontent: two\n"),
	}
	stop := resourcetest.Race(t, "exchange", app, filepath.Join(home, "swap"))
	writes, refusals := 0, 0
	for deadline := time.Now().Add(raceFor); time.Now().Before(deadline); {
		_, err := resources.Converge(t.Context(), rs[writes%2], false, false)
		switch {
		case err == nil:
			writes++
		case errors.Is(err, safepath.ErrSymlink), errors.Is(err, resources.ErrDesiredStateFailed):
			refusals++
		default:
			t.Fatalf("unexpected error: %v", err)
		}
	}
	swaps := stop()
	t.Logf("%d swaps, %d writes, %d refusals", swaps, writes, refusals)
	untouched(t, v)
}

// TestAttackCheckSwappedParent swaps the parent of a checked file with a
// link to root's directory: a check that followed it would report root's
// secret as the wanted content (the quick look) or show it in a diff.
func TestAttackCheckSwappedParent(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	v := victim(t)
	app := filepath.Join(home, "app")
	resourcetest.AsNobody(t, "mkdir", app)
	resourcetest.AsNobody(t, "write", filepath.Join(app, "secret"), "user's\n")
	resourcetest.AsNobody(t, "symlink", v, filepath.Join(home, "swap"))
	same := build(t, filepath.Join(app, "secret"), "ensure: present\nowner: root\ngroup: root\nmode: \"0600\"\ncontent: \"root's secret\\n\"\n")
	other := build(t, filepath.Join(app, "secret"), "ensure: present\nowner: root\ngroup: root\nmode: \"0600\"\ncontent: x\n")
	stop := resourcetest.Race(t, "exchange", app, filepath.Join(home, "swap"))
	checks, refusals := 0, 0
	for deadline := time.Now().Add(raceFor); time.Now().Before(deadline); checks++ {
		for _, r := range []resources.Resource{same, other} {
			st, err := r.Check(t.Context())
			switch {
			case errors.Is(err, safepath.ErrSymlink):
				refusals++
			case err != nil:
				t.Fatalf("unexpected error: %v", err)
			case st.Desired:
				t.Fatal("the check looked through the link: root's secret is the wanted content")
			case r == other && strings.Contains(fmt.Sprint(st.Differences), "root's secret"):
				t.Fatalf("the check read root's secret: %+v", st.Differences)
			}
		}
	}
	swaps := stop()
	t.Logf("%d swaps, %d checks, %d refusals", swaps, checks, refusals)
	untouched(t, v)
}

func TestAttackChmodRace(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	v := victim(t)
	config := filepath.Join(home, "config")
	resourcetest.AsNobody(t, "write", config, "user's\n")
	resourcetest.AsNobody(t, "symlink", filepath.Join(v, "secret"), filepath.Join(home, "swap"))
	// Only the attributes are managed, so a drifted mode is fixed in
	// place: the moment a link renamed over the file could redirect it.
	r := build(t, config, "ensure: present\nowner: nobody\ngroup: nogroup\nmode: \"0644\"\n")
	stop := resourcetest.Race(t, "exchange", config, filepath.Join(home, "swap"))
	repairs := 0
	for deadline := time.Now().Add(raceFor); time.Now().Before(deadline); {
		for _, p := range []string{config, filepath.Join(home, "swap")} {
			chmodNoFollow(p, 0o600) // the drift, on whichever name holds the file
		}
		if out, err := resources.Converge(t.Context(), r, false, false); err == nil && out.Change.Changed {
			repairs++
		}
	}
	swaps := stop()
	t.Logf("%d swaps, %d repairs", swaps, repairs)
	untouched(t, v)
}

func TestAttackAbsentForceThroughLink(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	v := victim(t)
	resourcetest.AsNobody(t, "symlink", v, filepath.Join(home, "app"))
	resourcetest.AsNobody(t, "symlink", v, filepath.Join(home, "data"))
	through := build(t, filepath.Join(home, "app", "secret"), "ensure: absent\nforce: true\n")
	if _, err := resources.Converge(t.Context(), through, false, false); !errors.Is(err, safepath.ErrSymlink) {
		t.Fatalf("error %v, want a refusal", err)
	}
	// A link at the path itself is removed as a link.
	at := build(t, filepath.Join(home, "data"), "ensure: absent\nforce: true\n")
	resourcetest.Converge(t.Context(), t, at, false, false)
	if resourcetest.Exists(filepath.Join(home, "data")) {
		t.Fatal("the link stayed")
	}
	untouched(t, v)
}

// chmodNoFollow sets the mode of path unless it is a symlink: the test
// itself must not be the one following the attacker's link.
func chmodNoFollow(path string, mode os.FileMode) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	defer f.Close()
	_ = f.Chmod(mode)
}
