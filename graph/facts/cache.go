package facts

import (
	"context"
	"sync"
)

// Cache holds the host's facts, with their aliases, gathered once and
// kept until Forget: volatile ones (uptime, free memory) would otherwise
// make every templated resource look changed at each reload. The zero
// value is ready; it is safe for concurrent use.
type Cache struct {
	mu    sync.Mutex
	facts map[string]any
	warn  error
}

// System returns the host's facts, gathering them the first time; the
// error says which could not be gathered (their sections are empty).
func (c *Cache) System(ctx context.Context) (map[string]any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.facts == nil {
		var sys map[string]any
		sys, c.warn = System(ctx, 0)
		c.facts = WithAliases(sys)
	}
	return c.facts, c.warn
}

// Forget makes the next System gather the host's facts again (SIGHUP).
func (c *Cache) Forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.facts, c.warn = nil, nil
}
