package health_test

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
)

// BenchmarkRemediation measures, in the private systemd, how long a
// service whose health check turns CRITICAL takes to be healthy again:
// detection (a periodic check, every 500ms with jitter) and remediation
// (the restart and the check that passes).
func BenchmarkRemediation(b *testing.B) {
	s := newStory(b, "ccm-health-bench-remediate")
	run := s.start(b, fmt.Sprintf("port = %d", s.port), engine.Options{HealthInterval: 500 * time.Millisecond})
	isService := func(ev *engine.Event) bool { return ev.ID() == s.serviceID() }
	run.Next(b, "the service started", func(ev *engine.Event) bool { return isService(ev) && !ev.Failed })
	var detect, remedy []time.Duration
	for b.Loop() {
		start := time.Now()
		if err := os.WriteFile(s.conf+".sick", nil, 0o644); err != nil {
			b.Fatal(err)
		}
		run.Next(b, "the check failing", func(ev *engine.Event) bool { return isService(ev) && ev.Failed })
		found := time.Now()
		run.Next(b, "the restart", func(ev *engine.Event) bool { return isService(ev) && !ev.Failed && ev.Refreshed })
		detect = append(detect, found.Sub(start))
		remedy = append(remedy, time.Since(found))
	}
	b.ReportMetric(median(detect), "detect-ms(median)")
	b.ReportMetric(median(remedy), "remediate-ms(median)")
}

// BenchmarkRollback measures, in the private systemd, how long a manifest
// change that breaks the service takes to be rolled back with the service
// healthy again, and to be seen (the rolled-back event).
func BenchmarkRollback(b *testing.B) {
	s := newStory(b, "ccm-health-bench-rollback")
	good := fmt.Sprintf("port = %d", s.port)
	// Every round breaks the service, which a fight detector would take
	// for another program stopping it: rounds this close are no fight.
	contest := engine.ContestPolicy{Window: time.Minute, Limit: 1000, Backoff: time.Second, MaxBackoff: time.Second}
	run := s.start(b, good, engine.Options{Rollback: true, Contest: contest})
	isService := func(ev *engine.Event) bool { return ev.ID() == s.serviceID() }
	run.Next(b, "the service started", func(ev *engine.Event) bool { return isService(ev) && !ev.Failed })
	var rolled, healthy []time.Duration
	for i := 0; b.Loop(); i++ {
		// Each round is a new bad state, so the last one's hold ends.
		start := time.Now()
		s.reload(b, run, fmt.Sprintf("port = bad%d", i))
		run.Next(b, "the rollback", func(ev *engine.Event) bool { return ev.ID() == s.fileID() && ev.RolledBack })
		rolled = append(rolled, time.Since(start))
		run.Next(b, "the service healthy again", func(ev *engine.Event) bool { return isService(ev) && ev.Refreshed && !ev.Failed })
		healthy = append(healthy, time.Since(start))
	}
	b.ReportMetric(median(rolled), "rolled-back-ms(median)")
	b.ReportMetric(median(healthy), "healthy-ms(median)")
}

// median is the middle duration in milliseconds: a loaded machine's
// outliers (a restart slower than the check's tries) do not move it.
func median(ds []time.Duration) float64 {
	slices.Sort(ds)
	return float64(ds[len(ds)/2].Microseconds()) / 1000
}
