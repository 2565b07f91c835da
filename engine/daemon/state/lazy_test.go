package state_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
)

// openEnv makes a copy of this test binary open the state directory it
// names and say how that went, as another user.
const openEnv = "CCM_STATE_TEST_OPEN"

func TestMain(m *testing.M) {
	if path := os.Getenv(openEnv); path != "" {
		d, err := state.Open(path)
		if err == nil {
			err = errors.Join(errors.New("opened"), d.Close())
		}
		fmt.Print(err)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestAUserWhoCannotMakeItHearsAtOpen: a missing state directory the user
// could not make is refused at open, as before it was made lazily, so a
// user without /var/lib/ccm hears at start that nothing will be kept.
func TestAUserWhoCannotMakeItHearsAtOpen(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to open as another user")
	}
	for _, c := range []struct {
		name  string
		owner int
		want  string
	}{
		{"under root's directory", 0, "creating the state directory %s: %s: permission denied"},
		{"under the user's directory", 65534, "opened"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, d := range []string{filepath.Dir(dir), dir} {
				if err := os.Chmod(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Chown(dir, c.owner, c.owner); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "var", "state")
			cmd := exec.Command("/proc/self/exe")
			cmd.Env = []string{openEnv + "=" + path}
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
			out, err := cmd.CombinedOutput()
			want := c.want
			if strings.Contains(want, "%s") {
				want = fmt.Sprintf(want, path, dir)
			}
			if err != nil || string(out) != want {
				t.Fatalf("Open as uid 65534 = %q, %v; want %q", out, err, want)
			}
		})
	}
}

// TestAMissingDirectoryIsMadeByTheFirstWrite: opening a missing state
// directory, its subdirectories and reading them leave nothing on disk;
// the first write makes the directory and the one subdirectory written,
// 0700, and other Dirs of them see it.
func TestAMissingDirectoryIsMadeByTheFirstWrite(t *testing.T) {
	for name, write := range map[string]func(*state.Dir) error{
		"WriteFile": func(d *state.Dir) error { return d.WriteFile("x", []byte("1")) },
		"WriteJSON": func(d *state.Dir) error { return d.WriteJSON("x", 1) },
		"Create":    func(d *state.Dir) error { return d.Create() },
	} {
		t.Run(name, func(t *testing.T) {
			base := t.TempDir()
			path := filepath.Join(base, "var", "lib", "ccm")
			d := mustOpen(t, state.Open, path)
			refreshes := subOf(t, d, "refreshes")
			rollback := subOf(t, d, "rollback")
			for _, r := range []*state.Dir{d, refreshes} {
				if _, err := r.ReadFile("x"); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("ReadFile in %s = %v; want ErrNotExist", r.Path(), err)
				}
				if found, err := r.ReadJSON("x", new(int)); found || err != nil {
					t.Errorf("ReadJSON in %s = %v, %v; want nothing", r.Path(), found, err)
				}
				if names, err := r.Names(); len(names) != 0 || err != nil {
					t.Errorf("Names in %s = %v, %v; want none", r.Path(), names, err)
				}
				if err := r.Remove("x"); err != nil {
					t.Errorf("Remove in %s = %v; want none", r.Path(), err)
				}
			}
			if entries, _ := os.ReadDir(base); len(entries) != 0 {
				t.Fatalf("opening and reading made %v", entries)
			}
			if err := write(refreshes); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{path, refreshes.Path()} {
				if m := mode(t, p); m != 0o700 {
					t.Errorf("%s made with mode %04o, want 0700", p, m)
				}
			}
			if _, err := os.Stat(rollback.Path()); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a subdirectory not written was made: %v", err)
			}
			// Another Dir, opened while it was missing, reads what was written.
			again := subOf(t, d, "refreshes")
			if found, err := again.ReadJSON("x", new(int)); found != (name != "Create") || err != nil {
				t.Errorf("ReadJSON after the write, from the directory above = %v, %v", found, err)
			}
		})
	}
}

