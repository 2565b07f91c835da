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

// Install runs dnf install: NAME for any or the latest version, or
// NAME-VERSION for an exact one.
func (p *Provider) Install(ctx context.Context, name, version string) error {
	return p.change(ctx, "install", "-y", spec(name, version))
}

// Upgrade runs dnf upgrade for Latest, because dnf install leaves an
// installed package alone; for an exact version it installs NAME-VERSION,
// which dnf does whatever version is installed.
func (p *Provider) Upgrade(ctx context.Context, name, version string) error {
	if version == manager.Latest {
		return p.change(ctx, "upgrade", "-y", name)
	}
	return p.Install(ctx, name, version)
}

// Downgrade runs dnf downgrade NAME-VERSION.
func (p *Provider) Downgrade(ctx context.Context, name, version string) error {
	return p.change(ctx, "downgrade", "-y", spec(name, version))
}

// Uninstall runs dnf remove.
func (p *Provider) Uninstall(ctx context.Context, name string) error {
	return p.change(ctx, "remove", "-y", name)
}

func spec(name, version string) string {
	if version == "" || version == manager.Latest {
		return name
	}
	return name + "-" + version
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
