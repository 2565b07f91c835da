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

func build(t *testing.T, name, props string) resources.Resource {
	t.Helper()
	return resourcetest.MustBuild(t, "user", name, props, t.TempDir()).Resource
}

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

func TestValidation(t *testing.T) {
	resourcetest.Rejects(t, "user", []resourcetest.Rejected{
		{Case: "bad name", Name: "a b", Want: "is not a user name"},
		{Case: "clear text password", Name: "u", Props: "password: hunter22", Want: "not a password hash", Secret: "hunter22"},
		{Case: "relative home", Name: "u", Props: "home: home/u", Want: "not an absolute, clean path"},
		{Case: "bad expiry", Name: "u", Props: "expiry: tomorrow", Want: "is not a day"},
		{Case: "groups twice", Name: "u", Props: "groups: [a, a]", Want: "listed twice"},
		{Case: "membership alone", Name: "u", Props: "membership: exact", Want: "only valid with groups"},
		{Case: "uid when absent", Name: "u", Props: "ensure: absent\nuid: 5", Want: "uid: only valid with ensure: present"},
		{Case: "colon in comment", Name: "u", Props: "comment: \"a:b\"", Want: "must not hold a colon"},
	})
}
