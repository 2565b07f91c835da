package group

import (
	"cmp"
	"context"
	"strconv"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/accounts"
	"github.com/reactive-ccm/ccm/resources/internal/command"
)

// providers are the ways of managing groups: shadow's tools.
var providers = []resources.Provider{{Name: "groupadd", Priority: 1, Usable: resources.NeedsCommands("groupadd", "groupmod", "groupdel", "gpasswd")}}

func init() {
	resources.Register(resources.Type{Name: "group", New: New, Props: props{}, Inspect: inspect,
		Help: "Manage a local group: existence, gid and members", NameHelp: "the group's name"})
}

// group is one managed local group.
type group struct {
	name   string
	absent bool
	gid    *int
	system bool
	// members is nil when not managed.
	members []string
	exact   bool
	runner  command.Runner
}

var _ resources.Resource = (*group)(nil)

// New builds a group resource from its manifest properties.
func New(spec *resources.Spec) (resources.Instance, error) {
	p, errs := resources.DecodeProps[props](spec)
	validate(spec, p, errs)
	if err := errs.Err(); err != nil {
		return resources.Instance{}, err
	}
	g := &group{name: spec.Name, absent: p.Ensure == Absent, gid: p.GID, system: p.System,
		exact: p.Membership != Minimum, runner: command.Host}
	if spec.Has("members") {
		g.members = append([]string{}, p.Members...)
	}
	return resources.Instance{Resource: resources.IfUsable(g, p.Provider, providers), Provider: providers[0].Name, Ensure: cmp.Or(p.Ensure, Present)}, nil
}

// Watch asks for events on the group databases.
func (g *group) Watch() resources.WatchSpec {
	return resources.WatchSpec{Paths: []string{accounts.Groups, accounts.GShadow}}
}

// drift is how the group differs from the wanted one.
type drift struct {
	have  *accounts.Group
	gid   bool
	add   []string
	extra []string
}

func (d drift) none() bool { return !d.gid && len(d.add) == 0 && len(d.extra) == 0 }

// look reads the group and compares it.
func (g *group) look() (drift, error) {
	have, err := accounts.LookupGroup(g.name)
	if err != nil || have == nil {
		return drift{have: have}, err
	}
	d := drift{have: have, gid: g.gid != nil && *g.gid != have.GID}
	if g.members != nil {
		d.add, d.extra = accounts.Membership(have.Members, g.members, g.exact)
	}
	return d, nil
}

// Check reports whether the group exists as wanted.
func (g *group) Check(context.Context) (resources.Status, error) {
	d, err := g.look()
	if err != nil {
		return resources.Status{}, err
	}
	if st, done := accounts.Existence(d.have != nil, g.absent); done {
		return st, nil
	}
	st := resources.Status{Ensure: Present, Desired: d.none()}
	if d.gid {
		st.Differences = append(st.Differences, resources.Differs("gid", strconv.Itoa(d.have.GID), strconv.Itoa(*g.gid)))
	}
	if len(d.add) > 0 || len(d.extra) > 0 {
		st.Differences = append(st.Differences, accounts.MembershipDifference("members", d.have.Members, d.add, d.extra))
	}
	return st, nil
}

// Apply creates, changes or removes the group with the tools.
func (g *group) Apply(ctx context.Context, req resources.Request) (resources.Change, error) {
	d, err := g.look()
	if err != nil {
		return resources.Change{}, err
	}
	return accounts.Apply(ctx, g.runner, g.plan(d), req.Noop)
}

// plan lists the tool runs that bring the group from d to the wanted
// state.
func (g *group) plan(d drift) []accounts.Step {
	switch {
	case d.have == nil && g.absent:
		return nil
	case g.absent:
		return []accounts.Step{{What: "removed the group", Tool: "groupdel", Args: []string{g.name}}}
	case d.have == nil:
		return g.create()
	}
	var steps []accounts.Step
	if d.gid {
		steps = append(steps, accounts.Step{What: "changed the gid to " + strconv.Itoa(*g.gid), Tool: "groupmod", Args: []string{"--gid", strconv.Itoa(*g.gid), g.name}})
	}
	switch {
	case len(d.extra) > 0:
		steps = append(steps, accounts.Step{What: "set the members to " + orNone(g.members), Tool: "gpasswd", Args: []string{"--members", strings.Join(g.members, ","), g.name}})
	case len(d.add) > 0:
		for _, m := range d.add {
			steps = append(steps, accounts.Step{What: "added " + m, Tool: "gpasswd", Args: []string{"--add", m, g.name}})
		}
	}
	return steps
}

// create is the groupadd run, and the members it cannot set.
func (g *group) create() []accounts.Step {
	args := []string{}
	if g.gid != nil {
		args = append(args, "--gid", strconv.Itoa(*g.gid))
	}
	if g.system {
		args = append(args, "--system")
	}
	steps := []accounts.Step{{What: "created the group", Tool: "groupadd", Args: append(args, g.name)}}
	if len(g.members) > 0 {
		steps = append(steps, accounts.Step{What: "set the members to " + orNone(g.members), Tool: "gpasswd", Args: []string{"--members", strings.Join(g.members, ","), g.name}})
	}
	return steps
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
