package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
)

const twoFiles = `
ccm:
  pre_message: starting
  post_message: all done
  resources:
    - file:
        - defaults: {owner: root, group: root, mode: "0644"}
        - @/etc:
            ensure: directory
            mode: "0755"
        - @/etc/motd:
            ensure: present
            content: |
              hello
              world
`

func TestRunConvergesThenFindsNothingToDo(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, twoFiles)
	r := ccm(t, "run", m)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"starting\n", "changed   file#" + dir + "/etc: absent → directory", "2 resources: 2 changed, 0 failed", "all done\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if got := read(t, dir+"/etc/motd"); got != "hello\nworld\n" {
		t.Fatalf("motd = %q", got)
	}
	r = ccm(t, "run", m)
	if r.code != 0 || !strings.Contains(r.stdout, "2 resources: 0 changed, 0 failed, 0 skipped, 2 stable") {
		t.Fatalf("second run: exit %d\n%s", r.code, r.stdout)
	}
}

func TestRunExitsOneOnFailureAndReportsBlockedDependents(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, `
- exec:
    - /bin/false: {}
- file:
    - @/after:
        ensure: present
        content: x
        owner: root
        group: root
        mode: "0644"
        require: [exec#/bin/false]
    - @/independent:
        ensure: present
        content: x
        owner: root
        group: root
        mode: "0644"
`)
	r := ccm(t, "run", m)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r.stdout)
	}
	for _, want := range []string{
		"failed    exec#/bin/false: failed to reach desired state",
		"skipped   file#" + dir + "/after: blocked by failed exec#/bin/false",
		"3 resources: 1 changed, 1 failed, 1 skipped",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if _, err := os.Stat(dir + "/after"); !os.IsNotExist(err) {
		t.Fatal("a resource blocked by a failure was applied")
	}
	if _, err := os.Stat(dir + "/independent"); err != nil {
		t.Fatal("an independent resource was not applied")
	}
}

func TestBadManifestExitsTwoAndTouchesNothing(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, `
- file:
    - @/good:
        ensure: present
        content: x
        owner: root
        group: root
        mode: "0644"
    - @/bad:
        ensure: present
        content: x
        owner: root
        group: root
        mode: "0999"
        colour: blue
`)
	r := ccm(t, "run", m)
	if r.code != 2 {
		t.Fatalf("exit %d, want 2\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, m+":15:9: unknown property \"colour\"") || !strings.Contains(r.stderr, m+":14:15:") {
		t.Fatalf("stderr lacks both positioned errors:\n%s", r.stderr)
	}
	if _, err := os.Stat(dir + "/good"); !os.IsNotExist(err) {
		t.Fatal("a valid resource of an invalid manifest was applied")
	}
	if r := ccm(t, "validate", m); r.code != 2 {
		t.Fatalf("validate exit %d", r.code)
	}
	if r := ccm(t, "run", "--bogus", m); r.code != 2 {
		t.Fatalf("unknown flag: exit %d", r.code)
	}
}

func TestNoopChangesNothing(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, twoFiles)
	r := ccm(t, "run", "--noop", m)
	if r.code != 0 || !strings.Contains(r.stdout, "noop      file#"+dir+"/etc: Would have created directory") {
		t.Fatalf("exit %d\n%s", r.code, r.stdout)
	}
	if _, err := os.Stat(dir + "/etc"); !os.IsNotExist(err) {
		t.Fatal("noop created a directory")
	}
}

func TestJSONEventsUseUpstreamFieldNames(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, twoFiles)
	r := ccm(t, "run", "--json", m)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 2 events and a summary, got:\n%s", r.stdout)
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"protocol", "event_id", "timestamp", "type", "provider", "name", "requested_ensure", "final_ensure", "duration", "properties", "status", "changed", "refreshed", "failed", "skipped", "noop", "error", "unmet_requirements", "trigger"} {
		if _, ok := raw[k]; !ok {
			t.Fatalf("event lacks %q: %s", k, lines[0])
		}
	}
	var ev engine.Event
	if err := json.Unmarshal([]byte(lines[1]), &ev); err != nil || ev.Name != dir+"/etc/motd" || !ev.Changed || ev.Trigger != engine.TriggerStartup {
		t.Fatalf("event = %+v (%v)", ev, err)
	}
	if !strings.Contains(lines[2], `"protocol":"io.choria.ccm.v1.session.summary"`) {
		t.Fatalf("summary = %s", lines[2])
	}
}

