package main_test

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine/enginetest"
)

// statusLine returns host's line of fleet status, and the whole output.
func (f *fleet) statusLine(host string) (string, string) {
	out := f.ccm("fleet", "status").stdout
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, host+" ") {
			return line, out
		}
	}
	return "", out
}

func TestFleetStatusNeverSaysConvergedForAHostBehind(t *testing.T) {
	f := newFleet(t)
	dir, keys := t.TempDir(), t.TempDir()
	f.must("bundle", "keygen", keys+"/signer")
	const loc = "obj://ccm/site.tgz"
	f.publish(dir, loc, motd("one"), keys+"/signer")
	// No heartbeat in the test's time: what the host reports, it reports
	// when it happens.
	w := f.watch("--state-dir", t.TempDir(), "--trust", keys+"/signer.pub", "--report", "nats", "--hostname", "web-1", "--report-heartbeat", "1h", loc)
	w.converged(1)
	standing := func(want string) string {
		t.Helper()
		var out string
		enginetest.Eventually(t, "web-1 "+want, func() bool {
			var line string
			line, out = f.statusLine("web-1")
			return strings.Contains(line, " "+want+" ")
		})
		return out
	}
	standing("converged")

	f.publish(dir, loc, motd("unsigned"), "", "--force")
	out := standing("refused")
	if !strings.Contains(out, "web-1 refused obj://ccm/site.tgz@") || !strings.Contains(out, "bundle: not signed") {
		t.Fatalf("the refusal is not shown:\n%s", out)
	}
	if r := f.ccm("fleet", "status"); r.code != 1 {
		t.Fatalf("exit %d with a refusing host", r.code)
	}

	f.publish(dir, loc, "- file:\n    - @/x: {ensure: present, colour: red}\n", keys+"/signer", "--force")
	standing("reload-failed")
	line, _ := f.statusLine("web-1")
	if fields := strings.Fields(line); len(fields) < 6 || !strings.Contains(out, "applying obj://ccm/site.tgz@") {
		t.Fatalf("line %q", line)
	}
	if r := f.ccm("fleet", "status", "--json"); !strings.Contains(r.stdout, `"standing":"reload-failed"`) || !strings.Contains(r.stdout, `"applied":[`) {
		t.Fatalf("--json:\n%s", r.stdout)
	}

	f.publish(dir, loc, motd("two"), keys+"/signer")
	standing("converged")
	f.must("fleet", "status")
}

func TestTwoHostsWithOneNameAreReported(t *testing.T) {
	f := newFleet(t)
	const loc = "obj://ccm/site.tgz"
	f.publish(t.TempDir(), loc, motd("one"), "")
	for range 2 {
		w := f.watch("--allow-unsigned", "--state-dir", t.TempDir(), "--report", "nats", "--hostname", "web-1", "--report-heartbeat", "200ms", loc)
		w.converged(1)
	}
	enginetest.Eventually(t, "the duplicate name reported", func() bool {
		line, out := f.statusLine("web-1")
		return strings.Contains(line, " duplicate ") && strings.Contains(out, "two processes report under this name")
	})
}
