package health_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/health"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

func TestNagiosExitCodes(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, body string
		want       resources.HealthStatus
		wantOut    string
	}{
		{"0 is OK", "echo 'HTTP OK: 200'; exit 0", resources.HealthOK, "HTTP OK: 200"},
		{"1 is WARNING", "echo 'DISK WARNING - 85% used'; exit 1", resources.HealthWarning, "DISK WARNING - 85% used"},
		{"2 is CRITICAL", "echo 'connection refused'; exit 2", resources.HealthCritical, "connection refused"},
		{"3 is UNKNOWN", "echo 'no such host'; exit 3", resources.HealthUnknown, "no such host"},
		{"any other code is UNKNOWN", "exit 42", resources.HealthUnknown, ""},
		{"stderr is the output when stdout is empty", "echo 'bad option' >&2; exit 2", resources.HealthCritical, "bad option"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := script(t, dir, "check_"+string(rune('a'+i)), tt.body)
			res := runFirst(t, "- command: "+p)
			if res.Status != tt.want || res.Output != tt.wantOut || res.Tries != 1 {
				t.Errorf("result %+v, want status %s output %q after 1 try", res, tt.want, tt.wantOut)
			}
			if res.Name != filepath.Base(p) {
				t.Errorf("name %q, want the program's base name %q", res.Name, filepath.Base(p))
			}
		})
	}
}

func TestNagiosRunsWithoutAShell(t *testing.T) {
	dir := t.TempDir()
	p := script(t, dir, "check_args", `for a in "$@"; do echo "[$a]"; done`)
	res := runFirst(t, "- command: "+p+` -H localhost --expect "Acme Inc" $HOME ';'`)
	want := "[-H]\n[localhost]\n[--expect]\n[Acme Inc]\n[$HOME]\n[;]"
	if res.Output != want {
		t.Errorf("arguments reached the plugin as\n%s\nwant\n%s", res.Output, want)
	}
}

func TestNagiosProgramMissingIsUnknown(t *testing.T) {
	res := runFirst(t, "- command: /nonexistent/check_nothing")
	if res.Status != resources.HealthUnknown || !strings.Contains(res.Output, "no such file") {
		t.Errorf("result %+v, want UNKNOWN saying the program is missing", res)
	}
}

// TestNagiosTimeoutKillsTheProcessGroup: a plugin whose child hangs is
// killed with the child when its try's timeout expires.
func TestNagiosTimeoutKillsTheProcessGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	p := script(t, dir, "check_hang", "sleep 300 & echo $! > "+pidFile+"; wait")
	res := runFirst(t, "- {command: "+p+", timeout: 200ms}")
	if res.Status != resources.HealthUnknown || !strings.Contains(res.Output, "timed out") {
		t.Fatalf("result %+v, want UNKNOWN for a timeout", res)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	resourcetest.WaitExited(t, pid)
}

// TestTries: a failing check is tried again after try_sleep, waited on
// the clock, until it passes or the tries are spent.
func TestTries(t *testing.T) {
	tests := []struct {
		name       string
		passOn     int // the try that passes; 0: none
		props      string
		wantTries  int
		wantStatus resources.HealthStatus
		wantWaits  []time.Duration
	}{
		{"passes on the third of five", 3, "tries: 5, try_sleep: 2s", 3, resources.HealthOK, []time.Duration{2 * time.Second, 2 * time.Second}},
		{"spends every try", 0, "tries: 3, try_sleep: 500ms", 3, resources.HealthCritical, []time.Duration{500 * time.Millisecond, 500 * time.Millisecond}},
		{"try_sleep defaults to 1s", 0, "tries: 2", 2, resources.HealthCritical, []time.Duration{time.Second}},
		{"tries defaults to 1", 0, "timeout: 5s", 1, resources.HealthCritical, nil},
		{"an OK first try does not wait", 1, "tries: 4", 1, resources.HealthOK, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			count := filepath.Join(dir, "count")
			p := script(t, dir, "check_flaky", `echo x >> `+count+`
n=$(wc -l < `+count+`)
[ `+strconv.Itoa(tt.passOn)+` -ne 0 ] && [ "$n" -ge `+strconv.Itoa(tt.passOn)+` ] && { echo OK; exit 0; }
echo "CRITICAL try $n"; exit 2`)
			checks := mustParse(t, "- {command: "+p+", "+tt.props+"}")
			res, got := waits(t, checks[0])
			if res.Tries != tt.wantTries || res.Status != tt.wantStatus {
				t.Errorf("result %+v, want %s after %d tries", res, tt.wantStatus, tt.wantTries)
			}
			if !slices.Equal(got, tt.wantWaits) {
				t.Errorf("waited %v, want %v", got, tt.wantWaits)
			}
		})
	}
}

func TestCancelledWhileWaitingIsUnknown(t *testing.T) {
	dir := t.TempDir()
	p := script(t, dir, "check_down", "exit 2")
	checks := mustParse(t, "- {command: "+p+", tries: 3}")
	clk := clock.NewFake(time.Now())
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan resources.HealthResult, 1)
	go func() { done <- checks[0].Run(ctx, clk) }()
	if err := clk.WaitNext(t.Context(), func(time.Time) bool { return true }); err != nil {
		t.Fatal(err)
	}
	cancel()
	res := <-done
	if res.Status != resources.HealthUnknown || res.Tries != 1 || !strings.Contains(res.Output, "interrupted") {
		t.Errorf("result %+v, want UNKNOWN after 1 try, saying it was interrupted", res)
	}
}

// TestNagiosOutputIsCapped: a plugin printing without end costs a few
// kilobytes, not what it prints (upstream kept 2.1 GB of /dev/zero).
func TestNagiosOutputIsCapped(t *testing.T) {
	p := script(t, t.TempDir(), "check_chatty", "head -c 20000000 /dev/zero | tr '\\0' x")
	checks := mustParse(t, "- {command: "+p+"}")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := run(t, checks[0])
	runtime.ReadMemStats(&after)
	if res.Status != resources.HealthOK || len(res.Output) > 4<<10+len("…") || !strings.HasSuffix(res.Output, "…") {
		t.Fatalf("result %s with %d bytes of output, want OK with the first 4 KiB marked cut", res.Status, len(res.Output))
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
		t.Fatalf("the check allocated %d bytes for 20 MB of output", grew)
	}
}

// TestNagiosHasADefaultTimeout: a check without a timeout is stopped at
// the default, handler first.
func TestNagiosHasADefaultTimeout(t *testing.T) {
	defer health.SetDefaultTimeout(200 * time.Millisecond)()
	dir := t.TempDir()
	marker := filepath.Join(dir, "cleaned")
	p := script(t, dir, "check_hang", "trap 'touch "+marker+"; exit 2' TERM; sleep 300 & wait")
	res := runFirst(t, "- {command: "+p+"}")
	if res.Status != resources.HealthUnknown || !strings.Contains(res.Output, "timed out after 200ms; its process group got SIGTERM and exited within the 5s grace period") {
		t.Fatalf("result %+v, want UNKNOWN: stopped by SIGTERM at the default timeout", res)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the plugin's SIGTERM handler did not run")
	}
}
