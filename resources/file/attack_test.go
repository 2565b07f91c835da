package file_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestMain(m *testing.M) { os.Exit(resourcetest.Main(m)) }

func TestAttackSymlinkedParent(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	v := resourcetest.Victim(t)
	resourcetest.AsNobody(t, "symlink", v, filepath.Join(home, "app"))
	r := build(t, filepath.Join(home, "app", "secret"), "ensure: present\nowner: nobody\ngroup: nogroup\nmode: \"0644\"\ncontent: user's\n")
	_, err := resources.Converge(t.Context(), r, false, false)
	want := "refusing to follow symlink " + filepath.Join(home, "app") + " -> " + v
	if !errors.Is(err, safepath.ErrSymlink) || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
	resourcetest.Untouched(t, v)
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
	v := resourcetest.Victim(t)
	app := filepath.Join(home, "app")
	resourcetest.AsNobody(t, "mkdir", app)
	resourcetest.AsNobody(t, "symlink", v, filepath.Join(home, "swap"))
	// Two resources for the same path with different content: every
	// converge writes.
	rs := []resources.Resource{
		build(t, filepath.Join(app, "secret"), "ensure: present\nowner: nobody\ngroup: nogroup\nmode: \"0644\"\ncontent: one\n"),
		build(t, filepath.Join(app, "secret"), "ensure: present\nowner: nobody\ngroup: nogroup\nmode: \"0644\"\ncontent: two\n"),
	}
	writes, refusals := 0, 0
	swaps := resourcetest.Racing(t, func() {
		_, err := resources.Converge(t.Context(), rs[writes%2], false, false)
		switch {
		case err == nil:
			writes++
		case errors.Is(err, safepath.ErrSymlink), errors.Is(err, resources.ErrDesiredStateFailed):
			refusals++
		default:
			t.Fatalf("unexpected error: %v", err)
		}
	}, "exchange", app, filepath.Join(home, "swap"))
	t.Logf("%d swaps, %d writes, %d refusals", swaps, writes, refusals)
	resourcetest.Untouched(t, v)
}

// TestAttackCheckSwappedParent swaps the parent of a checked file with a
// link to root's directory: a check that followed it would report root's
// secret as the wanted content (the quick look) or show it in a diff.
func TestAttackCheckSwappedParent(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	v := resourcetest.Victim(t)
	app := filepath.Join(home, "app")
	resourcetest.AsNobody(t, "mkdir", app)
	resourcetest.AsNobody(t, "write", filepath.Join(app, "secret"), "user's\n")
	resourcetest.AsNobody(t, "symlink", v, filepath.Join(home, "swap"))
	same := build(t, filepath.Join(app, "secret"), "ensure: present\nowner: root\ngroup: root\nmode: \"0600\"\ncontent: \"root's secret\\n\"\n")
	other := build(t, filepath.Join(app, "secret"), "ensure: present\nowner: root\ngroup: root\nmode: \"0600\"\ncontent: x\n")
	checks, refusals := 0, 0
	swaps := resourcetest.Racing(t, func() {
		checks++
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
	}, "exchange", app, filepath.Join(home, "swap"))
	t.Logf("%d swaps, %d checks, %d refusals", swaps, checks, refusals)
	resourcetest.Untouched(t, v)
}

func TestAttackChmodRace(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	v := resourcetest.Victim(t)
	config := filepath.Join(home, "config")
	resourcetest.AsNobody(t, "write", config, "user's\n")
	resourcetest.AsNobody(t, "symlink", filepath.Join(v, "secret"), filepath.Join(home, "swap"))
	// Only the attributes are managed, so a drifted mode is fixed in
	// place: the moment a link renamed over the file could redirect it.
	r := build(t, config, "ensure: present\nowner: nobody\ngroup: nogroup\nmode: \"0644\"\n")
	repairs := 0
	swaps := resourcetest.Racing(t, func() {
		for _, p := range []string{config, filepath.Join(home, "swap")} {
			chmodNoFollow(p, 0o600) // the drift, on whichever name holds the file
		}
		if out, err := resources.Converge(t.Context(), r, false, false); err == nil && out.Change.Changed {
			repairs++
		}
	}, "exchange", config, filepath.Join(home, "swap"))
	t.Logf("%d swaps, %d repairs", swaps, repairs)
	resourcetest.Untouched(t, v)
}

func TestAttackAbsentForceThroughLink(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	v := resourcetest.Victim(t)
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
	resourcetest.Untouched(t, v)
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
