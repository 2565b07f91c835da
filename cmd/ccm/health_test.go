package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUpstreamMonitoringManifestsValidate: upstream's monitoring doc
// manifests (Nagios and Goss health checks) are accepted.
func TestUpstreamMonitoringManifestsValidate(t *testing.T) {
	for _, c := range []string{"doc-monitoring-L42", "doc-monitoring-L77"} {
		path := filepath.Join("..", "..", "..", "shared", "upstream-corpus", "manifests", c, "manifest.yaml")
		if _, err := os.Stat(path); err != nil {
			t.Skipf("the upstream corpus is not beside the checkout: %v", err)
		}
		if r := ccm(t, "validate", path); r.code != 0 {
			t.Errorf("%s: exit %d\n%s%s", c, r.code, r.stdout, r.stderr)
		}
	}
}

// TestMonitorOnlyRunsOnlyTheChecks: apply --monitor-only changes nothing,
// reports each check, and exits 1 when one is CRITICAL.
func TestMonitorOnlyRunsOnlyTheChecks(t *testing.T) {
	dir := t.TempDir()
	status := filepath.Join(dir, "status")
	check := filepath.Join(dir, "check_app")
	if err := os.WriteFile(check, []byte("#!/bin/sh\ncode=$(cat "+status+")\necho \"app status $code\"\nexit $code\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	m := manifest(t, dir, `
- file:
    - @/motd:
        ensure: present
        content: hello
        owner: root
        group: root
        mode: "0644"
        health_checks: [{command: `+check+`}]
`)
	for _, tt := range []struct {
		code, want string
		exit       int
	}{
		{"0", "healthy   file#" + dir + "/motd: health check check_app OK", 0},
		{"1", "warning   file#" + dir + "/motd: health check check_app WARNING: app status 1", 0},
		{"2", "failed    file#" + dir + "/motd: health check check_app CRITICAL: app status 2", 1},
	} {
		if err := os.WriteFile(status, []byte(tt.code), 0o644); err != nil {
			t.Fatal(err)
		}
		r := ccm(t, "apply", "--monitor-only", m)
		if r.code != tt.exit || !strings.Contains(r.stdout, tt.want) {
			t.Errorf("status %s: exit %d\n%s%s\nwant exit %d and %q", tt.code, r.code, r.stdout, r.stderr, tt.exit, tt.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "motd")); err == nil {
			t.Fatal("--monitor-only wrote the file")
		}
	}
}
