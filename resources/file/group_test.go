package file_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/commit"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"golang.org/x/sys/unix"
)

// fsImmutable is FS_IMMUTABLE_FL (linux/fs.h): nothing, root included,
// may add a name to a directory that has it.
const fsImmutable = 0x10

// immutable makes dir immutable until the test ends, or skips the test
// where the filesystem cannot.
func immutable(t *testing.T, dir string) {
	t.Helper()
	set := func(on bool) error {
		fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		flags, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
		if err != nil {
			return err
		}
		if on {
			flags |= fsImmutable
		} else {
			flags &^= fsImmutable
		}
		return unix.IoctlSetPointerInt(fd, unix.FS_IOC_SETFLAGS, int(flags))
	}
	if err := set(true); err != nil {
		t.Skipf("cannot make %s immutable here: %v", dir, err)
	}
	t.Cleanup(func() {
		if err := set(false); err != nil {
			t.Error(err)
		}
	})
}

// converge runs r in ctx, then leaves g.
func converge(ctx context.Context, r resources.Resource, g *commit.Group) error {
	defer g.Leave()
	_, err := resources.Converge(ctx, r, false, false)
	return err
}

// tempName is the random part of a temporary file's name.
var tempName = regexp.MustCompile(`ccm-[0-9]+`)

func TestGroupCommitRenamesOnlyWhatOneSyncMadeDurable(t *testing.T) {
	const n = 5
	dir := t.TempDir()
	target := func(i int) string { return filepath.Join(dir, fmt.Sprintf("f%d", i)) }
	var rs []resources.Resource
	for i := range n {
		resourcetest.WriteFile(t, target(i), "old\n", 0o644)
		rs = append(rs, build(t, target(i), fmt.Sprintf("ensure: present\nowner: root\ngroup: root\nmode: \"0644\"\ncontent: new %d\n", i)))
	}
	// The last member's directory takes no new name: its temporary file
	// cannot be made. Alone, it fails so; in the group, it must fail the
	// same way and hold no one back.
	locked := filepath.Join(dir, "locked")
	mustMkdir(t, locked, 0o755)
	resourcetest.WriteFile(t, filepath.Join(locked, "f"), "old\n", 0o644)
	immutable(t, locked)
	failing := build(t, filepath.Join(locked, "f"), "ensure: present\nowner: root\ngroup: root\nmode: \"0644\"\ncontent: new\n")
	_, alone := resources.Converge(t.Context(), failing, false, false)
	if alone == nil {
		t.Fatal("writing into an immutable directory succeeded")
	}

	var syncs []int
	g := commit.NewGroup(n+1, n+1, func(files int) {
		syncs = append(syncs, files)
		// A crash now, the temporaries durable and nothing renamed, must
		// leave every target whole: as it was.
		for i := range n {
			if got := resourcetest.ReadFile(t, target(i)); got != "old\n" {
				t.Errorf("%s holds %q before the group's sync ended", target(i), got)
			}
		}
		if temps := temporaries(t, dir); len(temps) != n {
			t.Errorf("temporaries at the sync: %v, want %d", temps, n)
		}
	})
	ctx := commit.WithGroup(t.Context(), g, nil)
	errs := make([]error, n+1)
	var wg sync.WaitGroup
	for i, r := range append(rs, failing) {
		wg.Go(func() { errs[i] = converge(ctx, r, g) })
	}
	wg.Wait()

	if len(syncs) != 1 || syncs[0] != n {
		t.Fatalf("group syncs covered %v files, want one sync of %d", syncs, n)
	}
	for i := range n {
		if errs[i] != nil {
			t.Errorf("%s: %v", target(i), errs[i])
		}
		if got, want := resourcetest.ReadFile(t, target(i)), fmt.Sprintf("new %d", i); got != want {
			t.Errorf("%s holds %q, want %q", target(i), got, want)
		}
	}
	if got, want := tempName.ReplaceAllString(fmt.Sprint(errs[n]), "ccm-N"), tempName.ReplaceAllString(alone.Error(), "ccm-N"); got != want {
		t.Errorf("in a group the failing file's error is\n%s\nalone it is\n%s", got, want)
	}
	if got := resourcetest.ReadFile(t, filepath.Join(locked, "f")); got != "old\n" {
		t.Errorf("the failing file now holds %q", got)
	}
	if temps := temporaries(t, dir); len(temps) != 0 {
		t.Errorf("temporaries left: %v", temps)
	}
}

// temporaries lists the temporary files in dir.
func temporaries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, name := range entries(t, dir) {
		if strings.Contains(name, ".ccm-") {
			out = append(out, name)
		}
	}
	return out
}
