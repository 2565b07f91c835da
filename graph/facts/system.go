package facts

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// DefaultTimeout bounds gathering system facts when the caller sets none,
// as upstream CCM does.
const DefaultTimeout = 2 * time.Second

// section is one top-level key of the system facts.
type section struct {
	name string
	// gather returns the section's value; with an error it may still return
	// the parts it gathered.
	gather func(ctx context.Context) (map[string]any, error)
}

var sections = []section{
	{"host", hostFacts},
	{"network", networkFacts},
	{"partition", partitionFacts},
	{"cpu", cpuFacts},
	{"memory", memoryFacts},
}

type sectionResult struct {
	name string
	val  map[string]any
	err  error
}

// System gathers the host's facts, every section at once, waiting at most
// timeout (DefaultTimeout when zero). It always returns usable facts: a
// section that failed or timed out is left empty and described in err.
func System(ctx context.Context, timeout time.Duration) (map[string]any, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Buffered so a section finishing after the timeout never blocks: a
	// statfs stuck on a dead mount cannot be interrupted, only abandoned.
	results := make(chan sectionResult, len(sections))
	pending := map[string]bool{}
	out := map[string]any{}
	for _, s := range sections {
		pending[s.name] = true
		out[s.name] = map[string]any{}
		go func() {
			v, err := s.gather(ctx)
			results <- sectionResult{s.name, v, err}
		}()
	}
	var errs []error
	for len(pending) > 0 {
		select {
		case r := <-results:
			delete(pending, r.name)
			if r.val != nil {
				out[r.name] = r.val
			}
			if r.err != nil {
				errs = append(errs, fmt.Errorf("facts: %s: %w", r.name, r.err))
			}
		case <-ctx.Done():
			errs = append(errs, fmt.Errorf("%w after %s: %s left empty", ErrTimeout, timeout, strings.Join(slices.Sorted(maps.Keys(pending)), ", ")))
			return out, errors.Join(errs...)
		}
	}
	return out, errors.Join(errs...)
}

// into stores plain(v) at m[key] when the call that produced v worked (or
// gave a partial result), collecting errors.
func into(m map[string]any, key string, v any, err error, errs *[]error) {
	if err != nil {
		*errs = append(*errs, fmt.Errorf("%s: %w", key, err))
	}
	if v == nil {
		return
	}
	p, perr := plain(v)
	if perr != nil {
		*errs = append(*errs, fmt.Errorf("%s: %w", key, perr))
		return
	}
	if p != nil {
		m[key] = p
	}
}
