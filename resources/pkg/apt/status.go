package apt

import (
	"context"
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

// statusFormat is the design's dpkg-query format, one line per package.
const statusFormat = `${Package} ${Version} ${Architecture} ${db:Status-Status}\n`

// query asks dpkg-query about every name in one run. dpkg-query exits 1
// when some names are unknown to dpkg, which only means they are absent.
func (p *Provider) query(ctx context.Context, names []string) (map[string]string, error) {
	c, res, err := p.run(ctx, queryTimeout, "dpkg-query", append([]string{"-W", "-f=" + statusFormat}, names...)...)
	if err != nil {
		return nil, fmt.Errorf("querying dpkg: %w", err)
	}
	if res.ExitCode > 1 {
		return nil, manager.CommandFailed(c, res)
	}
	return parseStatus(string(res.Stdout)), nil
}

// parseStatus maps each installed package, by name and by name:arch, to its
// version. A package installed for several architectures answers to its
// bare name with the first one dpkg lists.
func parseStatus(out string) map[string]string {
	installed := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(line, " ")
		if len(f) != 4 || f[3] != "installed" {
			continue
		}
		name, version, arch := f[0], f[1], f[2]
		if _, seen := installed[name]; !seen {
			installed[name] = version
		}
		installed[name+":"+arch] = version
	}
	return installed
}
