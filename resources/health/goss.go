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
	"time"

	"github.com/goss-org/goss"
	"github.com/goss-org/goss/outputs"
	gossutil "github.com/goss-org/goss/util"
	"github.com/reactive-ccm/ccm/resources"
	"go.yaml.in/yaml/v3"
)

// gossMu serialises goss reading rule sets: it keeps the spec being read
// and its template filter in package variables. Running the rules read
// touches none of them, so rule sets run at once.
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
		return runGoss(ctx, spec, s.timeout)
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
//
// The library takes no context, so the run is bounded by waiting for it:
// when timeout (when set) expires or ctx ends first, the run is abandoned
// and UNKNOWN. What its rules started goes on in the background until
// goss's own per-rule timeouts end it; nothing waits for it.
func runGoss(ctx context.Context, spec []byte, timeout time.Duration) resources.HealthResult {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, timeout, fmt.Errorf("%w after %s; the rules' run was abandoned", ErrTimeout, timeout))
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		return unknown(ctx)
	}
	type result struct {
		out *outputs.StructuredOutput
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := validate(spec)
		done <- result{out, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		return unknown(ctx)
	}
	if r.err != nil {
		return resources.HealthResult{Status: resources.HealthUnknown, Output: "goss: " + r.err.Error()}
	}
	return verdict(r.out)
}

// unknown is the result of a run that ctx cut short.
func unknown(ctx context.Context) resources.HealthResult {
	return resources.HealthResult{Status: resources.HealthUnknown, Output: "goss: " + context.Cause(ctx).Error()}
}

// verdict makes goss's report a result.
func verdict(out *outputs.StructuredOutput) resources.HealthResult {
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
	results, err := goss.ValidateResults(cfg)
	gossMu.Unlock()
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
