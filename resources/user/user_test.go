package user_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/accounts"
	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
	"github.com/reactive-ccm/ccm/resources/user"
)

// hash is a password hash as chpasswd -e takes it.
const hash = "$6$ccmsalt$Zq9dJ0o4s3cWq7Kx1mHn2bV5yT8uR6eW3aS1dF4gH7jK0lP9oI2uY5tR8eW1qA4sD7fG0hJ3kL6zX9cV2bN5m."

// build makes a user from its name and properties.
var build = resourcetest.Builder("user")

func lookup(t *testing.T, name string) *accounts.User {
	t.Helper()
	u, err := accounts.LookupUser(name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func groupsOf(t *testing.T, name string) string {
	t.Helper()
	g, err := accounts.GroupsOf(name)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(g)
	return strings.Join(g, ",")
}

func TestCreateChangeRemove(t *testing.T) {
	sandbox.Require(t)
	sandbox.Command(t, "groupadd", "ccmu-a")
	sandbox.Command(t, "groupadd", "ccmu-b")
	t.Cleanup(func() { sandbox.Command(t, "groupdel", "ccmu-a"); sandbox.Command(t, "groupdel", "ccmu-b") })
	props := fmt.Sprintf(`uid: 4901
groups: [ccmu-a, ccmu-b]
membership: exact
home: /home/ccmuser
managehome: true
shell: /bin/sh
comment: CCM Test
password: "%s"
expiry: "2040-01-02"`, hash)
	r := build(t, "ccmuser", props)
	out := resourcetest.Converge(t.Context(), t, r, false, false)
	if !out.Change.Changed || out.Before.Reason() != "absent → present" {
		t.Fatalf("first run %+v", out)
	}
	u := lookup(t, "ccmuser")
	if u == nil || u.UID != 4901 || u.Home != "/home/ccmuser" || u.Shell != "/bin/sh" || u.Comment != "CCM Test" || u.Password != hash || u.Expiry != 25568 {
		t.Fatalf("user %+v", u)
	}
	if g := groupsOf(t, "ccmuser"); g != "ccmu-a,ccmu-b" {
		t.Errorf("groups %s", g)
	}
	if fi, err := os.Stat("/home/ccmuser"); err != nil || !fi.IsDir() {
		t.Errorf("home: %v", err)
	}
	if again := resourcetest.Converge(t.Context(), t, r, false, false); again.Applied {
		t.Errorf("second run %+v, want nothing to do", again)
	}
	sandbox.Command(t, "usermod", "--shell", "/bin/bash", "--comment", "someone", "--groups", "ccmu-a", "--expiredate", "", "ccmuser")
	sandbox.Command(t, "usermod", "--password", "!", "ccmuser")
	out = resourcetest.Converge(t.Context(), t, r, false, false)
	want := "groups ccmu-a → ccmu-a,ccmu-b (+ccmu-b); shell /bin/bash → /bin/sh; comment someone → CCM Test; expiry never → 2040-01-02; password [redacted] → [redacted]"
	if out.Before.Reason() != want {
		t.Errorf("drift %q, want %q", out.Before.Reason(), want)
	}
	if again := resourcetest.Converge(t.Context(), t, r, false, false); again.Applied {
		t.Errorf("after the repair %+v, want nothing to do", again)
	}
	resourcetest.Converge(t.Context(), t, build(t, "ccmuser", "ensure: absent\nmanagehome: true"), false, false)
	if u := lookup(t, "ccmuser"); u != nil || resourcetest.Exists("/home/ccmuser") {
		t.Errorf("after removal %+v, home there: %v", u, resourcetest.Exists("/home/ccmuser"))
	}
}

// TestPasswordNeverInArguments: chpasswd gets the hash on its standard
// input; no tool's arguments, and no noop message, carry it.
func TestPasswordNeverInArguments(t *testing.T) {
	sandbox.Require(t)
	var seen []string
	spy := command.RunnerFunc(func(ctx context.Context, c command.Cmd) (command.Result, error) {
		seen = append(seen, c.Name+" "+strings.Join(c.Args, " "))
		return command.Run(ctx, c)
	})
	inst := resourcetest.MustBuild(t, "user", "ccmpw", fmt.Sprintf("password: \"%s\"", hash), t.TempDir())
	user.SetRunner(inst.Resource, spy)
	out := resourcetest.Converge(t.Context(), t, inst.Resource, false, true)
	if strings.Contains(out.Change.NoopMessage, hash) || out.Change.NoopMessage != "Would have created the user; set the password" {
		t.Errorf("noop message %q", out.Change.NoopMessage)
	}
	resourcetest.Converge(t.Context(), t, inst.Resource, false, false)
	t.Cleanup(func() { sandbox.Command(t, "userdel", "ccmpw") })
	if len(seen) != 2 || strings.Contains(strings.Join(seen, "\n"), "ccmsalt") {
		t.Errorf("commands %q, want useradd and chpasswd without the hash", seen)
	}
	if u := lookup(t, "ccmpw"); u.Password != hash {
		t.Errorf("password field %q", u.Password)
	}
}

// TestValidation: each problem at its value's position; the password
// never quoted.
func TestValidation(t *testing.T) {
	resourcetest.Rejects(t, "user", []resourcetest.Rejected{
		{Case: "bad name", Name: "a b", Want: "is not a user name"},
		{Case: "clear text password", Name: "u", Props: "password: hunter22", Want: "test.yaml:1:11: password: not a password hash", Secret: "hunter22"},
		{Case: "relative home", Name: "u", Props: "home: home/u", Want: `test.yaml:1:7: home: "home/u" is not an absolute, clean path`},
		{Case: "unclean shell", Name: "u", Props: "shell: /bin/../bin/sh", Want: `test.yaml:1:8: shell: "/bin/../bin/sh" is not an absolute, clean path`},
		{Case: "colon in home", Name: "u", Props: "home: /a:b", Want: "home: \"/a:b\" is not an absolute, clean path"},
		{Case: "bad gid", Name: "u", Props: "gid: \"a b\"", Want: `test.yaml:1:6: gid: "a b" is not a group name or number`},
		{Case: "bad expiry", Name: "u", Props: "expiry: tomorrow", Want: `test.yaml:1:9: expiry: "tomorrow" is not a day (YYYY-MM-DD) or never`},
		{Case: "groups twice", Name: "u", Props: "groups: [a, a]", Want: "listed twice"},
		{Case: "membership alone", Name: "u", Props: "membership: exact", Want: "only valid with groups"},
		{Case: "bad membership", Name: "u", Props: "groups: [a]\nmembership: all", Want: "test.yaml:2:13: membership"},
		{Case: "uid when absent", Name: "u", Props: "ensure: absent\nuid: 5", Want: "uid: only valid with ensure: present"},
		{Case: "password when absent", Name: "u", Props: "ensure: absent\npassword: \"!\"", Want: "password: only valid with ensure: present"},
		{Case: "colon in comment", Name: "u", Props: "comment: \"a:b\"", Want: "test.yaml:1:10: comment: must not hold a colon or a newline"},
		{Case: "unknown provider", Name: "u", Props: "provider: pw", Want: "provider"},
		{Case: "negative uid", Name: "u", Props: "uid: -1", Want: "test.yaml:1:6: uid"},
		{Case: "bad group", Name: "u", Props: "groups: [ok, \"a:b\"]", Want: "is not a group name"},
	})
}

// TestIDsAndMembership: uid and primary group changed by usermod, by
// name or number; membership minimum adds the missing group and keeps
// the others.
func TestIDsAndMembership(t *testing.T) {
	sandbox.Require(t)
	sandbox.Command(t, "groupadd", "--gid", "4950", "ccmi-p")
	t.Cleanup(func() { sandbox.Command(t, "groupdel", "ccmi-p") })
	for _, g := range []string{"ccmi-a", "ccmi-b", "ccmi-c"} {
		sandbox.Command(t, "groupadd", g)
		t.Cleanup(func() { sandbox.Command(t, "groupdel", g) })
	}
	sandbox.Command(t, "useradd", "--uid", "4940", "--gid", "ccmi-a", "--groups", "ccmi-a,ccmi-b", "ccmids")
	t.Cleanup(func() { sandbox.Command(t, "userdel", "ccmids") })
	r := build(t, "ccmids", "uid: 4941\ngid: ccmi-p\ngroups: [ccmi-c]")
	out := resourcetest.Converge(t.Context(), t, r, false, true)
	if want := "Would have changed uid, gid and groups"; out.Change.NoopMessage != want {
		t.Errorf("noop message %q, want %q", out.Change.NoopMessage, want)
	}
	out = resourcetest.Converge(t.Context(), t, r, false, false)
	if !strings.HasPrefix(out.Before.Reason(), "uid 4940 → 4941; gid ") || !strings.HasSuffix(out.Before.Reason(), " → ccmi-p; groups ccmi-a,ccmi-b → ccmi-a,ccmi-b,ccmi-c (+ccmi-c)") {
		t.Errorf("reason %q", out.Before.Reason())
	}
	if u := lookup(t, "ccmids"); u.UID != 4941 || u.GID != 4950 {
		t.Errorf("user %+v, want uid 4941 gid 4950", u)
	}
	if g := groupsOf(t, "ccmids"); g != "ccmi-a,ccmi-b,ccmi-c" {
		t.Errorf("groups %s, want the host's kept", g)
	}
	if again := resourcetest.Converge(t.Context(), t, build(t, "ccmids", "gid: \"4950\"\ngroups: [ccmi-c]"), false, false); again.Applied {
		t.Errorf("gid by number: %+v, want nothing to do", again)
	}
	if _, err := resources.Converge(t.Context(), build(t, "ccmids", "gid: ccmi-none"), false, false); err == nil || !strings.Contains(err.Error(), "ccmi-none") {
		t.Errorf("a gid no group has: %v, want usermod's error naming it", err)
	}
}

// TestInspect: ccm status shows the account, its groups, the password's
// state and the expiry as a date; absent for an unknown user.
func TestInspect(t *testing.T) {
	sandbox.Require(t)
	sandbox.Command(t, "groupadd", "ccms-a")
	sandbox.Command(t, "useradd", "--uid", "4960", "--groups", "ccms-a", "--home-dir", "/home/ccmshow", "--shell", "/bin/sh",
		"--comment", "Show Me", "--expiredate", "2040-01-02", "ccmshow")
	t.Cleanup(func() { sandbox.Command(t, "userdel", "ccmshow"); sandbox.Command(t, "groupdel", "ccms-a") })
	typ, _ := resources.Lookup("user")
	show := func(name string) string { return resourcetest.Inspect(t, "user", name) }
	gid := lookup(t, "ccmshow").GID
	want := fmt.Sprintf(`{"name":"ccmshow","ensure":"present","uid":4960,"gid":%d,"groups":["ccms-a"],"home":"/home/ccmshow","shell":"/bin/sh","comment":"Show Me","password":"locked","expiry":"2040-01-02","provider":"useradd"}`, gid)
	if got := show("ccmshow"); got != want {
		t.Errorf("status\n%s\nwant\n%s", got, want)
	}
	if got, want := show("ccmnobody"), `{"name":"ccmnobody","ensure":"absent","provider":"useradd"}`; got != want {
		t.Errorf("status of a missing user %s, want %s", got, want)
	}
	if _, err := typ.Inspect(t.Context(), "a:b"); err == nil || !strings.Contains(err.Error(), `"a:b" is not a user name`) {
		t.Errorf("inspecting a bad name: %v", err)
	}
}

// TestInstanceAndHomeMove: with managehome a present user owns its home
// (what is under it waits for the user) and a changed home is moved with
// its files; the user watches the account databases.
func TestInstanceAndHomeMove(t *testing.T) {
	for props, owns := range map[string]string{"home: /srv/u\nmanagehome: true": `["/srv/u"]`, "home: /srv/u": "[]", "managehome: true": "[]", "ensure: absent\nmanagehome: true": "[]"} {
		if inst := resourcetest.MustBuild(t, "user", "u", props, t.TempDir()); fmt.Sprintf("%q", inst.Owns) != owns {
			t.Errorf("%q owns %v, want %s", props, inst.Owns, owns)
		}
	}
	if w := build(t, "u", "").Watch(); fmt.Sprint(w.Paths) != "[/etc/passwd /etc/shadow /etc/group /etc/gshadow]" {
		t.Errorf("watch %v", w.Paths)
	}
	sandbox.Require(t)
	sandbox.Command(t, "useradd", "--create-home", "--home-dir", "/home/ccmmove", "ccmmove")
	t.Cleanup(func() { sandbox.Command(t, "userdel", "--remove", "ccmmove") })
	resourcetest.WriteFile(t, "/home/ccmmove/notes", "kept\n", 0o600)
	out := resourcetest.Converge(t.Context(), t, build(t, "ccmmove", "home: /home/ccmmoved\nmanagehome: true"), false, false)
	if out.Before.Reason() != "home /home/ccmmove → /home/ccmmoved" {
		t.Errorf("reason %q", out.Before.Reason())
	}
	if got := resourcetest.ReadFile(t, "/home/ccmmoved/notes"); got != "kept\n" || resourcetest.Exists("/home/ccmmove") {
		t.Errorf("moved home holds %q; old home there: %v", got, resourcetest.Exists("/home/ccmmove"))
	}
	if out := resourcetest.Converge(t.Context(), t, build(t, "ccmnouser", "ensure: absent"), false, false); !out.Before.Desired || out.Applied {
		t.Errorf("a missing user wanted absent: %+v", out)
	}
}

// TestSystemAccountAndLock: system gives an id from the system range and
// no home; password "!" locks the account, and a removal without
// managehome leaves the home in place.
func TestSystemAccountAndLock(t *testing.T) {
	sandbox.Require(t)
	resourcetest.Converge(t.Context(), t, build(t, "ccmsys", "system: true\npassword: \"!\""), false, false)
	t.Cleanup(func() {
		if lookup(t, "ccmsys") != nil {
			sandbox.Command(t, "userdel", "ccmsys")
		}
	})
	u := lookup(t, "ccmsys")
	if u == nil || u.UID >= 1000 || u.Password != "!" || resourcetest.Exists(u.Home) {
		t.Fatalf("system user %+v; home there: %v", u, u != nil && resourcetest.Exists(u.Home))
	}
	if out := resourcetest.Converge(t.Context(), t, build(t, "ccmsys", "password: \"!\""), false, false); out.Applied {
		t.Errorf("locked again: %+v, want nothing to do", out)
	}
	sandbox.Command(t, "useradd", "--create-home", "ccmkeep")
	resourcetest.Converge(t.Context(), t, build(t, "ccmkeep", "ensure: absent"), false, false)
	t.Cleanup(func() { _ = os.RemoveAll("/home/ccmkeep") })
	if lookup(t, "ccmkeep") != nil || !resourcetest.Exists("/home/ccmkeep") {
		t.Errorf("removal without managehome: user %v, home kept %v", lookup(t, "ccmkeep"), resourcetest.Exists("/home/ccmkeep"))
	}
}

// TestToolFailure: a tool's refusal is the error, naming the tool and
// what it said; the password never in it, and nothing half made.
func TestToolFailure(t *testing.T) {
	sandbox.Require(t)
	_, err := resources.Converge(t.Context(), build(t, "ccmfail", fmt.Sprintf("gid: ccm-nogroup\npassword: \"%s\"", hash)), false, false)
	if err == nil || !strings.Contains(err.Error(), "useradd") || !strings.Contains(err.Error(), "ccm-nogroup") || strings.Contains(err.Error(), "ccmsalt") {
		t.Errorf("converge: %v, want useradd's refusal naming the group", err)
	}
	if u := lookup(t, "ccmfail"); u != nil {
		t.Errorf("user made: %+v", u)
	}
}
