package agent

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/document"
	"go.yaml.in/yaml/v3"
)

// DefaultPath is where upstream's packaged unit (ccm-agent.service) has
// the agent read its configuration.
const DefaultPath = "/etc/choria/ccm/agent.yaml"

// LegacyPath is where upstream's docs, and ccm before, kept it; it is
// still read when DefaultPath does not exist.
const LegacyPath = "/etc/choria/ccm/config.yaml"

// Locate returns the configuration file to read when none is named: path,
// or legacy when only legacy exists (legacy is then true).
func Locate(path, legacy string) (string, bool) {
	if _, err := os.Lstat(path); err != nil {
		if _, lerr := os.Lstat(legacy); lerr == nil {
			return legacy, true
		}
	}
	return path, false
}

// Upstream's bounds and defaults.
const (
	DefaultInterval = 5 * time.Minute
	MinInterval     = 30 * time.Second
)

// ErrConfig is a configuration file ccm cannot use.
var ErrConfig = errors.New("agent configuration")

// Config is upstream's agent configuration.
type Config struct {
	// Manifests are the manifest sources: paths, obj://BUCKET/KEY and
	// http(s):// bundles.
	Manifests []string `yaml:"manifests"`
	// ExternalDataURL is a hiera source (a file, file://, kv:// or
	// http(s)://) merged over every manifest's data.
	ExternalDataURL string `yaml:"external_data_url"`
	// CacheDir is where fetched bundles and data are cached; empty for the
	// state directory's.
	CacheDir string `yaml:"cache_dir"`
	// MonitorPort serves Prometheus metrics on 127.0.0.1 at this port
	// when not 0.
	MonitorPort int    `yaml:"monitor_port"`
	LogLevel    string `yaml:"log_level"`
	NATSContext string `yaml:"nats_context"`
	// Interval is upstream's apply period, here the period of the full
	// re-check (changes are handled as they happen).
	Interval            Duration `yaml:"interval"`
	HealthCheckInterval Duration `yaml:"health_check_interval"`
	// Registration publishes the registrations of stable resources:
	// nats or jetstream (ccm run --register).
	Registration string `yaml:"registration"`
}

// Duration is a Go duration written as a string ("5m", "90s").
type Duration time.Duration

// UnmarshalYAML parses a duration string.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil || v < 0 {
		return fmt.Errorf("%q is not a duration such as 30s, 5m or 1h", n.Value)
	}
	*d = Duration(v)
	return nil
}

// Read reads and checks the configuration in file.
func Read(file string) (*Config, error) {
	b, err := document.Read(file)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return Parse(file, b)
}

// Parse checks a configuration read from file, applying upstream's
// defaults. Every problem is reported, each at its position.
func Parse(file string, b []byte) (*Config, error) {
	c := &Config{LogLevel: "info", Interval: Duration(DefaultInterval)}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrConfig, file, err)
	}
	if len(doc.Content) == 0 {
		return nil, fmt.Errorf("%w: %s: empty; list at least one manifest source under manifests", ErrConfig, file)
	}
	if err := graph.PrepareYAML(file, &doc); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	m := doc.Content[0]
	if err := resources.DecodeDocument(file, "the agent configuration", m, c); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err := c.check(file, m); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return c, nil
}

// check reports the settings that decode but cannot be used, at the
// position of their value in m (of the document when missing).
func (c *Config) check(file string, m *yaml.Node) error {
	var errs resources.ErrorList
	at := func(key string) resources.Pos {
		n := m
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == key {
				n = m.Content[i+1]
			}
		}
		return resources.Pos{File: file, Line: n.Line, Col: n.Column}
	}
	if len(c.Manifests) == 0 {
		errs.Addf(at("manifests"), "manifests: list at least one manifest source")
	}
	if time.Duration(c.Interval) < MinInterval {
		errs.Addf(at("interval"), "interval: must be at least %s", MinInterval)
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		errs.Addf(at("log_level"), "log_level %q: want debug, info, warn or error", c.LogLevel)
	}
	if c.MonitorPort < 0 || c.MonitorPort > 65535 {
		errs.Addf(at("monitor_port"), "monitor_port %d: not a port", c.MonitorPort)
	}
	switch c.Registration {
	case "", "nats", "jetstream":
	default:
		errs.Addf(at("registration"), "registration %q: want nats or jetstream", c.Registration)
	}
	return errs.Err()
}
