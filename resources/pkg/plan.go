package pkg

import (
	"context"
	"fmt"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

// step is one row of the design's decision table, applied to what is
// installed.
type step struct {
	// action is what converging the package takes; manager.None for
	// nothing.
	action manager.Op
	// version is passed to the provider: "", manager.Latest or exact.
	version string
	// diff says what differs, for reports: the installed version (or
	// absent) → ensure.
	diff resources.Difference
	// noop is what noop mode reports instead of acting.
	noop string
}

// decide returns the step that brings the package, installed at
// installed ("" for not installed), to its ensure value. For latest it
// asks the package manager whether a newer version exists, so that an
// up-to-date package is left alone instead of being upgraded on every
// check.
func (r *resource) decide(ctx context.Context, installed string) (step, error) {
	ensure := r.ensure
	switch {
	case ensure == ensureAbsent:
		if installed == "" {
			return step{}, nil
		}
		return step{action: manager.Uninstall, diff: resources.Differs("ensure", installed, ensureAbsent), noop: "Would have uninstalled"}, nil
	case installed == "":
		return installStep(ensure), nil
	case ensure == ensurePresent:
		return step{}, nil
	case ensure == ensureLatest:
		return r.upgradeToLatest(ctx, installed)
	}
	cmp, err := r.m.VersionCmp(installed, ensure)
	if err != nil {
		return step{}, fmt.Errorf("comparing installed %s with ensure %s: %w", installed, ensure, err)
	}
	switch cmp {
	case -1:
		return step{action: manager.Upgrade, version: ensure, diff: resources.Differs("ensure", installed, ensure), noop: "Would have upgraded to " + ensure}, nil
	case 1:
		return step{action: manager.Downgrade, version: ensure, diff: resources.Differs("ensure", installed, ensure), noop: "Would have downgraded to " + ensure}, nil
	}
	return step{}, nil
}

// installStep installs a package that is not installed. The noop message
// for present is the design's "installed version X" with X the ensure
// value, as upstream CCM prints it.
func installStep(ensure string) step {
	s := step{action: manager.Install, diff: resources.Differs("ensure", ensureAbsent, ensure)}
	switch ensure {
	case ensureLatest:
		s.version, s.noop = manager.Latest, "Would have installed latest"
	case ensurePresent:
		s.noop = "Would have installed version " + ensure
	default:
		s.version, s.noop = ensure, "Would have installed version "+ensure
	}
	return s
}

func (r *resource) upgradeToLatest(ctx context.Context, installed string) (step, error) {
	newer, err := r.m.Newer(ctx, r.name, installed)
	if err != nil || newer == "" {
		return step{}, err
	}
	return step{
		action:  manager.Upgrade,
		version: manager.Latest,
		diff:    resources.Difference{Property: "ensure", Observed: installed, Desired: ensureLatest, Note: newer + " available"},
		noop:    "Would have upgraded to latest",
	}, nil
}
