package apt

import (
	"context"
	"os"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/pkg/internal/statuscache"
	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

// Name is the provider's name in manifests.
const Name = "apt"

const (
	// statusFile is dpkg's database; dpkg replaces it at the end of every
	// run. updatesDir holds dpkg's journal while a run is in progress.
	statusFile = "/var/lib/dpkg/status"
	updatesDir = "/var/lib/dpkg/updates"

	queryTimeout  = 5 * time.Minute
	changeTimeout = time.Hour
)

// Options configure a Provider.
type Options struct {
	// Runner runs apt-get, apt-cache and dpkg-query; command.Host when nil.
	Runner command.Runner
}

// Provider is the apt package manager. One Provider serves every package
// resource of the process, so that their status checks share queries.
type Provider struct {
	runner command.Runner
	cache  *statuscache.Cache
}

var (
	_ manager.Manager = (*Provider)(nil)
	_ manager.Idler   = (*Provider)(nil)
)

// New returns a Provider with nothing cached.
func New(o Options) *Provider {
	p := &Provider{runner: o.Runner}
	if p.runner == nil {
		p.runner = command.Host
	}
	p.cache = statuscache.New(statuscache.Options{Paths: []string{statusFile, updatesDir}, Query: p.query, HashRecent: true})
	return p
}

// Name returns "apt".
func (p *Provider) Name() string { return Name }

// Watch names dpkg's status file.
func (p *Provider) Watch() resources.WatchSpec {
	return resources.WatchSpec{Paths: []string{statusFile}}
}

// Track announces a package the first status query should include.
func (p *Provider) Track(name string) { p.cache.Track(name) }

// Status returns the installed version of name, "" when its dpkg status is
// anything but installed. Concurrent and repeated calls share one
// dpkg-query for all tracked packages until dpkg's database changes.
func (p *Provider) Status(ctx context.Context, name string) (string, error) {
	return p.cache.Status(ctx, name)
}

// Queries returns how many dpkg-query runs Status has needed so far.
func (p *Provider) Queries() uint64 { return p.cache.Queries() }

// VersionCmp orders two Debian versions.
func (p *Provider) VersionCmp(a, b string) (int, error) { return CompareVersions(a, b) }

// run runs an apt or dpkg program in the environment the package says.
func (p *Provider) run(ctx context.Context, timeout time.Duration, name string, args ...string) (command.Cmd, command.Result, error) {
	c := command.Cmd{Name: name, Args: args, Env: env(), Timeout: timeout}
	res, err := p.runner.Run(ctx, c)
	return c, res, err
}

func env() []string {
	e := []string{
		"DEBIAN_FRONTEND=noninteractive",
		"APT_LISTBUGS_FRONTEND=none",
		"APT_LISTCHANGES_FRONTEND=none",
	}
	if c, ok := os.LookupEnv("APT_CONFIG"); ok {
		e = append(e, "APT_CONFIG="+c)
	}
	return e
}
