package main_test

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
)

// scrape fetches a daemon's metrics.
func scrape(t *testing.T, addr string) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("scrape: %s, %v\n%s", resp.Status, err, b)
	}
	return string(b)
}

// metric returns the value of the series written exactly as series.
func metric(t *testing.T, body, series string) float64 {
	t.Helper()
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	t.Fatalf("no series %s in\n%s", series, body)
	return 0
}

var metricsAddr = regexp.MustCompile(`serving metrics addr=(\S+)`)

// metricsAt waits for w to log where it serves metrics.
func (w *watcher) metricsAt() string {
	w.t.Helper()
	var addr string
	enginetest.Eventually(w.t, "the metrics address in the log", func() bool {
		m := metricsAddr.FindStringSubmatch(w.logs())
		if m != nil {
			addr = m[1]
		}
		return m != nil
	})
	return addr
}

func TestMetricsMatchTheEventsThatHappened(t *testing.T) {
	dir := t.TempDir()
	w := startWatch(t, "--metrics-listen", "127.0.0.1:0", manifest(t, dir, watched))
	addr := w.metricsAt()
	// Count what the event stream says happened: the startup, then two
	// drifts repaired, one of which refreshes the exec.
	repairs, refreshes := 0, 0
	count := func(ev engine.Event) {
		if ev.Changed && ev.Trigger == engine.TriggerDrift {
			repairs++
		}
		if ev.Refreshed {
			refreshes++
		}
	}
	for range 5 {
		count(w.waitFor("startup convergence", func(ev engine.Event) bool { return ev.Trigger == engine.TriggerStartup }))
	}
	if err := os.Chmod(dir+"/srv/app/motd", 0o600); err != nil {
		t.Fatal(err)
	}
	count(w.waitFor("the mode repair", func(ev engine.Event) bool { return ev.Changed && strings.HasSuffix(ev.Name, "/motd") }))
	if err := os.WriteFile(dir+"/srv/app/app.conf", []byte("port = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	count(w.waitFor("the content repair", func(ev engine.Event) bool { return ev.Changed && strings.HasSuffix(ev.Name, "/app.conf") }))
	count(w.waitFor("the refresh", func(ev engine.Event) bool { return ev.Refreshed && ev.Trigger == engine.TriggerRefresh }))

	body := scrape(t, addr)
	for series, want := range map[string]float64{
		`ccm_repairs_total{type="file"}`:                                   float64(repairs),
		`ccm_repair_latency_seconds_count{type="file"}`:                    float64(repairs),
		`ccm_refreshes_total{type="exec"}`:                                 float64(refreshes),
		`ccm_resources{standing="converged"}`:                              5,
		`ccm_resources{standing="failed"}`:                                 0,
		`ccm_reloads_total{outcome="ok"}`:                                  0,
		`ccm_inotify_queue_overflows_total`:                                0,
		`ccm_check_duration_seconds_count{type="exec"}`:                    metric(t, body, `ccm_check_duration_seconds_count{type="exec"}`),
		`ccm_apply_duration_seconds_count{type="exec"}`:                    float64(refreshes),
		`ccm_build_info{goversion="` + goVersion(t) + `",version="devel"}`: 1,
	} {
		if got := metric(t, body, series); got != want {
			t.Errorf("%s = %v, want %v", series, got, want)
		}
	}
	if repairs != 2 {
		t.Errorf("saw %d repairs, want 2", repairs)
	}
	if got := metric(t, body, `ccm_drift_detected_total{type="file"}`); got < float64(repairs) {
		t.Errorf("drift detected %v times, fewer than the %d repairs", got, repairs)
	}
	if metric(t, body, "ccm_inotify_watches") == 0 || metric(t, body, "ccm_last_convergence_timestamp_seconds") == 0 {
		t.Errorf("watches or last convergence missing:\n%s", body)
	}
	if strings.Contains(body, "ccm_resource_standing") || strings.Contains(body, "choria_ccm_") {
		t.Error("per-resource series without --metrics-resources")
	}
}

// TestMetricsHaveUpstreamSeries: with per-resource series, upstream CCM's
// choria_ccm_* series are there too, counted as upstream counts them.
func TestMetricsHaveUpstreamSeries(t *testing.T) {
	dir := t.TempDir()
	w := startWatch(t, "--metrics-listen", "127.0.0.1:0", "--metrics-resources", manifest(t, dir, `
- file:
    - @/motd:
        ensure: present
        content: hi
        owner: root
        group: root
        mode: "0644"
        alias: motd
        health_checks:
          - command: /bin/true
`))
	w.waitFor("the file", func(ev engine.Event) bool { return ev.Changed && ev.Alias == "motd" })
	addr := w.metricsAt()
	body := scrape(t, addr)
	for series, want := range map[string]float64{
		`choria_ccm_resource_state_total_count{name="motd",type="file"}`:                             1,
		`choria_ccm_resource_state_changed_count{name="motd",type="file"}`:                           1,
		`choria_ccm_resource_apply_duration_seconds_count{name="motd",provider="posix",type="file"}`: 1,
		`choria_ccm_healthcheck_status_count{check="true",name="motd",status="OK",type="file"}`:      1,
	} {
		if got := metric(t, body, series); got != want {
			t.Errorf("%s = %v, want %v", series, got, want)
		}
	}
}

func goVersion(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// TestMetricsAnswerAsSoonAsListed: the endpoint the log names answers at
// once, before the first convergence. A scrape then used to meet the
// daemon before its engine was built: a 500 (the collector's nil
// dereference) and, under the race detector, a data race.
func TestMetricsAnswerAsSoonAsListed(t *testing.T) {
	for range 3 {
		w := startCmd(t, exec.Command(bin, "run", "--watch", "--json", "--metrics-listen", "127.0.0.1:0", manifest(t, t.TempDir(), watched)))
		scrape(t, w.metricsAt())
		w.stop()
	}
}
