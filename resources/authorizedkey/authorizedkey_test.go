package authorizedkey_test

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/authorizedkey"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
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

// TestValidation: each problem at its position, the value's or the
// resource's when a property is missing.
func TestValidation(t *testing.T) {
	k := pubKey(1)
	resourcetest.Rejects(t, "authorized_key", []resourcetest.Rejected{
		{Case: "user required", Name: "k", Props: "type: ssh-ed25519\nkey: " + k, Want: "test.yaml:1:1: authorized_key#k: user is required"},
		{Case: "bad user", Name: "k", Props: "user: \"a b\"\ntype: ssh-ed25519\nkey: " + k, Want: `test.yaml:1:7: user: "a b" is not a user name`},
		{Case: "type required", Name: "k", Props: "user: a\nkey: " + k, Want: "test.yaml:1:1: authorized_key#k: type is required"},
		{Case: "bad type", Name: "k", Props: "user: a\ntype: ssh-foo\nkey: " + k, Want: `test.yaml:2:7: type: "ssh-foo" is not a key type sshd accepts`},
		{Case: "key required", Name: "k", Props: "user: a\ntype: ssh-ed25519", Want: "test.yaml:1:1: authorized_key#k: key is required"},
		{Case: "not base64", Name: "k", Props: "user: a\ntype: ssh-ed25519\nkey: \"#!\"", Want: "test.yaml:3:6: key: not base64"},
		{Case: "type mismatch", Name: "k", Props: "user: a\ntype: ssh-rsa\nkey: " + k, Want: `test.yaml:3:6: key: holds a "ssh-ed25519" key, not "ssh-rsa"`},
		{Case: "not a key blob", Name: "k", Props: "user: a\ntype: ssh-rsa\nkey: QUJD", Want: `key: holds a "" key, not "ssh-rsa"`},
		{Case: "bad ensure", Name: "k", Props: "user: a\ntype: ssh-ed25519\nensure: gone\nkey: " + k, Want: "test.yaml:3:9: ensure"},
		{Case: "comment two lines", Name: "k", Props: "user: a\ntype: ssh-ed25519\ncomment: \"a\\nb\"\nkey: " + k, Want: "test.yaml:3:10: comment: must be one line"},
		{Case: "option with space", Name: "k", Props: "user: a\ntype: ssh-ed25519\nkey: " + k + "\noptions: [\"no-pty x\"]", Want: `test.yaml:4:10: options: item 1, "no-pty x", is not one option`},
		{Case: "option unbalanced quote", Name: "k", Props: "user: a\ntype: ssh-ed25519\nkey: " + k + "\noptions: [no-pty, 'command=\"a']", Want: `options: item 2, "command=\"a", is not one option`},
		{Case: "option empty", Name: "k", Props: "user: a\ntype: ssh-ed25519\nkey: " + k + "\noptions: [\"\"]", Want: `options: item 1, "", is not one option`},
	})
}

// TestInspectListsKeys: ccm status shows each key line's type,
// fingerprint, comment and options, and absent for a user without the
// file.
func TestInspectListsKeys(t *testing.T) {
	addUser(t, "ccmkey5")
	typ, _ := resources.Lookup("authorized_key")
	show := func() string { return resourcetest.Inspect(t, "authorized_key", "ccmkey5") }
	if got, want := show(), `{"user":"ccmkey5","path":"/home/ccmkey5/.ssh/authorized_keys","ensure":"absent","provider":"posix"}`; got != want {
		t.Errorf("no file: %s, want %s", got, want)
	}
	if err := os.Mkdir("/home/ccmkey5/.ssh", 0o700); err != nil {
		t.Fatal(err)
	}
	resourcetest.WriteFile(t, "/home/ccmkey5/.ssh/authorized_keys", "# comment\nno-pty ssh-ed25519 "+
		"AAAAC3NzaC1lZDI1NTE5AAAAIPPi42OQ3JJVJOGAZfJpo7r1FgjDAI1Gf4iOEKuBJoz/ x\nnot a key\nssh-rsa AAAA\n", 0o600)
	want := `{"user":"ccmkey5","path":"/home/ccmkey5/.ssh/authorized_keys","ensure":"present","keys":[` +
		`{"type":"ssh-ed25519","fingerprint":"SHA256:Fu0bmfEUYqrTsVBwHl+BCs8iCX496qfHIb4JEdzh0g8","comment":"x","options":"no-pty"},` +
		`{"type":"ssh-rsa","fingerprint":"SHA256:cJ6AyISHokEeHuTfufIqhhSS0gxHZRUMDHlKvXD4FHw"}],"provider":"posix"}`
	if got := show(); got != want {
		t.Errorf("keys:\n%s\nwant\n%s", got, want)
	}
	if _, err := typ.Inspect(t.Context(), "ccmkeynone"); !errors.Is(err, authorizedkey.ErrNoUser) {
		t.Errorf("inspecting a missing user: %v, want ErrNoUser", err)
	}
}

