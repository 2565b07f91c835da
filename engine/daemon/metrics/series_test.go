package metrics_test

import (
	"bufio"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/metrics"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
	"github.com/reactive-ccm/ccm/resources"
)

// fixed is a Source that reports what it holds.
type fixed struct {
	counts status.Counts
	health status.Daemon
	report status.Report
}

func (f fixed) Counts() status.Counts { return f.counts }
func (f fixed) Health() status.Daemon { return f.health }
func (f fixed) Status() status.Report { return f.report }

// scrape reads m's text exposition into its samples, by name and labels
// as written ("ccm_resources{standing=\"failed\"}"), leaving out the Go
// runtime's and the process's.
func scrape(t *testing.T, m *metrics.Metrics) map[string]float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	out := map[string]float64{}
	sc := bufio.NewScanner(rec.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "go_") || strings.HasPrefix(line, "process_") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("sample %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// TestResourcesByStanding: every standing has its series, so the series
// add up to the resources and an alert can be written on any standing.
func TestResourcesByStanding(t *testing.T) {
	var c status.Counts
	standings := []status.Standing{status.Converged, status.Failed, status.Unhealthy, status.RolledBack, status.Blocked, status.Contested, status.Paused, status.Pending}
	for i, s := range standings {
		for range i + 1 {
			c.Add(s)
		}
	}
	got := scrape(t, metrics.New(fixed{counts: c}, metrics.Options{}))
	sum := 0.0
	for i, s := range standings {
		key := `ccm_resources{standing="` + string(s) + `"}`
		if got[key] != float64(i+1) {
			t.Errorf("%s = %v, want %d", key, got[key], i+1)
		}
		sum += got[key]
	}
	if sum != float64(c.Resources) {
		t.Errorf("the standings add up to %v of %d resources", sum, c.Resources)
	}
}

func TestDaemonSeries(t *testing.T) {
	converged := time.Date(2026, 1, 2, 3, 4, 5, 500_000_000, time.UTC)
	for _, tc := range []struct {
		name   string
		health status.Daemon
		want   map[string]float64
	}{
		{"before anything", status.Daemon{}, map[string]float64{
			"ccm_inotify_watches": 0, "ccm_last_convergence_timestamp_seconds": 0, `ccm_reloads_total{outcome="ok"}`: 0, `ccm_reloads_total{outcome="failed"}`: 0}},
		{"a daemon at work", status.Daemon{Watches: 12, Polled: 3, Overflows: 2, Reloads: 5, ReloadFailures: 2, LastConverged: converged, Uptime: 61.5}, map[string]float64{
			"ccm_inotify_watches": 12, "ccm_polled_paths": 3, "ccm_inotify_queue_overflows_total": 2,
			`ccm_reloads_total{outcome="ok"}`: 3, `ccm_reloads_total{outcome="failed"}`: 2,
			"ccm_last_convergence_timestamp_seconds": float64(converged.UnixNano()) / 1e9, "ccm_uptime_seconds": 61.5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := scrape(t, metrics.New(fixed{health: tc.health}, metrics.Options{Version: "1.2.3"}))
			for k, want := range tc.want {
				if v, ok := got[k]; !ok || v != want {
					t.Errorf("%s = %v (present %t), want %v", k, v, ok, want)
				}
			}
		})
	}
}

// TestObserveCounts: which counters one run moves, by what it was.
func TestObserveCounts(t *testing.T) {
	drift := []resources.Difference{resources.Differs("mode", "0600", "0644")}
	since := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		ev   engine.Event
		// moved lists the counters of type file that must read 1; every
		// other counter of the test's reads 0.
		moved []string
	}{
		{"a stable check at startup", engine.Event{Trigger: engine.TriggerStartup}, nil},
		{"drift repaired", engine.Event{Trigger: engine.TriggerDrift, Changed: true, Changes: drift}, []string{"ccm_drift_detected_total", "ccm_repairs_total"}},
		{"drift found by a poll, in noop", engine.Event{Trigger: engine.TriggerPoll, Changed: true, Noop: true, Changes: drift}, []string{"ccm_drift_detected_total"}},
		{"drift found, the repair failed", engine.Event{Trigger: engine.TriggerRecheck, Changed: true, Failed: true, Changes: drift}, []string{"ccm_drift_detected_total", "ccm_failures_total"}},
		{"a change at startup is no repair", engine.Event{Trigger: engine.TriggerStartup, Changed: true, Changes: drift}, nil},
		{"a refresh", engine.Event{Trigger: engine.TriggerRefresh, Changed: true, Refreshed: true}, []string{"ccm_refreshes_total"}},
		{"a refresh in noop", engine.Event{Trigger: engine.TriggerRefresh, Changed: true, Refreshed: true, Noop: true}, nil},
		{"a contest", engine.Event{Trigger: engine.TriggerDrift, Contested: true}, []string{"ccm_contests_total"}},
		{"a retry that failed again", engine.Event{Trigger: engine.TriggerRetry, Failed: true}, []string{"ccm_retries_total", "ccm_failures_total"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := metrics.New(fixed{}, metrics.Options{})
			ev := tc.ev
			ev.Type, ev.Name, ev.Timestamp = "file", "/etc/motd", since.Add(1500*time.Millisecond)
			m.Observe(engine.Observation{Event: &ev, Check: 2 * time.Millisecond, Since: since})
			got := scrape(t, m)
			for _, c := range []string{"ccm_drift_detected_total", "ccm_repairs_total", "ccm_refreshes_total", "ccm_contests_total", "ccm_retries_total", "ccm_failures_total"} {
				want := 0.0
				for _, moved := range tc.moved {
					if moved == c {
						want = 1
					}
				}
				if v := got[c+`{type="file"}`]; v != want {
					t.Errorf("%s = %v, want %v", c, v, want)
				}
			}
			if got[`ccm_check_duration_seconds_count{type="file"}`] != 1 || got[`ccm_check_duration_seconds_sum{type="file"}`] != 0.002 {
				t.Errorf("the check was not timed: %v", got[`ccm_check_duration_seconds_sum{type="file"}`])
			}
			if _, ok := got[`ccm_apply_duration_seconds_count{type="file"}`]; ok {
				t.Error("a run without an apply was counted as one")
			}
			repaired := got[`ccm_repairs_total{type="file"}`] == 1
			if latency := got[`ccm_repair_latency_seconds_sum{type="file"}`]; repaired != (latency == 1.5) {
				t.Errorf("repair latency %v for a repair %t", latency, repaired)
			}
		})
	}
}