// TestTheFirstWriteChecksWhatIsMade: what appeared since a missing
// directory was opened passes the ownership rule before it is written to.
func TestTheFirstWriteChecksWhatIsMade(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a directory to another user")
	}
	for _, c := range []struct {
		name string
		// sub writes in the subdirectory "rollback" of an existing
		// state directory, rather than in the state directory.
		sub   bool
		setup func(path string) error
	}{
		{"a directory above owned by another user", false, func(p string) error {
			return errors.Join(os.Mkdir(filepath.Dir(p), 0o755), os.Chown(filepath.Dir(p), 65534, 65534))
		}},
		{"the directory owned by another user", false, func(p string) error {
			return errors.Join(os.MkdirAll(p, 0o700), os.Chown(p, 65534, 65534))
		}},
		{"a subdirectory owned by another user", true, func(p string) error {
			return errors.Join(os.Mkdir(p, 0o700), os.Chown(p, 65534, 65534))
		}},
		{"a subdirectory writable by others", true, func(p string) error {
			return errors.Join(os.Mkdir(p, 0o700), os.Chmod(p, 0o777))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := mustOpen(t, state.Open, filepath.Join(t.TempDir(), "var", "state"))
			if c.sub {
				if err := d.Create(); err != nil {
					t.Fatal(err)
				}
				d = subOf(t, d, "rollback")
			}
			if err := c.setup(d.Path()); err != nil {
				t.Fatal(err)
			}
			if err := d.WriteFile("x", nil); !errors.Is(err, state.ErrUnsafe) {
				t.Fatalf("WriteFile = %v; want ErrUnsafe", err)
			}
			if _, err := os.Stat(filepath.Join(d.Path(), "x")); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("written anyway: %v", err)
			}
		})
	}
}

// TestPruneTakesBackWhatTheFirstWriteMade: an emptied directory goes with
// the directories above it that its first write made, and no further; a
// directory that existed, or that holds anything, stays.
func TestPruneTakesBackWhatTheFirstWriteMade(t *testing.T) {
	tests := []struct {
		name     string
		existing string // made before the open, under base
		keep     bool   // the record is left in place
		want     []string
	}{
		{"nothing existed", "", false, nil},
		{"the state directory existed", "var/lib/ccm", false, []string{"var", "var/lib", "var/lib/ccm"}},
		{"its parent existed", "var/lib", false, []string{"var", "var/lib"}},
		{"the subdirectory existed", "var/lib/ccm/refreshes", false, []string{"var", "var/lib", "var/lib/ccm", "var/lib/ccm/refreshes"}},
		{"a record is left", "", true, []string{"var", "var/lib", "var/lib/ccm", "var/lib/ccm/refreshes", "var/lib/ccm/refreshes/x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			if tt.existing != "" {
				if err := os.MkdirAll(filepath.Join(base, tt.existing), 0o700); err != nil {
					t.Fatal(err)
				}
			}
			d := mustOpen(t, state.Open, filepath.Join(base, "var", "lib", "ccm"))
			refreshes := subOf(t, d, "refreshes")
			if err := refreshes.WriteFile("x", []byte("1")); err != nil {
				t.Fatal(err)
			}
			if !tt.keep {
				if err := refreshes.Remove("x"); err != nil {
					t.Fatal(err)
				}
			}
			refreshes.Prune()
			var got []string
			_ = filepath.WalkDir(base, func(p string, _ fs.DirEntry, _ error) error {
				if rel, _ := filepath.Rel(base, p); rel != "." {
					got = append(got, rel)
				}
				return nil
			})
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("after Prune: %q, want %q", got, tt.want)
			}
		})
	}
}

// TestAWriteAfterAnotherRunPrunedMakesTheDirectoryAgain: a Dir whose
// directory another run pruned (a one-shot run beside a daemon) makes it
// again at its next write rather than failing into a removed directory.
func TestAWriteAfterAnotherRunPrunedMakesTheDirectoryAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ccm")
	daemon := subOf(t, mustOpen(t, state.Open, path), "refreshes")
	if err := daemon.WriteFile("x", []byte("1")); err != nil {
		t.Fatal(err)
	}
	if err := daemon.Remove("x"); err != nil {
		t.Fatal(err)
	}
	// What the Prune of a run that made them while empty does.
	for _, p := range []string{filepath.Join(path, "refreshes"), path} {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := daemon.WriteFile("x", []byte("2")); err != nil {
		t.Fatalf("writing after the directory was pruned: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(path, "refreshes", "x")); string(b) != "2" || err != nil {
		t.Fatalf("the record on disk: %q, %v", b, err)
	}
}
