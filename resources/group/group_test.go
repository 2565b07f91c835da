package group_test

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/accounts"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
)

func build(t *testing.T, name, props string) resources.Resource {
	t.Helper()
	return resourcetest.MustBuild(t, "group", name, props, t.TempDir()).Resource
}

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

func TestValidation(t *testing.T) {
	resourcetest.Rejects(t, "group", []resourcetest.Rejected{
		{Case: "bad name", Name: "a:b", Want: "is not a group name"},
		{Case: "bad member", Name: "g", Props: "members: [\"a b\"]", Want: "is not a user name"},
		{Case: "twice", Name: "g", Props: "members: [a, a]", Want: "listed twice"},
		{Case: "membership alone", Name: "g", Props: "membership: minimum", Want: "only valid with members"},
		{Case: "bad membership", Name: "g", Props: "members: [a]\nmembership: most", Want: "not one of exact, minimum"},
		{Case: "gid when absent", Name: "g", Props: "ensure: absent\ngid: 5", Want: "gid: only valid with ensure: present"},
		{Case: "gid not a number", Name: "g", Props: "gid: five", Want: "expected an integer"},
	})
}
