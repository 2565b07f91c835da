package agent

import (
	"net"
	"strconv"
	"time"
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
