package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources/registration"
)

// backendNode is upstream's web server node: a resource that registers
// itself while its health check passes. The check reads @/status (0 OK, 2
// CRITICAL), standing for the service it watches.
const backendNode = `
data:
  web_port: 8080
ccm:
  resources:
    - file:
        - @/app.conf:
            ensure: present
            content: "listen {{ Data.web_port }}\n"
            owner: root
            group: root
            mode: "0644"
            health_checks:
              - command: @/check_app
            register_when_stable:
              - cluster: prod
                service: web
                protocol: http
                address: 127.0.0.1
                port: "{{ Data.web_port }}"
                priority: 10
                ttl: 10m
                annotations:
                  prometheus.io/scrape: "true"
`

// balancerNode is upstream's load balancer node, its backends from
// registrations() through the docs' Jet template, and Prometheus targets.
const balancerNode = `
ccm:
  resources:
    - file:
        - @/backends.cfg:
            ensure: present
            content: |
              {{ template("backends.cfg.jet") }}
            owner: root
            group: root
            mode: "0644"
        - @/targets.json:
            ensure: present
            content: "{{ registrations('prod', '*', 'web', '*').PrometheusFileSD() }}"
            owner: root
            group: root
            mode: "0644"
`

const backendsJet = `backend web_servers
  balance roundrobin
[[ range _, entry := registrations("prod", "http", "web", "*") ]]
  server [[ entry.Address ]] [[ entry.Address ]]:[[ entry.Port ]] check weight [[ 256 - entry.Priority ]]
[[ end ]]
`

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func contains(path, s string) bool {
	b, err := os.ReadFile(path)
	return err == nil && strings.Contains(string(b), s)
}

// TestBackendLeavesTheBalancerAndComesBack is two daemons sharing a NATS
// server: one registers a service while it is healthy, the other renders
// its backends from registrations(). The service failing takes it out of
// the balancer's file at once; its recovery brings it back.
func TestBackendLeavesTheBalancerAndComesBack(t *testing.T) {
	f := newFleet(t)
	f.must("registration", "init", "--max-age", "1m")
	back, lb := t.TempDir(), t.TempDir()
	status := filepath.Join(back, "status")
	writeFile(t, status, "0", 0o644)
	writeFile(t, filepath.Join(back, "check_app"), "#!/bin/sh\ncode=$(cat "+status+")\necho \"status $code\"\nexit $code\n", 0o755)
	writeFile(t, filepath.Join(lb, "backends.cfg.jet"), backendsJet, 0o644)
	f.must("registration", "create", "--cluster", "prod", "--service", "web", "--protocol", "http", "--address", "10.0.0.2", "--port", "8080", "--priority", "20", "--ttl", "1h")

	a := f.watch("--state-dir", t.TempDir(), "--register", "jetstream", "--health-interval", "250ms", manifest(t, back, backendNode))
	b := f.watch("--state-dir", t.TempDir(), manifest(t, lb, balancerNode))
	a.converged(1)
	b.converged(2)
	cfg, targets := filepath.Join(lb, "backends.cfg"), filepath.Join(lb, "targets.json")
	const ours = "server 127.0.0.1 127.0.0.1:8080 check weight 246"
	eventually(t, "both backends in the balancer", func() bool {
		return contains(cfg, ours) && contains(cfg, "server 10.0.0.2 10.0.0.2:8080 check weight 236")
	})
	eventually(t, "the scraped backend in the targets", func() bool { return contains(targets, `"127.0.0.1:8080"`) })
	if contains(targets, "10.0.0.2") {
		t.Fatal("an entry without prometheus.io/scrape is a Prometheus target")
	}

	var found []registration.Entry
	if err := json.Unmarshal([]byte(f.must("registration", "query", "prod", "http", "web", "--json")), &found); err != nil || len(found) != 2 {
		t.Fatalf("query: %v %+v", err, found)
	}

	start := time.Now()
	writeFile(t, status, "2", 0o644)
	eventually(t, "the failed backend leaves the balancer", func() bool { return !contains(cfg, ours) && contains(cfg, "10.0.0.2:8080") })
	t.Logf("backend left the balancer's file %v after its service failed", time.Since(start).Round(time.Millisecond))
	eventually(t, "and the targets", func() bool { return contains(targets, "[]") })

	start = time.Now()
	writeFile(t, status, "0", 0o644)
	eventually(t, "the recovered backend returns", func() bool { return contains(cfg, ours) })
	t.Logf("backend returned %v after its service recovered", time.Since(start).Round(time.Millisecond))
	if strings.Contains(b.logs(), "repaired too often") {
		t.Fatalf("the balancer's new desired states were taken for a fight:\n%s", b.logs())
	}
}
