package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/reactive-ccm/ccm/engine"
)

// upstream holds upstream CCM's per-resource series, under its names, so
// its dashboards and alerts find them: resource states counted by run and
// apply durations, by type and name (the alias when set), and health
// check results, by check. They are per resource, so they come with the
// per-resource series (Options.PerResource).
type upstream struct {
	total, noop, changed, skipped, refreshed, failed, errored, stable *prometheus.CounterVec
	apply                                                             *prometheus.SummaryVec
	health                                                            *prometheus.CounterVec
}

func newUpstream() *upstream {
	typeName := []string{"type", "name"}
	state := func(what, help string) *prometheus.CounterVec {
		return counter("choria_ccm_resource_state_"+what+"_count", help+" (upstream CCM's series).", typeName)
	}
	return &upstream{
		total:     state("total", "Resource runs"),
		noop:      state("noop", "Resource runs in noop"),
		changed:   state("changed", "Resource runs that changed the resource"),
		skipped:   state("skipped", "Resource runs skipped"),
		refreshed: state("refreshed", "Resource runs that refreshed the resource"),
		failed:    state("failed", "Resource runs that failed"),
		errored:   state("error", "Resource runs with errors, not failed"),
		stable:    state("stable", "Resource runs that found the resource in its desired state"),
		apply: prometheus.NewSummaryVec(prometheus.SummaryOpts{Name: "choria_ccm_resource_apply_duration_seconds",
			Help: "Time taken to run a resource (upstream CCM's series)."}, []string{"type", "provider", "name"}),
		health: counter("choria_ccm_healthcheck_status_count", "Health check results by status (upstream CCM's series).", []string{"type", "name", "status", "check"}),
	}
}

func (u *upstream) collectors() []prometheus.Collector {
	return []prometheus.Collector{u.total, u.noop, u.changed, u.skipped, u.refreshed, u.failed, u.errored, u.stable, u.apply, u.health}
}

// observe counts a run as upstream counts an event: every run in total,
// and in the first of noop, changed, skipped, refreshed, failed, error,
// stable that it is.
func (u *upstream) observe(ev *engine.Event) {
	name := ev.Name
	if ev.Alias != "" {
		name = ev.Alias
	}
	u.total.WithLabelValues(ev.Type, name).Inc()
	var state *prometheus.CounterVec
	switch {
	case ev.Noop:
		state = u.noop
	case ev.Changed:
		state = u.changed
	case ev.Skipped:
		state = u.skipped
	case ev.Refreshed:
		state = u.refreshed
	case ev.Failed:
		state = u.failed
	case len(ev.Error) > 0:
		state = u.errored
	default:
		state = u.stable
	}
	state.WithLabelValues(ev.Type, name).Inc()
	u.apply.WithLabelValues(ev.Type, ev.Provider, name).Observe(ev.Duration.Seconds())
	for _, r := range ev.HealthChecks {
		u.health.WithLabelValues(ev.Type, name, r.Status.String(), r.Name).Inc()
	}
}