// TestValidateAndGraph: validate counts the resources and edges (those
// of the written order apart), graph draws each kind of edge its own
// way, and neither touches the host.
func TestValidateAndGraph(t *testing.T) {
	for _, c := range []struct{ name, src, validated, edge string }{
		{"an automatic edge", twoFiles, "2 resources, 1 edges (0 of written order): ok\n", `n0 -> n1 [label="auto", style=dashed];`},
		{"the written order", installThenUse, "3 resources, 2 edges (2 of written order): ok\n", `n0 -> n1 [label="order", style=dashed, color=gray];`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			m := manifest(t, dir, c.src)
			if r := ccm(t, "validate", m); r.code != 0 || r.stdout != c.validated {
				t.Fatalf("validate: exit %d %q", r.code, r.stdout)
			}
			r := ccm(t, "graph", m)
			if r.code != 0 || !strings.Contains(r.stdout, c.edge) {
				t.Fatalf("graph: exit %d\n%s", r.code, r.stdout)
			}
			if left, _ := os.ReadDir(dir); len(left) != 1 {
				t.Fatalf("validate or graph touched the host: %v", left)
			}
		})
	}
}

func TestWithoutRootAFailedOwnerLeavesNothingBehind(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run ccm as another user")
	}
	dir := t.TempDir()
	// Sticky, as /tmp: nobody may write in it, and root's manifest there
	// stays root's.
	if err := os.Chmod(dir, os.ModeSticky|0o777); err != nil {
		t.Fatal(err)
	}
	m := manifest(t, dir, `
- file:
    - @/made:
        ensure: directory
        owner: root
        group: root
        mode: "0755"
`)
	if err := os.Chmod(m, 0o644); err != nil {
		t.Fatal(err)
	}
	r := asNobody(t, "run", "--state-dir", filepath.Join(dir, "state"), m)
	if r.code != 1 || !strings.Contains(r.stdout, "only root may give files another owner") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(dir + "/made"); !os.IsNotExist(err) {
		t.Fatalf("the directory was left behind: %v", err)
	}
}

// TestJSONSummaryHasUpstreamFields: the summary line carries every field
// of upstream's SessionSummary, counted as upstream counts them.
func TestJSONSummaryHasUpstreamFields(t *testing.T) {
	m := manifest(t, t.TempDir(), `
- exec:
    - /bin/false: {}
    - /bin/true: {require: [exec#/bin/false]}
    - /bin/echo: {require: [exec#/bin/false]}
`)
	r := ccm(t, "run", "--json", m)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var sum map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"start_time", "end_time", "total_duration", "total_resources", "unique_resources", "changed_resources", "failed_resources",
		"skipped_resources", "stable_resources", "refreshed_count", "requirements_unmet_count", "health_checked_count", "health_check_ok_count",
		"health_check_warning_count", "health_check_critical_count", "health_check_unknown_count", "total_errors"} {
		if _, ok := sum[k]; !ok {
			t.Errorf("summary lacks %q: %s", k, lines[len(lines)-1])
		}
	}
	for k, want := range map[string]float64{"total_resources": 3, "unique_resources": 3, "failed_resources": 1, "skipped_resources": 2, "requirements_unmet_count": 2, "total_errors": 1} {
		if sum[k] != want {
			t.Errorf("%s = %v, want %v", k, sum[k], want)
		}
	}
	start, err1 := time.Parse(time.RFC3339Nano, sum["start_time"].(string))
	end, err2 := time.Parse(time.RFC3339Nano, sum["end_time"].(string))
	if err1 != nil || err2 != nil || end.Before(start) || start.IsZero() {
		t.Errorf("start_time %v, end_time %v", sum["start_time"], sum["end_time"])
	}
}
