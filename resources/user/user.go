package user

import (
	"cmp"
	"context"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/accounts"
	"github.com/reactive-ccm/ccm/resources/internal/command"
)

// providers are the ways of managing users: shadow's tools.
var providers = []resources.Provider{{Name: "useradd", Priority: 1, Usable: resources.NeedsCommands("useradd", "usermod", "userdel", "chpasswd")}}

func init() {
	resources.Register(resources.Type{Name: "user", New: New, Props: props{}, Inspect: inspect, Redact: redact,
		Help: "Manage a local user: existence, ids, groups, home, shell, comment, password hash and expiry", NameHelp: "the user's login name"})
}

// user is one managed local account. Unset properties are not managed:
// their fields are nil or "".
type user struct {
	name       string
	absent     bool
	uid        *int
	gid        string
	groups     []string
	exact      bool
	home       string
	manageHome bool
	shell      string
	comment    *string
	system     bool
	password   *string
	// expiry is in days since 1970-01-01, -1 for never.
	expiry *int
	runner command.Runner
}

var _ resources.Resource = (*user)(nil)

// New builds a user resource from its manifest properties.
func New(spec *resources.Spec) (resources.Instance, error) {
	p, errs := resources.DecodeProps[props](spec)
	validate(spec, p, errs)
	if err := errs.Err(); err != nil {
		return resources.Instance{}, err
	}
	u := &user{name: spec.Name, absent: p.Ensure == Absent, uid: p.UID, gid: p.GID, exact: p.Membership == Exact,
		home: p.Home, manageHome: p.ManageHome, shell: p.Shell, system: p.System, runner: command.Host}
	if spec.Has("groups") {
		u.groups = append([]string{}, p.Groups...)
	}
	if spec.Has("comment") {
		u.comment = &p.Comment
	}
	if spec.Has("password") {
		u.password = &p.Password
		spec.Secrets.Add(p.Password)
	}
	if spec.Has("expiry") {
		days := expiryDays(p.Expiry)
		u.expiry = &days
	}
	inst := resources.Instance{Resource: resources.IfUsable(u, p.Provider, providers), Provider: providers[0].Name, Ensure: cmp.Or(p.Ensure, Present)}
	if p.ManageHome && p.Home != "" && !u.absent {
		inst.Owns = []string{p.Home}
	}
	return inst, nil
}

// Watch asks for events on the account databases.
func (u *user) Watch() resources.WatchSpec {
	return resources.WatchSpec{Paths: accounts.Databases}
}

// Check reports whether the account exists as wanted, and what differs.
func (u *user) Check(context.Context) (resources.Status, error) {
	have, diffs, err := u.look()
	if err != nil {
		return resources.Status{}, err
	}
	if st, done := accounts.Existence(have != nil, u.absent); done {
		return st, nil
	}
	st := resources.Status{Ensure: Present, Desired: len(diffs) == 0}
	for _, d := range diffs {
		st.Differences = append(st.Differences, d.Difference)
	}
	return st, nil
}

// Apply creates, changes or removes the account with the tools.
func (u *user) Apply(ctx context.Context, req resources.Request) (resources.Change, error) {
	have, diffs, err := u.look()
	if err != nil {
		return resources.Change{}, err
	}
	return accounts.Apply(ctx, u.runner, u.plan(have, diffs), req.Noop)
}
