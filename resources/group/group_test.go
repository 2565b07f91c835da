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
	run(t, "groupmod", "--gid", "4712", "ccmgrp")
	run(t, "gpasswd", "--members", "ccmg3,ccmg1", "ccmgrp")
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
	run(t, "groupadd", "ccmmin")
	t.Cleanup(func() { run(t, "groupdel", "ccmmin") })
	run(t, "gpasswd", "--add", "ccmm2", "ccmmin")
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
	tests := []struct{ name, group, props, want string }{
		{"bad name", "a:b", "", "is not a group name"},
		{"bad member", "g", "members: [\"a b\"]", "is not a user name"},
		{"twice", "g", "members: [a, a]", "listed twice"},
		{"membership alone", "g", "membership: minimum", "only valid with members"},
		{"bad membership", "g", "members: [a]\nmembership: most", "not one of exact, minimum"},
		{"gid when absent", "g", "ensure: absent\ngid: 5", "gid: only valid with ensure: present"},
		{"gid not a number", "g", "gid: five", "expected an integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resourcetest.BuildError(t, "group", tt.group, tt.props, t.TempDir()); !strings.Contains(got, tt.want) {
				t.Errorf("error %q, want it to contain %q", got, tt.want)
			}
		})
	}
}
