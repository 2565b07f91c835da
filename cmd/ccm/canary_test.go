package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
)

// canaryManifest manages what no report may show, each marked with
// "CANARY": a mode-0600 file's content, and the values of sensitive
// resources, literal text beside templates included. public.conf is the
// control: its diff must show.
const canaryManifest = `
data:
  host: db.example
ccm:
  resources:
    - file:
        - defaults: {ensure: present, owner: root, group: root}
        - @/private.conf:
            mode: "0600"
            content: "password = PRIVATE-CANARY-1\n"
        - @/shadowed.conf:
            mode: "0644"
            content: "public now\n"
        - @/sensitive.conf:
            mode: "0644"
            content: "api_key = SENSITIVE-CANARY-2\nhost = {{ lookup('data.host') }}\n"
            sensitive: true
        - @/public.conf:
            mode: "0644"
            content: "port = 80\n"
        - @/validated.conf:
            mode: "0644"
            content: "VALIDATED-CANARY-8, then {{ lookup('data.host') }}\n"
            validate: "/bin/sh -c 'head -c 18 $0; exit 1' %s"
            sensitive: true
    - exec:
        - token:
            command: "/bin/sh -c 'exit 0' SENSITIVE-CANARY-3 {{ lookup('data.host') }}"
            sensitive: true
        - missing:
            command: "/nonexistent/SENSITIVE-CANARY-4 {{ lookup('data.host') }}"
            sensitive: true
`

