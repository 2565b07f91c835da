package agent

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/reactive-ccm/ccm/resources/document"
	"go.yaml.in/yaml/v3"
)

// DefaultPath is where upstream keeps the agent's configuration.
const DefaultPath = "/etc/choria/ccm/config.yaml"

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
	// MonitorPort serves Prometheus metrics when not 0.
	MonitorPort int    `yaml:"monitor_port"`
	LogLevel    string `yaml:"log_level"`
	NATSContext string `yaml:"nats_context"`
	// Interval is upstream's apply period, here the period of the full
	// re-check (changes are handled as they happen).
	Interval            Duration `yaml:"interval"`
	HealthCheckInterval Duration `yaml:"health_check_interval"`
	// Registration is upstream's service registration, which ccm does not
	// offer.
	Registration string `yaml:"registration"`
}

// Duration is a Go duration written as a string ("5m", "90s").
type Duration time.Duration

// UnmarshalYAML parses a duration string.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil || v < 0 {
		return fmt.Errorf("line %d:%d: %q is not a duration such as 30s, 5m or 1h", n.Line, n.Column, n.Value)
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
// defaults.
func Parse(file string, b []byte) (*Config, error) {
	c := &Config{LogLevel: "info", Interval: Duration(DefaultInterval)}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: %s: %w", ErrConfig, file, err)
	}
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrConfig, file, err)
	}
	return c, nil
}

func (c *Config) check() error {
	var errs []error
	if len(c.Manifests) == 0 {
		errs = append(errs, errors.New("manifests: list at least one manifest source"))
	}
	if time.Duration(c.Interval) < MinInterval {
		errs = append(errs, fmt.Errorf("interval: must be at least %s", MinInterval))
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("log_level %q: want debug, info, warn or error", c.LogLevel))
	}
	if c.MonitorPort < 0 || c.MonitorPort > 65535 {
		errs = append(errs, fmt.Errorf("monitor_port %d: not a port", c.MonitorPort))
	}
	switch c.Registration {
	case "", "nats", "jetstream":
	default:
		errs = append(errs, fmt.Errorf("registration %q: want nats or jetstream", c.Registration))
	}
	return errors.Join(errs...)
}
