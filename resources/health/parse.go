package health

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/command"
	"go.yaml.in/yaml/v3"
)

// Formats of a health check.
const (
	FormatNagios = "nagios"
	FormatGoss   = "goss"
)

// Defaults upstream documents.
const (
	defaultTries    = 1
	defaultTrySleep = time.Second
)

// DefaultTimeout bounds each try of a check that sets no timeout (ccm's
// own: upstream has no default), so a plugin that hangs cannot hold its
// resource forever.
const DefaultTimeout = 30 * time.Second

// defaultTimeout is DefaultTimeout, shortened by tests.
var defaultTimeout = DefaultTimeout

// props is one health_checks entry as written; templates in its strings
// are resolved when the manifest loads, like upstream's.
type props resources.HealthCheckProps

// settings are what every format shares once validated.
type settings struct {
	name    string
	timeout time.Duration
	// grace is how long a plugin stopped by its timeout has after
	// SIGTERM; 0 for the runner's default.
	grace    time.Duration
	tries    int
	trySleep time.Duration
	interval time.Duration
}

// Parse reads the health_checks list n of the resource spec describes.
// Every problem is reported with its position, all together.
func Parse(spec *resources.Spec, n *yaml.Node) ([]resources.HealthCheck, error) {
	return resources.ParseList(spec, n, "health_checks", "checks", parseOne)
}

// parseOne decodes and validates one entry through the strict decoder
// resources use for their own properties.
func parseOne(spec *resources.Spec, item *yaml.Node) (resources.HealthCheck, error) {
	if item.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%w: expected a map with command or goss_rules", ErrBadCheck)
	}
	sub := &resources.Spec{Type: spec.Type, Name: spec.Name, Props: item, Pos: spec.Pos, Dir: spec.Dir, Templates: spec.Templates}
	var p props
	if err := sub.Decode(&p); err != nil {
		return nil, err
	}
	format, err := p.format(sub)
	if err != nil {
		return nil, err
	}
	s, err := p.settings(sub)
	if err != nil {
		return nil, err
	}
	if format == FormatGoss {
		return newGoss(s, p.GossRules)
	}
	return newNagios(s, strings.TrimSpace(p.Command))
}

// format checks that exactly one of command and goss_rules is set and
// agrees with format, which is inferred when not written.
func (p *props) format(spec *resources.Spec) (string, error) {
	hasCmd, hasRules := spec.Has("command"), spec.Has("goss_rules")
	switch {
	case hasCmd && hasRules:
		return "", fmt.Errorf("%w: set command or goss_rules, not both", ErrBadCheck)
	case !hasCmd && !hasRules:
		return "", fmt.Errorf("%w: set command (a Nagios plugin) or goss_rules", ErrBadCheck)
	}
	want := FormatNagios
	if hasRules {
		want = FormatGoss
	}
	switch p.Format {
	case "", want:
		return want, nil
	case FormatNagios:
		return "", fmt.Errorf("%w: format nagios needs command", ErrBadCheck)
	case FormatGoss:
		return "", fmt.Errorf("%w: format goss needs goss_rules", ErrBadCheck)
	}
	return "", fmt.Errorf("%w: format %q is not one of nagios, goss", ErrBadCheck, p.Format)
}

// settings applies the defaults and checks the numbers and durations.
func (p *props) settings(spec *resources.Spec) (settings, error) {
	s := settings{name: p.Name, timeout: defaultTimeout, tries: defaultTries, trySleep: defaultTrySleep}
	if p.Tries != nil {
		if *p.Tries < 1 {
			return s, fmt.Errorf("%w: tries: %d must be at least 1", ErrBadCheck, *p.Tries)
		}
		s.tries = *p.Tries
	}
	for _, d := range []struct {
		key, value string
		dst        *time.Duration
		zeroOK     bool
	}{
		{"timeout", p.Timeout, &s.timeout, false},
		{"timeout_grace", p.TimeoutGrace, &s.grace, false},
		{"try_sleep", p.TrySleep, &s.trySleep, true},
		{"interval", p.Interval, &s.interval, false},
	} {
		if !spec.Has(d.key) {
			continue
		}
		v, err := time.ParseDuration(d.value)
		if err != nil || v < 0 || (v == 0 && !d.zeroOK) {
			return s, fmt.Errorf("%w: %s: %q is not a positive duration such as 10s or 1m", ErrBadCheck, d.key, d.value)
		}
		*d.dst = v
	}
	return s, nil
}

// defaultName is the base name of a plugin's program, as upstream names a
// check after its command.
func defaultName(line string) string {
	prog, _, err := command.Split(line)
	if err != nil {
		return ""
	}
	return filepath.Base(prog)
}
