package apt

import (
	"context"
	"fmt"

	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

// Install runs apt-get install, keeping changed configuration files
// (--force-confold). For Latest it installs apt's candidate by its exact
// version; for an exact version it allows downgrades, so the same call
// moves a package either way.
func (p *Provider) Install(ctx context.Context, name, version string) error {
	args := []string{"install", "-y", "-q", "-o", "DPkg::Options::=--force-confold"}
	target := name
	switch version {
	case "":
	case manager.Latest:
		cand, err := candidate(ctx, name)
		if err != nil {
			return err
		}
		if cand == "" {
			return fmt.Errorf("%w for %s: apt knows no version of it; ccm never runs apt-get update, so add an exec resource that does, or check the sources", ErrNoCandidate, name)
		}
		target = name + "=" + cand
	default:
		args = append(args, "--allow-downgrades")
		target = name + "=" + version
	}
	return change(ctx, append(args, target)...)
}

// Upgrade installs version over an older one.
func (p *Provider) Upgrade(ctx context.Context, name, version string) error {
	return p.Install(ctx, name, version)
}

// Downgrade installs version over a newer one.
func (p *Provider) Downgrade(ctx context.Context, name, version string) error {
	return p.Install(ctx, name, version)
}

// Uninstall runs apt-get remove, not purge: configuration files stay.
func (p *Provider) Uninstall(ctx context.Context, name string) error {
	return change(ctx, "-q", "-y", "remove", name)
}

func change(ctx context.Context, args ...string) error {
	c, res, err := run(ctx, changeTimeout, "apt-get", args...)
	if err != nil {
		return fmt.Errorf("%s: %w", manager.CommandLine(c), err)
	}
	if res.ExitCode != 0 {
		return manager.CommandFailed(c, res)
	}
	return nil
}
