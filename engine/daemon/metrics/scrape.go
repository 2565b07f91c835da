package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

// scrape reads the engine's standings and the daemon's health at each
// scrape, so they are never stale and cost nothing between scrapes.
type scrape struct {
	src         Source
	perResource bool
}

var (
	resourcesDesc = prometheus.NewDesc("ccm_resources", "Resources by standing.", []string{"standing"}, nil)
	watchesDesc   = prometheus.NewDesc("ccm_inotify_watches", "Directories watched through inotify.", nil, nil)
	polledDesc    = prometheus.NewDesc("ccm_polled_paths", "Paths polled because inotify refused them or is not used.", nil, nil)
	overflowDesc  = prometheus.NewDesc("ccm_inotify_queue_overflows_total", "inotify queue overflows, each a re-check of every watched path.", nil, nil)
	reloadsDesc   = prometheus.NewDesc("ccm_reloads_total", "Manifest reloads, by outcome.", []string{"outcome"}, nil)
	convergedDesc = prometheus.NewDesc("ccm_last_convergence_timestamp_seconds", "When every resource last stood converged, in Unix time; 0 before the first time.", nil, nil)
	uptimeDesc    = prometheus.NewDesc("ccm_uptime_seconds", "Seconds since the daemon started.", nil, nil)
	standingDesc  = prometheus.NewDesc("ccm_resource_standing", "1 for each resource's current standing (only with per-resource metrics).", []string{"resource", "standing"}, nil)
)

func (s *scrape) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{resourcesDesc, watchesDesc, polledDesc, overflowDesc, reloadsDesc, convergedDesc, uptimeDesc} {
		ch <- d
	}
	if s.perResource {
		ch <- standingDesc
	}
}

func (s *scrape) Collect(ch chan<- prometheus.Metric) {
	c := s.src.Counts()
	for _, st := range status.Standings {
		ch <- prometheus.MustNewConstMetric(resourcesDesc, prometheus.GaugeValue, float64(c.Of(st)), string(st))
	}
	h := s.src.Health()
	ch <- prometheus.MustNewConstMetric(watchesDesc, prometheus.GaugeValue, float64(h.Watches))
	ch <- prometheus.MustNewConstMetric(polledDesc, prometheus.GaugeValue, float64(h.Polled))
	ch <- prometheus.MustNewConstMetric(overflowDesc, prometheus.CounterValue, float64(h.Overflows))
	ch <- prometheus.MustNewConstMetric(reloadsDesc, prometheus.CounterValue, float64(h.Reloads-h.ReloadFailures), "ok")
	ch <- prometheus.MustNewConstMetric(reloadsDesc, prometheus.CounterValue, float64(h.ReloadFailures), "failed")
	var last float64
	if !h.LastConverged.IsZero() {
		last = float64(h.LastConverged.UnixNano()) / 1e9
	}
	ch <- prometheus.MustNewConstMetric(convergedDesc, prometheus.GaugeValue, last)
	ch <- prometheus.MustNewConstMetric(uptimeDesc, prometheus.GaugeValue, h.Uptime)
	if !s.perResource {
		return
	}
	for _, r := range s.src.Status().Resources {
		ch <- prometheus.MustNewConstMetric(standingDesc, prometheus.GaugeValue, 1, r.ID, string(r.Standing))
	}
}
