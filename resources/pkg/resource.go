package pkg

import (
	"context"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

// pollInterval re-checks packages even when the package database's files
// send no events.
const pollInterval = 60 * time.Second

// resource is one package kept at its ensure value by a package manager.
type resource struct {
	name   string
	ensure string
	m      manager.Manager
}

var _ resources.Resource = (*resource)(nil)

// Watch asks for the package database's files and a poll every minute.
func (r *resource) Watch() resources.WatchSpec {
	w := r.m.Watch()
	w.Poll = pollInterval
	return w
}

// Check reports the installed version ("absent" when not installed) and
// whether it meets ensure. It runs package-manager queries only, together
// with other checks but never during a change.
func (r *resource) Check(ctx context.Context) (resources.Status, error) {
	defer lock(false)()
	installed, s, err := r.assess(ctx)
	if err != nil {
		return resources.Status{}, err
	}
	st := resources.Status{Ensure: ensureOf(installed), Desired: s.action == manager.None}
	if !st.Desired {
		st.Differences = []resources.Difference{s.diff}
	}
	return st, nil
}

// Apply waits until no other program is changing the package database,
// decides again from a fresh status under the lock, then installs,
// upgrades, downgrades or uninstalls; in noop it only says what it would
// have done. Changed is true when the installed version differs after.
func (r *resource) Apply(ctx context.Context, req resources.Request) (resources.Change, error) {
	if req.Noop {
		defer lock(false)()
		_, s, err := r.assess(ctx)
		if err != nil || s.action == manager.None {
			return resources.Change{}, err
		}
		return resources.Change{Changed: true, NoopMessage: s.noop}, nil
	}
	res := r.ApplyGroup(ctx, []resources.GroupMember{{Resource: r, Request: req}})[0]
	return res.Change, res.Err
}

// assess returns the installed version and the step ensure asks for.
func (r *resource) assess(ctx context.Context) (string, step, error) {
	installed, err := r.m.Status(ctx, r.name)
	if err != nil {
		return "", step{}, err
	}
	s, err := r.decide(ctx, installed)
	return installed, s, err
}

// change is the change s makes to the package.
func (r *resource) change(s step) manager.Change {
	return manager.Change{Op: s.action, Name: r.name, Version: s.version}
}

// ensureOf is the observed state in the ensure vocabulary.
func ensureOf(installed string) string {
	if installed == "" {
		return ensureAbsent
	}
	return installed
}
