package service_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	sdwatch "github.com/reactive-ccm/ccm/watchers/systemd"
)

// BenchmarkRepairAfterExternalStop measures, with the watching engine
// wired as `ccm run --watch` wires it, the time from an operator's
// `systemctl stop` (a process spawned into the namespace) to the unit
// being active again with a new main process. It reports the percentiles
// of 50 repairs per b.N; the same from the moment the unit was seen down
// (which leaves out spawning systemctl); and how long the systemctl process
// itself took.
func BenchmarkRepairAfterExternalStop(b *testing.B) {
	const name = "ccm-bench-repair.service"
	// No start rate limit: the benchmark stops the unit far more often than
	// systemd's default of five starts in ten seconds allows.
	sd := unit(b, name, "[Unit]\nStartLimitIntervalSec=0\n"+sleeper[len("[Unit]\n"):], false)
	ctx := b.Context()
	// Never treat the benchmark's repeated stops as a fight to back off
	// from.
	watch(b, "ccm:\n  resources:\n    - service:\n        - "+name+":\n            ensure: running\n", engine.Options{
		Contest: engine.ContestPolicy{Window: time.Millisecond, Limit: 1 << 30, Backoff: time.Millisecond, MaxBackoff: time.Millisecond},
	})
	obs := newObserver(b, name)
	obs.waitActive(b, "0")

	var repair, afterDown, stopCmd []time.Duration
	for range 50 * b.N {
		pid := prop(b, sd, name, "MainPID")
		start := time.Now()
		if _, err := sd.Systemctl(ctx, "stop", name); err != nil {
			b.Fatal(err)
		}
		stopCmd = append(stopCmd, time.Since(start))
		obs.waitActive(b, pid)
		repair = append(repair, obs.at.Sub(start))
		afterDown = append(afterDown, obs.at.Sub(obs.down))
	}
	b.ReportMetric(ms(percentile(repair, 50)), "p50-ms")
	b.ReportMetric(ms(percentile(repair, 99)), "p99-ms")
	b.ReportMetric(ms(percentile(afterDown, 50)), "down-to-active-p50-ms")
	b.ReportMetric(ms(percentile(afterDown, 99)), "down-to-active-p99-ms")
	b.ReportMetric(ms(percentile(stopCmd, 50)), "systemctl-p50-ms")
}

// observer sees a unit's state changes through a hub of its own.
type observer struct {
	unit    string
	hub     *sdwatch.Hub
	changed chan struct{}
	at      time.Time // when waitActive saw the unit active
	down    time.Time // when waitActive first saw it not active
}

func newObserver(b *testing.B, unit string) *observer {
	o := &observer{unit: unit, hub: sdwatch.New(sdwatch.Options{}), changed: make(chan struct{}, 1)}
	b.Cleanup(o.hub.Close)
	cancel := o.hub.Watch(unit, func() {
		select {
		case o.changed <- struct{}{}:
		default:
		}
	})
	b.Cleanup(cancel)
	return o
}

// waitActive waits until the unit is active with a main process other
// than oldPID, and records when.
func (o *observer) waitActive(b *testing.B, oldPID string) {
	conn, err := o.hub.Conn(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	timeout := time.After(10 * time.Second)
	o.down = time.Time{}
	for {
		active, err := conn.GetUnitPropertyContext(b.Context(), o.unit, "ActiveState")
		if err != nil {
			b.Fatal(err)
		}
		pid, err := conn.GetServicePropertyContext(b.Context(), o.unit, "MainPID")
		if err != nil {
			b.Fatal(err)
		}
		if active.Value.Value() == "active" && fmt.Sprint(pid.Value.Value()) != oldPID {
			o.at = time.Now()
			if o.down.IsZero() {
				o.down = o.at
			}
			return
		}
		if active.Value.Value() != "active" && o.down.IsZero() {
			o.down = time.Now()
		}
		select {
		case <-o.changed:
		case <-timeout:
			b.Fatalf("%s was not repaired within 10s", o.unit)
		}
	}
}

func percentile(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[(len(s)-1)*p/100]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
