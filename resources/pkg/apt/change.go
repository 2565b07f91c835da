package apt

import (
	"context"
	"fmt"

	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

// installArgs start every apt-get install: keep changed configuration
// files (--force-confold).
var installArgs = []string{"install", "-y", "-q", "-o", "DPkg::Options::=--force-confold"}

// Change runs apt-get install for consecutive installs, upgrades and
// downgrades together, and apt-get remove (not purge: configuration files
// stay) for consecutive uninstalls together.
func (p *Provider) Change(ctx context.Context, cs ...manager.Change) error {
	for _, run := range manager.Runs(cs, verb) {
		args, err := p.args(ctx, run)
		if err == nil {
			err = p.change(ctx, args...)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// verb is the apt-get command a change takes.
func verb(c manager.Change) string {
	if c.Op == manager.Uninstall {
		return "remove"
	}
	return "install"
}

// args is the apt-get command line of one run. apt-get install takes a
// package at apt's candidate by its exact version for Latest, and allows
// downgrades when any version is exact, so the same call moves a package
// either way.
func (p *Provider) args(ctx context.Context, run []manager.Change) ([]string, error) {
	if verb(run[0]) == "remove" {
		args := []string{"-q", "-y", "remove"}
		for _, c := range run {
			args = append(args, c.Name)
		}
		return args, nil
	}
	args := append([]string(nil), installArgs...)
	var targets []string
	downgrades := false
	for _, c := range run {
		target, exact, err := p.target(ctx, c)
		if err != nil {
			return nil, err
		}
		targets = append(targets, target)
		downgrades = downgrades || exact
	}
	if downgrades {
		args = append(args, "--allow-downgrades")
	}
	return append(args, targets...), nil
}

// target is how apt-get install names c's package and version, and
// whether that version is an exact one the manifest asked for.
func (p *Provider) target(ctx context.Context, c manager.Change) (string, bool, error) {
	switch c.Version {
	case "":
		return c.Name, false, nil
	case manager.Latest:
		cand, err := p.candidate(ctx, c.Name)
		if err != nil {
			return "", false, err
		}
		if cand == "" {
			return "", false, fmt.Errorf("%w for %s: apt knows no version of it; ccm never runs apt-get update, so add an exec resource that does, or check the sources", ErrNoCandidate, c.Name)
		}
		return c.Name + "=" + cand, false, nil
	}
	return c.Name + "=" + c.Version, true, nil
}

func (p *Provider) change(ctx context.Context, args ...string) error {
	c, res, err := p.run(ctx, changeTimeout, "apt-get", args...)
	if err != nil {
		return fmt.Errorf("%s: %w", manager.CommandLine(c), err)
	}
	if res.ExitCode != 0 {
		return manager.CommandFailed(c, res)
	}
	return nil
}
