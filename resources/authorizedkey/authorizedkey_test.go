package authorizedkey_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/authorizedkey"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func build(t *testing.T, user, props string) resources.Resource {
	t.Helper()
	return resourcetest.MustBuild(t, "authorized_key", "alice@laptop", fmt.Sprintf("user: %s\ntype: ssh-ed25519\n%s", user, props), t.TempDir()).Resource
}

// owned reports the owner and mode of path.
func owned(t *testing.T, path string) (uid uint32, mode uint32) {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		t.Fatal(err)
	}
	return st.Uid, st.Mode & 0o7777
}

func TestCreatesSSHDirAndFile(t *testing.T) {
	addUser(t, "ccmkey1")
	r := build(t, "ccmkey1", "key: "+pubKey(1))
	out := resourcetest.Converge(t.Context(), t, r, false, false)
	if !out.Change.Changed || out.Before.Reason() != "ssh_dir absent → 0700; key absent → present" {
		t.Fatalf("first run %+v", out)
	}
	uid, mode := owned(t, "/home/ccmkey1/.ssh")
	fuid, fmode := owned(t, "/home/ccmkey1/.ssh/authorized_keys")
	if uid == 0 || mode != 0o700 || fuid != uid || fmode != 0o600 {
		t.Errorf(".ssh uid %d mode %04o, authorized_keys uid %d mode %04o; want the user's, 0700 and 0600", uid, mode, fuid, fmode)
	}
	if got, want := resourcetest.ReadFile(t, "/home/ccmkey1/.ssh/authorized_keys"), "ssh-ed25519 "+pubKey(1)+" alice@laptop\n"; got != want {
		t.Errorf("authorized_keys holds %q, want %q", got, want)
	}
	if again := resourcetest.Converge(t.Context(), t, r, false, false); again.Applied {
		t.Errorf("second run %+v, want nothing to do", again)
	}
}

func TestOtherLinesLeftAlone(t *testing.T) {
	addUser(t, "ccmkey2")
	const path = "/home/ccmkey2/.ssh/authorized_keys"
	r := build(t, "ccmkey2", "key: "+pubKey(1))
	resourcetest.Converge(t.Context(), t, r, false, false)
	other := "# the host's\nssh-ed25519 " + pubKey(2) + " bob\n"
	resourcetest.WriteFile(t, path, other+"no-pty ssh-ed25519 "+pubKey(1)+" old\nssh-ed25519 "+pubKey(1)+" dup\n", 0o644)
	out := resourcetest.Converge(t.Context(), t, build(t, "ccmkey2", "key: "+pubKey(1)+"\noptions: [\"from=\\\"10.0.0.0/8\\\"\", no-pty]"), false, false)
	if d := out.Before.Differences; len(d) != 1 || !strings.HasPrefix(d[0].Observed, "no-pty ssh-ed25519 …") || d[0].Note != "line 3, and 1 more lines holding the key to remove" {
		t.Errorf("differences %+v", d)
	}
	want := other + `from="10.0.0.0/8",no-pty ssh-ed25519 ` + pubKey(1) + " alice@laptop\n"
	if got := resourcetest.ReadFile(t, path); got != want {
		t.Errorf("authorized_keys holds %q, want %q", got, want)
	}
	if _, mode := owned(t, path); mode != 0o644 {
		t.Errorf("mode %04o, want 0644 kept", mode)
	}
	resourcetest.Converge(t.Context(), t, build(t, "ccmkey2", "key: "+pubKey(1)+"\nensure: absent"), false, false)
	if got := resourcetest.ReadFile(t, path); got != other {
		t.Errorf("after removal authorized_keys holds %q, want %q", got, other)
	}
}

// TestPlantedSymlinkIsRefused: a user's ~/.ssh pointing at root's is
// never followed.
func TestPlantedSymlinkIsRefused(t *testing.T) {
	addUser(t, "ccmkey3")
	target := t.TempDir()
	if err := os.Symlink(target, "/home/ccmkey3/.ssh"); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown("/home/ccmkey3/.ssh", 1001, 1001); err != nil {
		t.Fatal(err)
	}
	if _, err := resources.Converge(t.Context(), build(t, "ccmkey3", "key: "+pubKey(1)), false, false); err == nil {
		t.Fatal("converge through the user's symlink succeeded")
	}
	if entries, _ := os.ReadDir(target); len(entries) != 0 {
		t.Errorf("the link's target got %v", entries)
	}
}

func TestNoopAndMissingUser(t *testing.T) {
	addUser(t, "ccmkey4")
	out := resourcetest.Converge(t.Context(), t, build(t, "ccmkey4", "key: "+pubKey(1)), false, true)
	if want := "Would have created /home/ccmkey4/.ssh; added the key to /home/ccmkey4/.ssh/authorized_keys"; out.Change.NoopMessage != want {
		t.Errorf("noop message %q, want %q", out.Change.NoopMessage, want)
	}
	if resourcetest.Exists("/home/ccmkey4/.ssh") {
		t.Error("noop created .ssh")
	}
	if _, err := resources.Converge(t.Context(), build(t, "ccmkeynone", "key: "+pubKey(1)), false, false); !errors.Is(err, authorizedkey.ErrNoUser) {
		t.Errorf("converge for a missing user: %v, want ErrNoUser", err)
	}
	if out := resourcetest.Converge(t.Context(), t, build(t, "ccmkeynone", "key: "+pubKey(1)+"\nensure: absent"), false, false); !out.Before.Desired {
		t.Errorf("absent key of a missing user: %+v, want desired", out)
	}
}

func TestValidation(t *testing.T) {
	resourcetest.Rejects(t, "authorized_key", []resourcetest.Rejected{
		{Case: "user required", Name: "k", Props: "type: ssh-ed25519\nkey: " + pubKey(1), Want: "user is required"},
		{Case: "bad user", Name: "k", Props: "user: \"a b\"\ntype: ssh-ed25519\nkey: " + pubKey(1), Want: "is not a user name"},
		{Case: "bad type", Name: "k", Props: "user: a\ntype: ssh-foo\nkey: " + pubKey(1), Want: "not a key type"},
		{Case: "not base64", Name: "k", Props: "user: a\ntype: ssh-ed25519\nkey: \"#!\"", Want: "not base64"},
		{Case: "type mismatch", Name: "k", Props: "user: a\ntype: ssh-rsa\nkey: " + pubKey(1), Want: `holds a "ssh-ed25519" key, not "ssh-rsa"`},
		{Case: "option with space", Name: "k", Props: "user: a\ntype: ssh-ed25519\nkey: " + pubKey(1) + "\noptions: [\"no-pty x\"]", Want: "is not one option"},
	})
}
