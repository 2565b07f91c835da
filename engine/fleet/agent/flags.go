package agent

import (
	"fmt"
	"net"
	"sort"
	"strconv"
	"time"

	"github.com/spf13/pflag"
)

// Flags is the configuration as the `ccm run` flags it stands for, by
// flag name; a setting left empty is left out, so the flag keeps its
// default. The agent always watches.
func (c *Config) Flags() map[string]string {
	set := map[string]string{
		"watch":     "true",
		"recheck":   time.Duration(c.Interval).String(),
		"log-level": c.LogLevel,
		"context":   c.NATSContext,
		"hiera":     c.ExternalDataURL,
		"cache-dir": c.CacheDir,
		"register":  c.Registration,
	}
	if c.HealthCheckInterval > 0 {
		set["health-interval"] = time.Duration(c.HealthCheckInterval).String()
	}
	if c.MonitorPort > 0 {
		// Loopback only: --metrics-listen names another address.
		set["metrics-listen"] = net.JoinHostPort("127.0.0.1", strconv.Itoa(c.MonitorPort))
		// Upstream's agent always exports its per-resource series.
		set["metrics-resources"] = "true"
	}
	for name, v := range set {
		if v == "" {
			delete(set, name)
		}
	}
	return set
}

// Apply sets the flags of fs the configuration speaks for (Flags),
// except those given on the command line, which win over the file. It
// returns, sorted, the settings fs has no flag for, which are left out.
func (c *Config) Apply(fs *pflag.FlagSet) (unsupported []string, err error) {
	for name, v := range c.Flags() {
		fl := fs.Lookup(name)
		switch {
		case fl == nil:
			unsupported = append(unsupported, name)
		case !fl.Changed && err == nil:
			if serr := fs.Set(name, v); serr != nil {
				err = fmt.Errorf("%s: %w", name, serr)
			}
		}
	}
	sort.Strings(unsupported)
	return unsupported, err
}
