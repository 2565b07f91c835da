package pkg

import (
	"context"
	"fmt"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

var _ resources.Groupable = (*resource)(nil)

// GroupKey puts packages of one provider together, those to install,
// upgrade or downgrade apart from those to remove: apt-get install a b=2,
// apt-get remove c d.
func (r *resource) GroupKey() string {
	kind := "install"
	if r.ensure == ensureAbsent {
		kind = "remove"
	}
	return "package/" + r.m.Name() + "/" + kind
}

// member is one package of a group and what converging it takes.
type member struct {
	r *resource
	// before is the version installed when the group was decided.
	before string
	s      step
	res    resources.GroupResult
}

// ApplyGroup converges members as Apply would each, under one hold of the
// lock: every package is decided from a fresh status, then the changes go
// to the package manager together. When that run fails, each package
// still to change is decided again and changed on its own, so that each
// gets its own outcome: the packages that can be changed are, and a
// failure is the failing package's alone. A lone change runs exactly the
// command Apply always ran.
func (r *resource) ApplyGroup(ctx context.Context, members []resources.GroupMember) []resources.GroupResult {
	ms := make([]*member, len(members))
	for i, gm := range members {
		ms[i] = &member{}
		if p, ok := gm.Resource.(*resource); ok && p.m == r.m {
			ms[i].r = p
		} else {
			ms[i].res.Err = fmt.Errorf("%w: %T is no package of provider %s", resources.ErrNotGroupable, gm.Resource, r.m.Name())
		}
	}
	if err := r.waitIdle(ctx); err != nil {
		return failAll(ms, err)
	}
	defer lock(true)()
	todo := decide(ctx, ms)
	if len(todo) > 0 {
		changes := make([]manager.Change, len(todo))
		for i, m := range todo {
			changes[i] = m.r.change(m.s)
		}
		err := r.m.Change(ctx, changes...)
		switch {
		case err != nil && len(todo) == 1:
			todo[0].res.Err = err
		case err != nil:
			alone(ctx, todo)
		}
	}
	for _, m := range todo {
		m.verify(ctx)
	}
	out := make([]resources.GroupResult, len(ms))
	for i, m := range ms {
		out[i] = m.res
	}
	return out
}

// waitIdle waits for other programs changing the package database to
// finish, when the manager can tell.
func (r *resource) waitIdle(ctx context.Context) error {
	if i, ok := r.m.(manager.Idler); ok {
		return i.WaitIdle(ctx)
	}
	return nil
}

// decide assesses each member from a fresh status and returns those with
// a change to make, in order.
func decide(ctx context.Context, ms []*member) []*member {
	var todo []*member
	for _, m := range ms {
		if m.r == nil {
			continue
		}
		m.before, m.s, m.res.Err = m.r.assess(ctx)
		if m.res.Err == nil && m.s.action != manager.None {
			todo = append(todo, m)
		}
	}
	return todo
}

// alone changes each member on its own, after a run of them all failed:
// decided again, since that run may have changed some before failing.
func alone(ctx context.Context, todo []*member) {
	for _, m := range todo {
		var s step
		if _, s, m.res.Err = m.r.assess(ctx); m.res.Err != nil || s.action == manager.None {
			continue
		}
		m.res.Err = m.r.m.Change(ctx, m.r.change(s))
	}
}

// verify sets Changed of a member that changed without error: whether
// the installed version differs from the one it was decided on.
func (m *member) verify(ctx context.Context) {
	if m.res.Err != nil {
		return
	}
	after, err := m.r.m.Status(ctx, m.r.name)
	if err != nil {
		m.res.Err = fmt.Errorf("checking %s after the change: %w", m.r.name, err)
		return
	}
	m.res.Change.Changed = after != m.before
}

func failAll(ms []*member, err error) []resources.GroupResult {
	out := make([]resources.GroupResult, len(ms))
	for i, m := range ms {
		out[i] = m.res
		if out[i].Err == nil {
			out[i].Err = err
		}
	}
	return out
}
