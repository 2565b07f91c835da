package dnf

import (
	"context"
	"fmt"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/pkg/internal/statuscache"
	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

// Name is the provider's name in manifests.
const Name = "dnf"

// DBDir is the rpm database directory (a link to /usr/lib/sysimage/rpm on
// recent Fedora, which the watch follows).
const DBDir = "/var/lib/rpm"

const (
	queryTimeout  = 5 * time.Minute
	changeTimeout = time.Hour
)

// Options configure a Provider.
type Options struct {
	// Runner runs rpm and dnf; command.Host when nil.
	Runner command.Runner
	// DBDir is the rpm database directory; DBDir when empty.
	DBDir string
	// Now is the clock that tells how recently the database changed;
	// time.Now when nil.
	Now func() time.Time
}

// Provider is the dnf package manager. One Provider serves every package
// resource of the process, so that their status checks share queries.
type Provider struct {
	runner command.Runner
	dbDir  string
	cache  *statuscache.Cache
}

var _ manager.Manager = (*Provider)(nil)

// New returns a Provider with nothing cached.
func New(o Options) *Provider {
	p := &Provider{runner: o.Runner, dbDir: o.DBDir}
	if p.runner == nil {
		p.runner = command.Host
	}
	if p.dbDir == "" {
		p.dbDir = DBDir
	}
	p.cache = statuscache.New(statuscache.Options{Paths: []string{p.dbDir}, Query: p.query, Now: o.Now})
	return p
}

// Name returns "dnf".
func (p *Provider) Name() string { return Name }

// Watch names the rpm database directory: every change rpm makes to it
// may be a package change.
func (p *Provider) Watch() resources.WatchSpec {
	return resources.WatchSpec{Trees: []string{p.dbDir}}
}

// Track announces a package the first status query should include.
func (p *Provider) Track(name string) { p.cache.Track(name) }

// Status returns the installed [epoch:]version-release of name, "" when it
// is not installed. Concurrent and repeated calls share one rpm -q for all
// tracked packages until the rpm database changes.
func (p *Provider) Status(ctx context.Context, name string) (string, error) {
	return p.cache.Status(ctx, name)
}

// VersionCmp orders two rpm versions.
func (p *Provider) VersionCmp(a, b string) (int, error) { return CompareVersions(a, b) }

func (p *Provider) run(ctx context.Context, timeout time.Duration, name string, args ...string) (command.Cmd, command.Result, error) {
	c := command.Cmd{Name: name, Args: args, Timeout: timeout}
	res, err := p.runner.Run(ctx, c)
	if err != nil {
		err = fmt.Errorf("%s: %w", manager.CommandLine(c), err)
	}
	return c, res, err
}
