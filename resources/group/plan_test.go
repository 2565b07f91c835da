package group

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/accounts"
)

// TestPlan is the group's decision table: missing or there, wanted
// present or absent, gid and members (exact or minimum) differing, to
// the tool runs and the noop message.
func TestPlan(t *testing.T) {
	gid := func(n int) *int { return &n }
	have := &accounts.Group{Name: "g", GID: 100, Members: []string{"a", "b"}}
	for _, c := range []struct {
		name  string
		want  group
		have  *accounts.Group
		steps string
		noop  string
	}{
		{name: "absent, missing", want: group{absent: true}},
		{name: "absent, there", want: group{absent: true, members: []string{"a"}}, have: have, steps: "groupdel g", noop: "Would have removed the group"},
		{name: "missing, bare", want: group{}, steps: "groupadd g", noop: "Would have created the group"},
		{name: "missing, gid, system, members", want: group{gid: gid(7), system: true, members: []string{"a", "c"}, exact: true},
			steps: "groupadd --gid 7 --system g\ngpasswd --members a,c g", noop: "Would have created the group; set the members to a, c"},
		{name: "missing, no members", want: group{members: []string{}, exact: true}, steps: "groupadd g"},
		{name: "there, as wanted", want: group{gid: gid(100), members: []string{"b", "a"}, exact: true}, have: have},
		{name: "there, members unmanaged", want: group{}, have: have},
		{name: "there, gid", want: group{gid: gid(101)}, have: have, steps: "groupmod --gid 101 g", noop: "Would have changed the gid to 101"},
		{name: "there, exact, one extra", want: group{members: []string{"a"}, exact: true}, have: have,
			steps: "gpasswd --members a g", noop: "Would have set the members to a"},
		{name: "there, exact, emptied", want: group{members: []string{}, exact: true}, have: have,
			steps: "gpasswd --members  g", noop: "Would have set the members to none"},
		{name: "there, exact, one missing", want: group{members: []string{"a", "b", "c"}, exact: true}, have: have,
			steps: "gpasswd --add c g", noop: "Would have added c"},
		{name: "there, minimum, others kept", want: group{members: []string{"c", "d"}}, have: have,
			steps: "gpasswd --add c g\ngpasswd --add d g", noop: "Would have added c; added d"},
		{name: "there, minimum, in", want: group{members: []string{"b"}}, have: have},
		{name: "there, gid and members", want: group{gid: gid(5), members: []string{"c"}, exact: true}, have: have,
			steps: "groupmod --gid 5 g\ngpasswd --members c g", noop: "Would have changed the gid to 5; set the members to c"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := c.want
			g.name = "g"
			d := drift{have: c.have}
			if c.have != nil {
				d.gid = g.gid != nil && *g.gid != c.have.GID
				if g.members != nil {
					d.add, d.extra = accounts.Membership(c.have.Members, g.members, g.exact)
				}
			}
			plan := g.plan(d)
			var steps []string
			for _, s := range plan {
				steps = append(steps, s.Tool+" "+strings.Join(s.Args, " "))
			}
			if got := strings.Join(steps, "\n"); got != c.steps {
				t.Errorf("steps\n%s\nwant\n%s", got, c.steps)
			}
			if c.noop != "" {
				if got := accounts.NoopMessage(plan); got != c.noop {
					t.Errorf("noop message %q, want %q", got, c.noop)
				}
			}
		})
	}
}
