package status_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/status"
	"github.com/reactive-ccm/ccm/resources"
)

// TestReportJSON: the report's JSON is what `ccm status --json` prints
// and what a fleet publisher sends; its keys are a contract, and what is
// not there is left out rather than sent empty.
func TestReportJSON(t *testing.T) {
	at := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	next := at.Add(time.Minute)
	for _, c := range []struct {
		name string
		r    status.Report
		want string
	}{
		{"a daemon that did nothing yet", status.Report{Time: at, Daemon: status.Daemon{PID: 7, Version: "1.0", Started: at}},
			`{"time":"2026-12-07T10:00:00Z","counts":{"resources":0,"converged":0,"failed":0,"unhealthy":0,"rolled_back":0,"blocked":0,"contested":0,"paused":0,"pending":0},` +
				`"daemon":{"pid":7,"version":"1.0","started":"2026-12-07T10:00:00Z","uptime_seconds":0,"inotify_watches":0,"polled_paths":0,"inotify_overflows":0,"reloads":0,"reload_failures":0},` +
				`"resources":null}`},
		{"paused, with a contested and a paused resource", status.Report{Time: at,
			Counts:    status.Counts{Resources: 2, Contested: 1, Paused: 1},
			PausedAll: &status.Pause{By: "root (sudo alice)", Since: at},
			Daemon:    status.Daemon{Reloads: 2, ReloadFailures: 1, LastReload: at, LastConverged: at},
			Resources: []status.Resource{
				{ID: "file#/etc/motd", Alias: "motd", Standing: status.Contested, Writer: "pid 9 (sed) uid 0", NextRetry: &next,
					LastChange: &status.Change{Time: at, Trigger: "drift", Changes: []resources.Difference{{Property: "mode", Observed: "0666", Desired: "0644"}}, Refreshed: true}},
				{ID: "exec#x", Standing: status.Paused, LastError: "exit 1", Paused: &status.Pause{By: "root", Since: at, Until: next},
					Drift: []resources.Difference{{Property: "ensure", Observed: "absent", Desired: "present"}}},
			}},
			`{"time":"2026-12-07T10:00:00Z","counts":{"resources":2,"converged":0,"failed":0,"unhealthy":0,"rolled_back":0,"blocked":0,"contested":1,"paused":1,"pending":0},` +
				`"paused_all":{"by":"root (sudo alice)","since":"2026-12-07T10:00:00Z"},` +
				`"daemon":{"pid":0,"version":"","started":"0001-01-01T00:00:00Z","uptime_seconds":0,"inotify_watches":0,"polled_paths":0,"inotify_overflows":0,"reloads":2,"reload_failures":1,"last_reload":"2026-12-07T10:00:00Z","last_converged":"2026-12-07T10:00:00Z"},` +
				`"resources":[{"id":"file#/etc/motd","alias":"motd","standing":"contested","last_change":{"time":"2026-12-07T10:00:00Z","trigger":"drift","changes":[{"property":"mode","observed":"0666","desired":"0644"}],"refreshed":true},"writer":"pid 9 (sed) uid 0","next_retry":"2026-12-07T10:01:00Z"},` +
				`{"id":"exec#x","standing":"paused","last_error":"exit 1","paused":{"by":"root","since":"2026-12-07T10:00:00Z","until":"2026-12-07T10:01:00Z"},"drift":[{"property":"ensure","observed":"absent","desired":"present"}]}]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := json.Marshal(c.r)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != c.want {
				t.Fatalf("got\n%s\nwant\n%s", b, c.want)
			}
			var back status.Report
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if again, _ := json.Marshal(back); string(again) != c.want {
				t.Fatalf("decoded and encoded again:\n%s", again)
			}
		})
	}
}
