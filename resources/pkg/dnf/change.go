package dnf

import (
	"context"
	"strings"

	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

// checkUpdateAvailable is dnf check-update's exit code when updates exist.
const checkUpdateAvailable = 100

// Newer asks dnf check-update whether an upgrade of name exists and
// returns the version it would install.
func (p *Provider) Newer(ctx context.Context, name, _ string) (string, error) {
	c, res, err := p.run(ctx, queryTimeout, "dnf", "check-update", "-q", name)
	switch {
	case err != nil:
		return "", err
	case res.ExitCode == 0:
		return "", nil
	case res.ExitCode != checkUpdateAvailable:
		return "", manager.CommandFailed(c, res)
	}
	return parseCheckUpdate(string(res.Stdout), name), nil
}

// parseCheckUpdate finds name's line, "NAME.ARCH VERSION REPO", in the
// list of updates; obsoletes listed after it are ignored.
func parseCheckUpdate(out, name string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "Obsoleting Packages") {
			break
		}
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		if i := strings.LastIndexByte(f[0], '.'); i > 0 && f[0][:i] == name {
			return f[1]
		}
	}
	return ""
}

// Change runs dnf with the command each change takes, consecutive
// changes taking the same command in one run: dnf install for an install
// (NAME for any or the latest version, NAME-VERSION for an exact one) and
// for an upgrade to an exact version, which dnf makes whatever version is
// installed; dnf upgrade for an upgrade to Latest, because dnf install
// leaves an installed package alone; dnf downgrade NAME-VERSION; dnf
// remove.
func (p *Provider) Change(ctx context.Context, cs ...manager.Change) error {
	for _, run := range manager.Runs(cs, verb) {
		args := []string{verb(run[0]), "-y"}
		for _, c := range run {
			args = append(args, spec(c))
		}
		if err := p.change(ctx, args...); err != nil {
			return err
		}
	}
	return nil
}

// verb is the dnf command c takes.
func verb(c manager.Change) string {
	switch {
	case c.Op == manager.Uninstall:
		return "remove"
	case c.Op == manager.Downgrade:
		return "downgrade"
	case c.Op == manager.Upgrade && c.Version == manager.Latest:
		return "upgrade"
	}
	return "install"
}

// spec names c's package for dnf: NAME-VERSION for an exact version.
func spec(c manager.Change) string {
	if c.Version == "" || c.Version == manager.Latest || c.Op == manager.Uninstall {
		return c.Name
	}
	return c.Name + "-" + c.Version
}

func (p *Provider) change(ctx context.Context, args ...string) error {
	c, res, err := p.run(ctx, changeTimeout, "dnf", args...)
	if err != nil {
		return err
	}
	if res.ExitCode != 0 {
		return manager.CommandFailed(c, res)
	}
	return nil
}
