package group_test

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/accounts"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
)

// build makes a group from its name and properties.
var build = resourcetest.Builder("group")

// lookup reads the group as the databases hold it.
func lookup(t *testing.T, name string) *accounts.Group {
	t.Helper()
	g, err := accounts.LookupGroup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestCreateChangeRemove(t *testing.T) {
	sandbox.Require(t)
	addUsers(t, "ccmg1", "ccmg2", "ccmg3")
	r := build(t, "ccmgrp", "gid: 4711\nmembers: [ccmg1, ccmg2]")
	out := resourcetest.Converge(t.Context(), t, r, false, false)
	if !out.Change.Changed || out.Before.Reason() != "absent → present" {
		t.Fatalf("first run %+v", out)
	}
	if g := lookup(t, "ccmgrp"); g == nil || g.GID != 4711 || strings.Join(g.Members, ",") != "ccmg1,ccmg2" {
		t.Fatalf("group %+v, want gid 4711 members ccmg1,ccmg2", g)
	}
	if again := resourcetest.Converge(t.Context(), t, r, false, false); again.Applied {
		t.Errorf("second run %+v, want nothing to do", again)
	}
	sandbox.Command(t, "groupmod", "--gid", "4712", "ccmgrp")
	sandbox.Command(t, "gpasswd", "--members", "ccmg3,ccmg1", "ccmgrp")
	out = resourcetest.Converge(t.Context(), t, r, false, false)
	if want := "gid 4712 → 4711; members ccmg3,ccmg1 → ccmg1,ccmg2 (+ccmg2 -ccmg3)"; out.Before.Reason() != want {
		t.Errorf("drift %q, want %q", out.Before.Reason(), want)
	}
	if g := lookup(t, "ccmgrp"); g.GID != 4711 || strings.Join(g.Members, ",") != "ccmg1,ccmg2" {
		t.Errorf("after the repair %+v", g)
	}
	resourcetest.Converge(t.Context(), t, build(t, "ccmgrp", "ensure: absent"), false, false)
	if g := lookup(t, "ccmgrp"); g != nil {
		t.Errorf("after removal %+v", g)
	}
}

func TestMinimumMembershipKeepsOthers(t *testing.T) {
	sandbox.Require(t)
	addUsers(t, "ccmm1", "ccmm2")
	sandbox.Command(t, "groupadd", "ccmmin")
	t.Cleanup(func() { sandbox.Command(t, "groupdel", "ccmmin") })
	sandbox.Command(t, "gpasswd", "--add", "ccmm2", "ccmmin")
	r := build(t, "ccmmin", "members: [ccmm1]\nmembership: minimum")
	resourcetest.Converge(t.Context(), t, r, false, false)
	if g := lookup(t, "ccmmin"); strings.Join(g.Members, ",") != "ccmm2,ccmm1" {
		t.Errorf("members %v, want ccmm2,ccmm1", g.Members)
	}
	if again := resourcetest.Converge(t.Context(), t, r, false, false); again.Applied {
		t.Errorf("second run %+v, want nothing to do", again)
	}
}

func TestNoopChangesNothing(t *testing.T) {
	sandbox.Require(t)
	out := resourcetest.Converge(t.Context(), t, build(t, "ccmnoop", "system: true"), false, true)
	if out.Change.NoopMessage != "Would have created the group" {
		t.Errorf("noop message %q", out.Change.NoopMessage)
	}
	if g := lookup(t, "ccmnoop"); g != nil {
		t.Errorf("noop created %+v", g)
	}
}

// TestValidation: each problem at its position.
func TestValidation(t *testing.T) {
	resourcetest.Rejects(t, "group", []resourcetest.Rejected{
		{Case: "bad name", Name: "a:b", Want: "is not a group name"},
		{Case: "bad member", Name: "g", Props: "members: [ok, \"a b\"]", Want: "is not a user name"},
		{Case: "twice", Name: "g", Props: "members: [a, a]", Want: "listed twice"},
		{Case: "membership alone", Name: "g", Props: "membership: minimum", Want: "test.yaml:1:13: membership: only valid with members"},
		{Case: "bad membership", Name: "g", Props: "members: [a]\nmembership: most", Want: "test.yaml:2:13: membership"},
		{Case: "gid when absent", Name: "g", Props: "ensure: absent\ngid: 5", Want: "test.yaml:2:6: gid: only valid with ensure: present"},
		{Case: "members when absent", Name: "g", Props: "ensure: absent\nmembers: [a]", Want: "members: only valid with ensure: present"},
		{Case: "negative gid", Name: "g", Props: "gid: -1", Want: "test.yaml:1:6: gid"},
		{Case: "gid not a number", Name: "g", Props: "gid: five", Want: "expected an integer"},
		{Case: "unknown provider", Name: "g", Props: "provider: pw", Want: "provider"},
	})
}

// TestInspectAndAbsent: ccm status shows the group's gid and members,
// absent for a missing one; a missing group wanted absent is in order.
func TestInspectAndAbsent(t *testing.T) {
	sandbox.Require(t)
	addUsers(t, "ccmi1")
	sandbox.Command(t, "groupadd", "--gid", "4720", "ccmshow")
	t.Cleanup(func() { sandbox.Command(t, "groupdel", "ccmshow") })
	sandbox.Command(t, "gpasswd", "--add", "ccmi1", "ccmshow")
	typ, _ := resources.Lookup("group")
	show := func(name string) string { return resourcetest.Inspect(t, "group", name) }
	if got, want := show("ccmshow"), `{"name":"ccmshow","ensure":"present","gid":4720,"members":["ccmi1"],"provider":"groupadd"}`; got != want {
		t.Errorf("status %s, want %s", got, want)
	}
	if got, want := show("ccmnone"), `{"name":"ccmnone","ensure":"absent","provider":"groupadd"}`; got != want {
		t.Errorf("status %s, want %s", got, want)
	}
	if _, err := typ.Inspect(t.Context(), "a:b"); err == nil || err.Error() != `"a:b" is not a group name` {
		t.Errorf("inspecting a bad name: %v", err)
	}
	out := resourcetest.Converge(t.Context(), t, build(t, "ccmnone", "ensure: absent"), false, false)
	if !out.Before.Desired || out.Before.Ensure != "absent" || out.Applied {
		t.Errorf("absent group wanted absent: %+v", out)
	}
	out = resourcetest.Converge(t.Context(), t, build(t, "ccmshow", "ensure: absent"), false, true)
	if out.Before.Reason() != "present → absent" || out.Change.NoopMessage != "Would have removed the group" {
		t.Errorf("present group wanted absent: %q, %q", out.Before.Reason(), out.Change.NoopMessage)
	}
}

// TestWatchAndUnusableProvider: a group watches the group databases;
// with its tools missing it is built but fails at run time, naming them.
func TestWatchAndUnusableProvider(t *testing.T) {
	if w := build(t, "g", "").Watch(); strings.Join(w.Paths, " ") != "/etc/group /etc/gshadow" {
		t.Errorf("watch %v", w.Paths)
	}
	t.Setenv("PATH", t.TempDir())
	_, err := build(t, "g", "").Check(t.Context())
	if err == nil || !strings.Contains(err.Error(), "not found in PATH") {
		t.Errorf("check without the tools: %v", err)
	}
}

// TestInstance pins what a group declares: present when ensure is left
// out, and the databases it watches.
func TestInstance(t *testing.T) {
	watched := " independent false owns [] uses [] claims [] paths [/etc/group /etc/gshadow] mounts []"
	resourcetest.Declares(t, "group", "ccmgrp", []resourcetest.Declared{
		{Props: "gid: 4711", Want: "ensure present" + watched},
		{Props: "ensure: absent", Want: "ensure absent" + watched},
	})
}
