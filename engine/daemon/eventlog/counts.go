package eventlog

import (
	"fmt"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

// CountsLine sums the resources up in a line, as `systemctl status`, the
// watch session's summary and `ccm status` show it: "12 resources: 10
// converged, 1 failed, 1 paused; last all converged 5s ago" (the last part
// only when lastConverged is set).
func CountsLine(c status.Counts, lastConverged, now time.Time) string {
	line := fmt.Sprintf("%d resources: %d converged", c.Resources, c.Converged)
	for _, st := range status.Standings {
		if n := c.Of(st); n > 0 && st != status.Converged {
			line += fmt.Sprintf(", %d %s", n, st)
		}
	}
	if !lastConverged.IsZero() {
		line += fmt.Sprintf("; last all converged %s ago", now.Sub(lastConverged).Round(time.Second))
	}
	return line
}

// Until says when a pause ends, as `ccm pause` and `ccm status` show it:
// "until 14:30:00 (in 29m0s)", or "until resumed".
func Until(until, now time.Time) string {
	if until.IsZero() {
		return "until resumed"
	}
	return fmt.Sprintf("until %s (in %s)", until.Local().Format(time.TimeOnly), until.Sub(now).Round(time.Second))
}
