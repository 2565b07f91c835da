package main

import (
	"fmt"
	"time"

	"github.com/reactive-ccm/ccm/resources"
)

// parseTimeouts reads --timeout TYPE=DURATION values.
func parseTimeouts(flag map[string]string) (map[string]time.Duration, error) {
	out := make(map[string]time.Duration, len(flag))
	for name, v := range flag {
		t, ok := resources.Lookup(name)
		if !ok {
			return nil, usage(fmt.Errorf("--timeout %s=%s: no resource type %q", name, v, name))
		}
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, usage(fmt.Errorf("--timeout %s=%s: want a positive duration such as 30s or 5m", name, v))
		}
		out[t.Name] = d
	}
	return out, nil
}