// TestSSHDirRepairs: a ~/.ssh owned by another or writable by group is
// given back and loses only group and other write; a ~/.ssh that is a
// file, or a home that does not exist, is an error that names it.
func TestSSHDirRepairs(t *testing.T) {
	addUser(t, "ccmkey6")
	const dir = "/home/ccmkey6/.ssh"
	if err := os.Mkdir(dir, 0o775); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, os.ModeSetgid|0o775); err != nil {
		t.Fatal(err)
	}
	r := build(t, "ccmkey6", "key: "+pubKey(1))
	out := resourcetest.Converge(t.Context(), t, r, false, true)
	if want := "Would have fixed the owner and mode of /home/ccmkey6/.ssh; added the key to " + dir + "/authorized_keys"; out.Change.NoopMessage != want {
		t.Errorf("noop message %q, want %q", out.Change.NoopMessage, want)
	}
	if want := "ssh_dir uid 0 mode 2775 → the user's, no group or other write; key absent → present"; out.Before.Reason() != want {
		t.Errorf("reason %q, want %q", out.Before.Reason(), want)
	}
	resourcetest.Converge(t.Context(), t, r, false, false)
	if uid, mode := owned(t, dir); uid == 0 || mode != 0o2755 {
		t.Errorf(".ssh uid %d mode %04o, want the user's and 2755", uid, mode)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	resourcetest.WriteFile(t, dir, "", 0o600)
	if _, err := resources.Converge(t.Context(), r, false, false); !errors.Is(err, authorizedkey.ErrNotDirectory) {
		t.Errorf("converge with .ssh a file: %v, want ErrNotDirectory", err)
	}
	if err := os.RemoveAll("/home/ccmkey6"); err != nil {
		t.Fatal(err)
	}
	if _, err := resources.Converge(t.Context(), r, false, false); !errors.Is(err, authorizedkey.ErrNoHome) || !strings.Contains(err.Error(), "/home/ccmkey6; create it first") {
		t.Errorf("converge without a home: %v, want ErrNoHome naming it", err)
	}
}

// TestAbsentKeyAndWatch: an absent key with no file is in order and
// creates nothing; with the file, every line holding it goes and noop
// says so. Watch follows the user's home, /home/USER for a user not
// created yet.
func TestAbsentKeyAndWatch(t *testing.T) {
	if w := build(t, "ccmkeylater", "key: "+pubKey(1)).Watch(); fmt.Sprint(w.Paths) != "[/home/ccmkeylater/.ssh /home/ccmkeylater/.ssh/authorized_keys /etc/passwd]" {
		t.Errorf("watch of a missing user %v", w.Paths)
	}
	sandbox.Command(t, "useradd", "--create-home", "--home-dir", "/home/elsewhere7", "ccmkey7")
	t.Cleanup(func() { sandbox.Command(t, "userdel", "--remove", "ccmkey7") })
	const path = "/home/elsewhere7/.ssh/authorized_keys"
	r := build(t, "ccmkey7", "key: "+pubKey(1)+"\nensure: absent")
	if w := r.Watch(); fmt.Sprint(w.Paths) != "[/home/elsewhere7/.ssh "+path+" /etc/passwd]" {
		t.Errorf("watch %v", w.Paths)
	}
	if out := resourcetest.Converge(t.Context(), t, r, false, false); !out.Before.Desired || out.Applied || resourcetest.Exists("/home/elsewhere7/.ssh") {
		t.Errorf("absent key without a file: %+v", out)
	}
	resourcetest.Converge(t.Context(), t, build(t, "ccmkey7", "key: "+pubKey(1)), false, false)
	resourcetest.WriteFile(t, path, resourcetest.ReadFile(t, path)+"# x\nssh-ed25519 "+pubKey(1)+" again\n", 0o600)
	out := resourcetest.Converge(t.Context(), t, r, false, true)
	if want := "Would have removed the key from " + path; out.Change.NoopMessage != want || out.Before.Reason() != "key present → absent (2 lines)" {
		t.Errorf("noop %q (%s), want %q", out.Change.NoopMessage, out.Before.Reason(), want)
	}
	resourcetest.Converge(t.Context(), t, r, false, false)
	if got := resourcetest.ReadFile(t, path); got != "# x\n" {
		t.Errorf("after removal %q", got)
	}
}

