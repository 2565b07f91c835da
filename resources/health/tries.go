package health

import (
	"context"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

// check is what every format shares: its settings and one try.
type check struct {
	settings
	try func(ctx context.Context) resources.HealthResult
}

func (c *check) Name() string            { return c.name }
func (c *check) Interval() time.Duration { return c.interval }

// Run tries until a try is OK or the tries are spent, waiting try_sleep
// on clk between tries, and reports the last try.
func (c *check) Run(ctx context.Context, clk clock.Clock) resources.HealthResult {
	for n := 1; ; n++ {
		res := c.try(ctx)
		res.Name, res.Tries = c.name, n
		if res.Status == resources.HealthOK || n >= c.tries {
			return res
		}
		if !sleep(ctx, clk, c.trySleep) {
			return c.cancelled(ctx, n)
		}
	}
}

// sleep waits d on clk; false when ctx ended first.
func sleep(ctx context.Context, clk clock.Clock, d time.Duration) bool {
	t := clk.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return true
	}
}

// cancelled is the result of a check cut short.
func (c *check) cancelled(ctx context.Context, tries int) resources.HealthResult {
	return resources.HealthResult{Name: c.name, Status: resources.HealthUnknown, Tries: tries, Output: "check interrupted: " + context.Cause(ctx).Error()}
}
