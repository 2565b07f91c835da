package metrics

import (
	"net/http"
	"runtime"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

// Source is what the metrics read at each scrape.
type Source interface {
	// Counts counts the resources by standing.
	Counts() status.Counts
	// Health is the daemon's own state.
	Health() status.Daemon
	// Status is the full report, read only for per-resource series.
	Status() status.Report
}

// Options configure the metrics.
type Options struct {
	// PerResource adds ccm_resource_standing{resource,standing}: one
	// series per resource, and upstream CCM's per-resource choria_ccm_*
	// series.
	PerResource bool
	// Version is reported by ccm_build_info.
	Version string
	// Limits bound Serve's clients; the zero value is DefaultLimits.
	Limits Limits
}

// Metrics holds the counters fed by engine observations and the
// collectors read at scrape time.
type Metrics struct {
	reg    *prometheus.Registry
	limits Limits

	checks, applies *prometheus.HistogramVec
	latency         *prometheus.HistogramVec
	drift, repairs  *prometheus.CounterVec
	refreshes       *prometheus.CounterVec
	contests        *prometheus.CounterVec
	retries         *prometheus.CounterVec
	failures        *prometheus.CounterVec
	// upstream is nil without per-resource series.
	upstream *upstream
}

// durationBuckets span a file check (tens of microseconds) to a package
// install (minutes).
var durationBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300}

// New registers ccm's metrics, the Go runtime's and the process's.
func New(src Source, opts Options) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry(), limits: opts.Limits}
	if m.limits == (Limits{}) {
		m.limits = DefaultLimits
	}
	byType := []string{"type"}
	m.checks = histogram("ccm_check_duration_seconds", "Time spent checking a resource's state, by resource type.", byType)
	m.applies = histogram("ccm_apply_duration_seconds", "Time spent applying a change (or, in noop and paused, deciding one), by resource type.", byType)
	m.latency = histogram("ccm_repair_latency_seconds", "Time from the event that revealed drift to the resource being repaired, by resource type.", byType)
	m.drift = counter("ccm_drift_detected_total", "Checks started by a change on the host (event, poll, re-check) that found drift, by resource type.", byType)
	m.repairs = counter("ccm_repairs_total", "Drift repaired, by resource type.", byType)
	m.refreshes = counter("ccm_refreshes_total", "Refreshes applied (a subscribed resource changed), by resource type.", byType)
	m.contests = counter("ccm_contests_total", "Times a resource was marked contested (repaired too often), by resource type.", byType)
	m.retries = counter("ccm_retries_total", "Runs retrying a failure, by resource type.", byType)
	m.failures = counter("ccm_failures_total", "Failed runs, by resource type.", byType)
	m.reg.MustRegister(m.checks, m.applies, m.latency, m.drift, m.repairs, m.refreshes, m.contests, m.retries, m.failures,
		&scrape{src: src, perResource: opts.PerResource},
		buildInfo(opts.Version),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if opts.PerResource {
		m.upstream = newUpstream()
		m.reg.MustRegister(m.upstream.collectors()...)
	}
	return m
}

func histogram(name, help string, labels []string) *prometheus.HistogramVec {
	return prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: durationBuckets}, labels)
}

func counter(name, help string, labels []string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
}

func buildInfo(version string) prometheus.Collector {
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "ccm_build_info", Help: "Always 1; the labels say which ccm runs.",
		ConstLabels: prometheus.Labels{"version": version, "goversion": runtime.Version()},
	})
	g.Set(1)
	return g
}

// Observe counts one run. It is engine.Options.Observe.
func (m *Metrics) Observe(o engine.Observation) {
	ev := o.Event
	t := ev.Type
	m.checks.WithLabelValues(t).Observe(o.Check.Seconds())
	if o.Apply > 0 {
		m.applies.WithLabelValues(t).Observe(o.Apply.Seconds())
	}
	if o.DriftFound() {
		m.drift.WithLabelValues(t).Inc()
	}
	if o.Repaired() {
		m.repairs.WithLabelValues(t).Inc()
		m.latency.WithLabelValues(t).Observe(ev.Timestamp.Sub(o.Since).Seconds())
	}
	if m.upstream != nil {
		m.upstream.observe(ev)
	}
	for _, c := range []struct {
		on  bool
		vec *prometheus.CounterVec
	}{
		{ev.Refreshed && !ev.Noop, m.refreshes},
		{ev.Contested, m.contests},
		{ev.Trigger == engine.TriggerRetry, m.retries},
		{ev.Failed, m.failures},
	} {
		if c.on {
			c.vec.WithLabelValues(t).Inc()
		}
	}
}

// Handler serves the metrics in Prometheus' text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}