// TestPlantedKeysFileLinkIsRefused: an authorized_keys the user made a
// symlink to another file (root's keys) is not written through.
func TestPlantedKeysFileLinkIsRefused(t *testing.T) {
	addUser(t, "ccmkey8")
	victim := filepath.Join(t.TempDir(), "root_keys")
	resourcetest.WriteFile(t, victim, "ssh-ed25519 "+pubKey(3)+" root\n", 0o600)
	r := build(t, "ccmkey8", "key: "+pubKey(1))
	resourcetest.Converge(t.Context(), t, r, false, false)
	const path = "/home/ccmkey8/.ssh/authorized_keys"
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, path); err != nil {
		t.Fatal(err)
	}
	if uid, _ := owned(t, "/home/ccmkey8"); os.Lchown(path, int(uid), int(uid)) != nil {
		t.Fatal("giving the link to the user")
	}
	_, err := resources.Converge(t.Context(), r, false, false)
	if err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("converge through the planted link: %v, want a refusal", err)
	}
	if got := resourcetest.ReadFile(t, victim); got != "ssh-ed25519 "+pubKey(3)+" root\n" {
		t.Errorf("the link's target now holds %q", got)
	}
}

// TestKeyTypes: each family sshd accepts builds when the blob holds its
// type; a type sshd does not know is refused.
func TestKeyTypes(t *testing.T) {
	blob := func(typ string) string {
		b := binary.BigEndian.AppendUint32(nil, uint32(len(typ)))
		return base64.StdEncoding.EncodeToString(append(append(b, typ...), 0, 0, 0, 1, 7))
	}
	for _, typ := range []string{"ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp521", "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com", "ssh-ed25519-cert-v01@openssh.com"} {
		if _, err := resourcetest.Build(t, "authorized_key", "k", "user: u\ntype: "+typ+"\nkey: "+blob(typ), t.TempDir()); err != nil {
			t.Errorf("%s: %v", typ, err)
		}
	}
	if got := resourcetest.BuildError(t, "authorized_key", "k", "user: u\ntype: ssh-ed448\nkey: "+blob("ssh-ed448"), t.TempDir()); !strings.Contains(got, `type: "ssh-ed448" is not a key type sshd accepts`) {
		t.Errorf("ssh-ed448: %s", got)
	}
}

// TestOnlyTheDirectoryDrifted: with the key in place, a ~/.ssh others
// may write is fixed alone: its mode, and the file left as it is.
func TestOnlyTheDirectoryDrifted(t *testing.T) {
	addUser(t, "ccmkey9")
	const dir = "/home/ccmkey9/.ssh"
	r := build(t, "ccmkey9", "key: "+pubKey(1))
	resourcetest.Converge(t.Context(), t, r, false, false)
	before := resourcetest.ReadFile(t, dir+"/authorized_keys")
	if err := os.Chmod(dir, 0o757); err != nil {
		t.Fatal(err)
	}
	uid, _ := owned(t, dir)
	out := resourcetest.Converge(t.Context(), t, r, false, false)
	if want := fmt.Sprintf("ssh_dir uid %d mode 0757 → the user's, no group or other write", uid); !out.Change.Changed || out.Before.Reason() != want {
		t.Errorf("converge %+v (%q), want %q", out.Change, out.Before.Reason(), want)
	}
	if _, mode := owned(t, dir); mode != 0o755 || resourcetest.ReadFile(t, dir+"/authorized_keys") != before {
		t.Errorf(".ssh mode %04o, want 0755 and the file unchanged", mode)
	}
}
