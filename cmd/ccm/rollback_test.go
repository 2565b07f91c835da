package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRollbackOfAScaffoldAcrossRuns: `ccm run --rollback` takes back a
// scaffold change that breaks the exec subscribed to it, and later runs
// hold it at its last good files, until the manifest changes it again.
func TestRollbackOfAScaffoldAcrossRuns(t *testing.T) {
	dir := t.TempDir()
	for rel, body := range map[string]string{
		"templates/app.conf": "port = [[ data.port ]]\n",
		"templates/motd":     "welcome\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	conf := filepath.Join(dir, "etc", "app.conf")
	check := "#!/bin/sh\nif grep -Eq '^port = [0-9]+$' " + conf + "; then echo OK; exit 0; fi\necho \"CRITICAL - app refuses $(cat " + conf + ")\"; exit 2\n"
	if err := os.WriteFile(filepath.Join(dir, "check_app"), []byte(check), 0o755); err != nil {
		t.Fatal(err)
	}
	stateDir := filepath.Join(dir, "state")
	run := func(port string) result {
		t.Helper()
		m := manifest(t, dir, `
- scaffold:
    - @/etc:
        source: templates
        data: {port: "`+port+`"}
- exec:
    - reload-app:
        command: /bin/true
        refreshonly: true
        subscribe: [scaffold#@/etc]
        health_checks: [{command: @/check_app}]
`)
		return ccm(t, "run", "--rollback", "--state-dir", stateDir, m)
	}
	const broken = "exec#reload-app health check check_app CRITICAL: CRITICAL - app refuses port = eighty"

	if r := run("8080"); r.code != 0 || read(t, conf) != "port = 8080\n" {
		t.Fatalf("first run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := run("eighty")
	if r.code != 1 || !strings.Contains(r.stdout, "rolled back scaffold#"+dir+"/etc: "+broken) || read(t, conf) != "port = 8080\n" {
		t.Fatalf("bad change: exit %d, app.conf %q\n%s%s", r.code, read(t, conf), r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "refreshed exec#reload-app") {
		t.Errorf("the exec was not refreshed on the restored files:\n%s", r.stdout)
	}
	r = run("eighty")
	if r.code != 1 || !strings.Contains(r.stdout, "held at its last good state since its change broke "+broken) || read(t, conf) != "port = 8080\n" {
		t.Fatalf("the bad change again: exit %d, app.conf %q\n%s%s", r.code, read(t, conf), r.stdout, r.stderr)
	}
	if r := run("9090"); r.code != 0 || read(t, conf) != "port = 9090\n" {
		t.Fatalf("a new desired state: exit %d, app.conf %q\n%s%s", r.code, read(t, conf), r.stdout, r.stderr)
	}
}
