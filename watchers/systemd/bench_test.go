package systemd_test

import (
	"slices"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/watchers/systemd"
	"github.com/reactive-ccm/ccm/watchers/systemd/systemdtest"
)

// BenchmarkHubNotify measures the time from asking systemd (over another
// connection, with no process spawned) to stop or start a unit, to the
// hub's notify call for it; 100 changes per b.N.
func BenchmarkHubNotify(b *testing.B) {
	const unit = "ccm-hub-bench.service"
	sd := systemdtest.Require(b)
	if err := sd.WriteUnit(unit, "[Unit]\nStartLimitIntervalSec=0\n[Service]\nExecStart=/bin/sleep infinity\n"); err != nil {
		b.Fatal(err)
	}
	actor := systemd.New(systemd.Options{})
	b.Cleanup(actor.Close)
	conn, err := actor.Conn(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	h := systemd.New(systemd.Options{})
	b.Cleanup(h.Close)
	notified := make(chan time.Time, 64)
	defer h.Watch(unit, func() {
		select {
		case notified <- time.Now():
		default:
		}
	})()
	if _, err := h.Conn(b.Context()); err != nil {
		b.Fatal(err)
	}
	var lat []time.Duration
	for i := range 100 * b.N {
		job := conn.StartUnitContext
		if i%2 == 1 {
			job = conn.StopUnitContext
		}
		drain(notified)
		done := make(chan string, 1)
		start := time.Now()
		if _, err := job(b.Context(), unit, "replace", done); err != nil {
			b.Fatal(err)
		}
		select {
		case at := <-notified:
			lat = append(lat, at.Sub(start))
		case <-time.After(10 * time.Second):
			b.Fatal("no notification within 10s")
		}
		<-done
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2])/1e6, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100])/1e6, "p99-ms")
}

func drain(ch chan time.Time) {
	for {
		select {
		case <-ch:
		case <-time.After(20 * time.Millisecond):
			return
		}
	}
}
