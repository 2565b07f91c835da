package dnf

import (
	"context"
	"strings"

	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

// queryFormat is the design's NEVRA format, one line per package.
const queryFormat = `%{NAME} %|EPOCH?{%{EPOCH}}:{0}| %{VERSION} %{RELEASE} %{ARCH}\n`

// query asks rpm about every name in one run. rpm -q exits with the number
// of names it did not find, and says "package NAME is not installed" for
// each; only "error:" lines on stderr mean the query itself failed.
func (p *Provider) query(ctx context.Context, names []string) (map[string]string, error) {
	args := append(append([]string{"-q"}, names...), "--queryformat", queryFormat)
	c, res, err := p.run(ctx, queryTimeout, "rpm", args...)
	if err != nil {
		return nil, err
	}
	if failed(res) {
		return nil, manager.CommandFailed(c, res)
	}
	return parseQuery(string(res.Stdout)), nil
}

func failed(res command.Result) bool {
	for _, l := range strings.Split(string(res.Stderr), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "error:") {
			return true
		}
	}
	return false
}

// parseQuery maps each installed package to its [epoch:]version-release;
// a package installed for several architectures answers with the first.
func parseQuery(out string) map[string]string {
	installed := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 5 || f[0] == "package" {
			continue
		}
		if _, seen := installed[f[0]]; seen {
			continue
		}
		v := f[2] + "-" + f[3]
		if f[1] != "0" {
			v = f[1] + ":" + v
		}
		installed[f[0]] = v
	}
	return installed
}
