package resources

import (
	"context"
	"time"

	"github.com/reactive-ccm/ccm/watchers/clock"
)

// HealthStatus is a health check's verdict, numbered as Nagios plugins
// exit and as upstream CCM reports it.
type HealthStatus int

const (
	HealthOK HealthStatus = iota
	HealthWarning
	HealthCritical
	HealthUnknown
)

func (s HealthStatus) String() string {
	switch s {
	case HealthOK:
		return "OK"
	case HealthWarning:
		return "WARNING"
	case HealthCritical:
		return "CRITICAL"
	}
	return "UNKNOWN"
}

// Failing reports whether the status fails the resource: CRITICAL and
// UNKNOWN do, WARNING is only reported.
func (s HealthStatus) Failing() bool { return s == HealthCritical || s == HealthUnknown }

// HealthResult is the outcome of one health check: the last of its tries.
// The JSON names are upstream CCM's (its Output has no tag), plus name.
type HealthResult struct {
	Name   string       `json:"name"`
	Status HealthStatus `json:"status"`
	Tries  int          `json:"tries"`
	Output string       `json:"Output"`
}

// HealthCheck is one of a resource's health checks (the common property
// health_checks): a Nagios plugin or a set of Goss rules.
type HealthCheck interface {
	// Name identifies the check in events and logs.
	Name() string
	// Interval is how often watch mode runs the check by itself; zero
	// asks for the engine's default.
	Interval() time.Duration
	// Run tries the check up to its tries, waiting its try_sleep on clk
	// between failed tries, and reports the last try. It never changes
	// the host. It blocks while the check runs; when ctx is cancelled it
	// returns at once with an UNKNOWN result saying so.
	Run(ctx context.Context, clk clock.Clock) HealthResult
}
