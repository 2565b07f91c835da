package health

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/goss-org/goss"
	"github.com/goss-org/goss/outputs"
	gossutil "github.com/goss-org/goss/util"
	"github.com/reactive-ccm/ccm/resources"
	"go.yaml.in/yaml/v3"
)

// gossMu serialises every use of the goss library: it keeps the spec
// being read and its template filter in package variables.
var gossMu sync.Mutex

// gossSections are the rule kinds goss knows; the library ignores any
// other key, so a misspelt kind would pass unnoticed.
var gossSections = []string{
	"addr", "command", "dns", "file", "gossfile", "group", "http", "interface",
	"kernel-param", "matching", "mount", "package", "port", "process", "service", "user",
}

// newGoss builds a Goss check from its rules, which goss reads now so a
// bad rule stops the manifest from loading.
func newGoss(s settings, rules map[string]any) (*check, error) {
	for kind := range rules {
		if !slices.Contains(gossSections, kind) {
			return nil, fmt.Errorf("%w: goss_rules: unknown rule kind %q; goss knows %s", ErrBadCheck, kind, strings.Join(gossSections, ", "))
		}
	}
	spec, err := yaml.Marshal(rules)
	if err != nil {
		return nil, fmt.Errorf("%w: goss_rules: %w", ErrBadCheck, err)
	}
	if err := readRules(spec); err != nil {
		return nil, fmt.Errorf("%w: goss_rules: %w", ErrBadCheck, err)
	}
	if s.name == "" {
		s.name = "goss"
	}
	return &check{settings: s, try: func(ctx context.Context) resources.HealthResult {
		return runGoss(ctx, spec)
	}}, nil
}

// readRules has goss parse spec, reporting what it refuses.
func readRules(spec []byte) error {
	gossMu.Lock()
	defer gossMu.Unlock()
	cfg, err := goss.ReadJSONData(spec, true)
	if err != nil {
		return err
	}
	if len(cfg.Resources()) == 0 {
		return ErrNoRules
	}
	return nil
}

// runGoss validates the rules once: any failed rule is CRITICAL, and the
// output names each failure and ends with goss's summary line. Goss reads
// its rules from a file, so they are written to a private temporary one.
func runGoss(ctx context.Context, spec []byte) resources.HealthResult {
	if err := ctx.Err(); err != nil {
		return resources.HealthResult{Status: resources.HealthUnknown, Output: err.Error()}
	}
	out, err := validate(spec)
	if err != nil {
		return resources.HealthResult{Status: resources.HealthUnknown, Output: "goss: " + err.Error()}
	}
	var lines []string
	for _, r := range out.Results {
		if !r.Successful && !r.Skipped {
			lines = append(lines, r.SummaryLineCompact)
		}
	}
	lines = append(lines, out.SummaryLine)
	status := resources.HealthOK
	if out.Summary.Failed > 0 {
		status = resources.HealthCritical
	}
	return resources.HealthResult{Status: status, Output: clip(strings.Join(lines, "\n"))}
}

// validate runs goss over spec, one rule at a time as upstream does, and
// returns its structured report.
func validate(spec []byte) (*outputs.StructuredOutput, error) {
	f, err := os.CreateTemp("", "ccm-goss-*.yaml")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(spec)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	cfg, err := gossutil.NewConfig(gossutil.WithSpecFile(f.Name()), gossutil.WithMaxConcurrency(1))
	if err != nil {
		return nil, err
	}
	gossMu.Lock()
	defer gossMu.Unlock()
	results, err := goss.ValidateResults(cfg)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	outputs.Structured{}.Output(&buf, results, gossutil.OutputConfig{})
	var out outputs.StructuredOutput
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("reading its report: %w", err)
	}
	return &out, nil
}