// canaryDrift puts back what the files held before ccm: old private and
// sensitive content, which no diff may show either.
func canaryDrift(t *testing.T, dir string) {
	t.Helper()
	for name, f := range map[string]struct {
		content string
		mode    os.FileMode
	}{
		// Readable by others now, not once repaired.
		"private.conf": {"password = OLD-PRIVATE-CANARY-5\n", 0o644},
		// Private now, readable by others once repaired.
		"shadowed.conf":  {"secret = OLD-PRIVATE-CANARY-6\n", 0o600},
		"sensitive.conf": {"api_key = OLD-SENSITIVE-CANARY-7\n", 0o644},
		"public.conf":    {"port = 81\n", 0o644},
	} {
		// Replaced whole, so a watching daemon never sees the old
		// content with the other mode.
		tmp := filepath.Join(dir, ".drift")
		if err := os.WriteFile(tmp, []byte(f.content), f.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(tmp, f.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
}

var canary = regexp.MustCompile(`[A-Z-]*CANARY-\d`)

// noCanary fails when what a command printed shows a canary.
func noCanary(t *testing.T, what, out string) {
	t.Helper()
	if found := canary.FindAllString(out, -1); found != nil {
		t.Errorf("%s shows %q:\n%s", what, found, out)
	}
}

// wantDigest checks that a JSON event of private.conf carries its
// content as a digest, and one of sensitive.conf as redacted.
func wantDigest(t *testing.T, what string, ev map[string]any) {
	t.Helper()
	props, _ := ev["properties"].(map[string]any)
	name, _ := ev["name"].(string)
	switch filepath.Base(name) {
	case "private.conf":
		if c, _ := props["content"].(string); !strings.HasPrefix(c, "sha256:") || len(c) != 71 || props["content_size"] != float64(28) {
			t.Errorf("%s: private.conf properties = %v, want the content's sha256 and size", what, props)
		}
	case "sensitive.conf":
		if props["content"] != "[redacted]" || props["content_size"] != nil {
			t.Errorf("%s: sensitive.conf properties = %v, want the content redacted", what, props)
		}
	}
}

// jsonLines decodes the JSON objects of out, one a line.
func jsonLines(out string) []map[string]any {
	var evs []map[string]any
	for _, l := range strings.Split(out, "\n") {
		var ev map[string]any
		if json.Unmarshal([]byte(l), &ev) == nil {
			evs = append(evs, ev)
		}
	}
	return evs
}

// TestNoCanaryInOneShotOutput runs the canary manifest through the
// one-shot commands, with diffs asked for.
func TestNoCanaryInOneShotOutput(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, canaryManifest)
	for _, args := range [][]string{
		{"run", "--json", "--diff", "--log-level", "debug", m},
		{"run", "--diff", "--verbose", m},
		{"run", "--noop", "--diff", "--json", m},
		{"run", "--noop", "--diff", m},
		{"apply", "--diff", m},
	} {
		canaryDrift(t, dir)
		r := ccm(t, args...)
		noCanary(t, strings.Join(args, " "), r.stdout+r.stderr)
		if want := 1 - strings.Count(strings.Join(args, " "), "--noop"); r.code != want {
			t.Errorf("ccm %v: exit %d, want %d (exec#missing and validated.conf fail unless in noop)\n%s%s", args, r.code, want, r.stdout, r.stderr)
		}
		if r.code == 1 && !strings.Contains(r.stdout, "validate refused the new content") {
			t.Errorf("ccm %v: validated.conf's refusal is missing:\n%s", args, r.stdout)
		}
		if !strings.Contains(r.stdout, "-port = 81") {
			t.Errorf("ccm %v: the public file's diff is missing:\n%s", args, r.stdout)
		}
		for _, ev := range jsonLines(r.stdout) {
			wantDigest(t, strings.Join(args, " "), ev)
		}
	}
	for _, args := range [][]string{{"validate", m}, {"graph", m}} {
		r := ccm(t, args...)
		noCanary(t, strings.Join(args, " "), r.stdout+r.stderr)
	}
}

// TestNoCanaryInAManifestError: refusing a sensitive resource's literal
// value does not quote it.
func TestNoCanaryInAManifestError(t *testing.T) {
	m := manifest(t, t.TempDir(), `
- exec:
    - bad:
        command: /bin/true
        environment: ["NO-EQUALS-CANARY-1"]
        cwd: relative/CANARY-2
        sensitive: true
`)
	for _, cmd := range []string{"validate", "run"} {
		r := ccm(t, cmd, m)
		noCanary(t, cmd, r.stdout+r.stderr)
		if r.code != 2 || !strings.Contains(r.stderr, `environment: item 1: "[redacted]" is not KEY=VALUE`) {
			t.Errorf("ccm %s: exit %d\n%s", cmd, r.code, r.stderr)
		}
	}
}

// TestNoCanaryThroughTheDaemon drifts the files under a watching daemon
// and reads its events, status and logs through every client command.
func TestNoCanaryThroughTheDaemon(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, canaryManifest)
	canaryDrift(t, dir)
	w := startWatch(t, "--diff", "--log-level", "debug", m)
	w.converged(7)
	canaryDrift(t, dir)
	unrepaired := map[string]bool{}
	for _, name := range []string{"private.conf", "shadowed.conf", "sensitive.conf", "public.conf"} {
		unrepaired[filepath.Join(dir, name)] = true
	}
	for len(unrepaired) > 0 {
		ev := w.waitFor("the repairs", func(ev engine.Event) bool { return unrepaired[ev.Name] && ev.Changed })
		delete(unrepaired, ev.Name)
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		noCanary(t, "the repair event of "+ev.Name, string(b))
	}
	for _, args := range [][]string{
		{"status"}, {"status", "--json"}, {"events"}, {"events", "--verbose"}, {"events", "--json"},
	} {
		r := ccm(t, append(args, "--socket", w.socket)...)
		if r.code != 0 && args[0] == "events" {
			t.Errorf("ccm %v: exit %d\n%s", args, r.code, r.stderr)
		}
		noCanary(t, strings.Join(args, " "), r.stdout+r.stderr)
		for _, ev := range jsonLines(r.stdout) {
			wantDigest(t, strings.Join(args, " "), ev)
		}
	}
	w.stop()
	noCanary(t, "the daemon's log", w.logs())
}

// TestNoCanaryInFleetReports publishes a run's events and status to NATS.
func TestNoCanaryInFleetReports(t *testing.T) {
	f := newFleet(t)
	dir := t.TempDir()
	m := manifest(t, dir, canaryManifest)
	canaryDrift(t, dir)
	r := f.ccm("run", "--diff", "--report", "nats", "--hostname", "canary", m)
	noCanary(t, "run --report nats", r.stdout+r.stderr)
	evs := streamEvents(t, f.js(), "canary")
	if len(evs) < 7 {
		t.Fatalf("%d events in the stream, want 7", len(evs))
	}
	for _, ev := range evs {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		noCanary(t, "an event in the stream", string(b))
		wantDigest(t, "the stream", ev)
	}
	r = f.ccm("fleet", "status")
	noCanary(t, "fleet status", r.stdout+r.stderr)
}

// TestNoCanaryInSessionsOrEnsure ensures a private file and a sensitive
// exec within a session, and reads the session's files and report and the
// pipe's response.
func TestNoCanaryInSessionsOrEnsure(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "session")
	if r := ccmIn(t, dir, nil, "", "session", "new", "--directory", store); r.code != 0 {
		t.Fatalf("session new: %+v", r)
	}
	env := []string{"CCM_SESSION_STORE=" + store}
	private := filepath.Join(dir, "private.conf")
	req := `{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "file", "properties": ` +
		`{"name": "` + private + `", "ensure": "present", "content": "password = PRIVATE-CANARY-1\n", "owner": "root", "group": "root", "mode": "0600"}}`
	for _, run := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"ensure", "file", filepath.Join(dir, "other.conf"), "--content", "PRIVATE-CANARY-2", "--mode", "0600"}},
		{"", []string{"ensure", "exec", "token", "--command", "/bin/sh -c 'exit 0' SENSITIVE-CANARY-3 {{ Facts.hostname }}", "--sensitive"}},
		{req, []string{"ensure", "api", "pipe"}},
		{req, []string{"ensure", "api", "pipe", "--yaml"}},
		{"", []string{"session", "report"}},
	} {
		r := ccmIn(t, dir, env, run.stdin, run.args...)
		if r.code != 0 {
			t.Errorf("ccm %v: exit %d\n%s%s", run.args, r.code, r.stdout, r.stderr)
		}
		noCanary(t, strings.Join(run.args, " "), r.stdout+r.stderr)
	}
	if got := read(t, private); got != "password = PRIVATE-CANARY-1\n" {
		t.Fatalf("private.conf = %q", got)
	}
	des, err := os.ReadDir(store)
	if err != nil || len(des) < 4 {
		t.Fatalf("session store holds %d files, %v", len(des), err)
	}
	for _, de := range des {
		noCanary(t, "session file "+de.Name(), read(t, filepath.Join(store, de.Name())))
	}
}