// TestPerResourceSeries: with PerResource, each resource's standing and
// upstream CCM's choria_ccm_* series, named by the alias when set;
// without, none of them.
func TestPerResourceSeries(t *testing.T) {
	report := status.Report{Resources: []status.Resource{{ID: "file#/a", Standing: status.Converged}, {ID: "exec#b", Standing: status.Failed}}}
	runs := []engine.Event{
		{Type: "file", Name: "/a", Noop: true, Changed: true},
		{Type: "file", Name: "/a", Changed: true, Refreshed: true},
		{Type: "exec", Name: "b", Alias: "migrate", Failed: true, Error: []string{"exit 1"}},
		{Type: "exec", Name: "b", Alias: "migrate", Error: []string{"health"}, HealthChecks: []resources.HealthResult{{Name: "db", Status: resources.HealthCritical}}},
		{Type: "exec", Name: "b", Alias: "migrate", Skipped: true},
		{Type: "exec", Name: "b", Alias: "migrate", Provider: "posix", Duration: time.Second},
	}
	want := map[string]float64{
		`ccm_resource_standing{resource="file#/a",standing="converged"}`:                               1,
		`ccm_resource_standing{resource="exec#b",standing="failed"}`:                                   1,
		`choria_ccm_resource_state_total_count{name="/a",type="file"}`:                                 2,
		`choria_ccm_resource_state_noop_count{name="/a",type="file"}`:                                  1,
		`choria_ccm_resource_state_changed_count{name="/a",type="file"}`:                               1,
		`choria_ccm_resource_state_total_count{name="migrate",type="exec"}`:                            4,
		`choria_ccm_resource_state_failed_count{name="migrate",type="exec"}`:                           1,
		`choria_ccm_resource_state_error_count{name="migrate",type="exec"}`:                            1,
		`choria_ccm_resource_state_skipped_count{name="migrate",type="exec"}`:                          1,
		`choria_ccm_resource_state_stable_count{name="migrate",type="exec"}`:                           1,
		`choria_ccm_healthcheck_status_count{check="db",name="migrate",status="CRITICAL",type="exec"}`: 1,
		`choria_ccm_resource_apply_duration_seconds_sum{name="migrate",provider="posix",type="exec"}`:  1,
	}
	m := metrics.New(fixed{report: report}, metrics.Options{PerResource: true})
	plain := metrics.New(fixed{report: report}, metrics.Options{})
	for i := range runs {
		m.Observe(engine.Observation{Event: &runs[i]})
		plain.Observe(engine.Observation{Event: &runs[i]})
	}
	got := scrape(t, m)
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %v, want %v", k, got[k], w)
		}
	}
	if got[`choria_ccm_resource_state_refreshed_count{name="/a",type="file"}`] != 0 {
		t.Error("a changed refresh counted as refreshed: upstream counts it changed")
	}
	for k := range scrape(t, plain) {
		if strings.HasPrefix(k, "choria_ccm_") || strings.HasPrefix(k, "ccm_resource_standing") {
			t.Errorf("%s without per-resource series", k)
		}
	}
}

// TestObserveWhileScraped: the engine's workers observe at once while a
// scraper reads; every run is counted. Run with -race.
func TestObserveWhileScraped(t *testing.T) {
	m := metrics.New(fixed{}, metrics.Options{PerResource: true})
	const workers, runs = 8, 200
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for range runs {
				m.Observe(engine.Observation{Event: &engine.Event{Type: "file", Name: "/" + strconv.Itoa(w), Failed: true}})
			}
		})
	}
	wg.Go(func() {
		for range 20 {
			m.Handler().ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/metrics", nil))
		}
	})
	wg.Wait()
	got := scrape(t, m)
	if v := got[`ccm_failures_total{type="file"}`]; v != workers*runs {
		t.Fatalf("%v failures counted, want %d", v, workers*runs)
	}
	if v := got[`choria_ccm_resource_state_failed_count{name="/3",type="file"}`]; v != runs {
		t.Fatalf("%v failures of /3, want %d", v, runs)
	}
}
