package main_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn/natstest"
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
        - @/local-backend:
            ensure: "{{ len(registrations('prod', 'http', 'web', '127.0.0.1')) > 0 ? 'present' : 'absent' }}"
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
	cfg, targets := filepath.Join(lb, "backends.cfg"), filepath.Join(lb, "targets.json")
	const ours = "server 127.0.0.1 127.0.0.1:8080 check weight 246"
	enginetest.Eventually(t, "the local backend's flag file", func() bool { _, err := os.Stat(filepath.Join(lb, "local-backend")); return err == nil })
	enginetest.Eventually(t, "both backends in the balancer", func() bool {
		return contains(cfg, ours) && contains(cfg, "server 10.0.0.2 10.0.0.2:8080 check weight 236")
	})
	enginetest.Eventually(t, "the scraped backend in the targets", func() bool { return contains(targets, `"127.0.0.1:8080"`) })
	if contains(targets, "10.0.0.2") {
		t.Fatal("an entry without prometheus.io/scrape is a Prometheus target")
	}

	var found []registration.Entry
	if err := json.Unmarshal([]byte(f.must("registration", "query", "prod", "http", "web", "--json")), &found); err != nil || len(found) != 2 {
		t.Fatalf("query: %v %+v", err, found)
	}

	start := time.Now()
	writeFile(t, status, "2", 0o644)
	enginetest.Eventually(t, "the failed backend leaves the balancer", func() bool { return !contains(cfg, ours) && contains(cfg, "10.0.0.2:8080") })
	t.Logf("backend left the balancer's file %v after its service failed", time.Since(start).Round(time.Millisecond))
	enginetest.Eventually(t, "and the targets", func() bool { return contains(targets, "[]") })
	local := filepath.Join(lb, "local-backend")
	exists := func() bool { _, err := os.Stat(local); return err == nil }
	enginetest.Eventually(t, "a property read when the manifest loaded follows too", func() bool { return !exists() })

	start = time.Now()
	writeFile(t, status, "0", 0o644)
	enginetest.Eventually(t, "the recovered backend returns", func() bool { return contains(cfg, ours) && exists() })
	t.Logf("backend returned %v after its service recovered", time.Since(start).Round(time.Millisecond))
	if strings.Contains(b.logs(), "repaired too often") {
		t.Fatalf("the balancer's new desired states were taken for a fight:\n%s", b.logs())
	}
}

// TestAgentRegistrationPublishes: upstream's agent setting registration:
// jetstream publishes the stable resources' entries.
func TestAgentRegistrationPublishes(t *testing.T) {
	f := newFleet(t)
	f.must("registration", "init")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "status"), "0", 0o644)
	writeFile(t, filepath.Join(dir, "check_app"), "#!/bin/sh\nexit $(cat "+dir+"/status)\n", 0o755)
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, cfg, "manifests: ["+manifest(t, dir, backendNode)+"]\nregistration: jetstream\n", 0o644)
	cmd := exec.Command(bin, "agent", "--config", cfg, "--json", "--state-dir", t.TempDir())
	cmd.Env = f.env
	startCmd(t, cmd).converged(1)
	enginetest.Eventually(t, "the agent's registration", func() bool {
		return strings.Contains(f.must("registration", "query", "prod", "--json"), `"address": "127.0.0.1"`)
	})
}

// TestRegistrationCommands: create, query in each format, watch, rm.
func TestRegistrationCommands(t *testing.T) {
	f := newFleet(t)
	if out := f.must("registration", "init", "--replicas", "1", "--max-age", "5m"); !strings.Contains(out, "Registration stream ready stream=REGISTRATION") {
		t.Fatalf("init said %q", out)
	}
	if out := f.must("reg", "query"); out != "No results found\n" {
		t.Fatalf("empty query: %q", out)
	}
	watch := exec.Command(bin, "registration", "watch", "prod", "--json")
	watch.Env = f.env
	lines := bufio.NewScanner(startPiped(t, watch, watch.StdoutPipe, os.Kill))

	out := f.must("r", "create", "--cluster", "prod", "--service", "web", "--protocol", "http", "--address", "10.0.0.1", "--port", "80", "-A", "team=ops", "-A", "tier=front")
	if !strings.Contains(out, "Registration entry created cluster=prod service=web protocol=http address=10.0.0.1 port=80 priority=100") {
		t.Fatalf("create said %q", out)
	}
	const listing = "Service: web @ prod\n\n       Cluster: prod\n      Protocol: http\n       Service: web\n       Address: 10.0.0.1\n          Port: 80\n      Priority: 100\n   Annotations:\n                team: ops\n                tier: front\n\n"
	if got := f.must("registration", "q", "prod", "http", "web", "*"); got != listing {
		t.Fatalf("query\n%s\nwant\n%s", got, listing)
	}
	if got := f.must("registration", "query", "prod", "--yaml"); !strings.Contains(got, "address: 10.0.0.1") || !strings.Contains(got, "ttl: 30s") {
		t.Fatalf("yaml:\n%s", got)
	}
	if got := f.must("registration", "query", "dev"); got != "No results found\n" {
		t.Fatalf("another cluster: %q", got)
	}
	if r := f.ccm("registration", "rm", "--cluster", "prod", "--service", "web", "--protocol", "http", "--address", "10.0.0.1", "--port", "80"); r.code != 2 || !strings.Contains(r.stderr, "--force") {
		t.Fatalf("rm without a terminal or --force: exit %d %s", r.code, r.stderr)
	}
	f.must("registration", "delete", "--cluster", "prod", "--service", "web", "--protocol", "http", "--address", "10.0.0.1", "--port", "80", "--force")
	for _, want := range []string{`{"action":"register","entry":{"cluster":"prod","service":"web","protocol":"http","address":"10.0.0.1","port":80,"priority":100,"annotations":{"team":"ops","tier":"front"},"ttl":"30s"}}`,
		`{"action":"remove","entry":{"cluster":"prod","service":"web","protocol":"http","address":"10.0.0.1","port":null,"priority":0},"reason":"Remove"}`} {
		if !lines.Scan() || lines.Text() != want {
			t.Fatalf("watch printed %q, want %q", lines.Text(), want)
		}
	}
	if got := f.must("registration", "query"); got != "No results found\n" {
		t.Fatalf("after rm: %q", got)
	}
	for _, bad := range [][]string{
		{"registration", "create", "--cluster", "prod", "--service", "web", "--protocol", "http", "--address", "web1", "--port", "80"},
		{"registration", "create", "--cluster", "prod", "--service", "web", "--protocol", "http", "--address", "10.0.0.1"},
		{"registration", "init", "--replicas", "7"},
	} {
		if r := f.ccm(bad...); r.code != 2 {
			t.Errorf("%v: exit %d %s", bad, r.code, r.stderr)
		}
	}
}

// dbConf renders the address the db service registered into @/db.conf.
var dbConf = fileAt("@/db.conf", "{{ registrations('prod', 'tcp', 'db', '*')[0].Address }}")

// TestOneShotLookups: upstream's `ccm apply -R STREAM` and `ccm ensure
// file --registration` render registrations(); ensure's -R with a
// TYPE#NAME is still --require.
func TestOneShotLookups(t *testing.T) {
	f := newFleet(t)
	f.must("registration", "init", "-R", "REGISTRATIONS")
	f.must("registration", "create", "-R", "REGISTRATIONS", "--cluster", "prod", "--service", "db", "--protocol", "tcp", "--address", "10.0.0.5", "--port", "5432", "--ttl", "1h")
	dir := t.TempDir()
	m := manifest(t, dir, dbConf)
	f.must("apply", m, "-R", "REGISTRATIONS")
	if got := read(t, dir+"/db.conf"); got != "10.0.0.5\n" {
		t.Fatalf("apply rendered %q", got)
	}
	if r := f.ccm("apply", m, "--registration", "NOPE"); r.code != 1 || !strings.Contains(r.stdout+r.stderr, "registration stream cannot be read") {
		t.Fatalf("a missing stream: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	tmpl := filepath.Join(dir, "backends.cfg.templ")
	writeFile(t, tmpl, "{{ len(registrations('*', '*', 'db', '*')) }} db\n", 0o644)
	f.must("ensure", "file", dir+"/count", "--content-file", tmpl, "--registration", "REGISTRATIONS")
	if got := read(t, dir+"/count"); got != "1 db\n" {
		t.Fatalf("ensure rendered %q", got)
	}
	if r := f.ccm("ensure", "file", dir+"/other", "-R", "file#/nowhere"); r.code == 0 || !strings.Contains(r.stderr+r.stdout, "file#/nowhere") {
		t.Fatalf("-R TYPE#NAME was not taken as --require: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// registrationConf is the nats-server configuration docs/registration.md
// gives.
var registrationConf = filepath.Join("..", "..", "examples", "nats", "registration.conf")

// TestRegistrationsRunWithTheLeastPermissions: a host with only the
// permissions the docs give announces its service and reads the
// registry, and cannot announce another address.
func TestRegistrationsRunWithTheLeastPermissions(t *testing.T) {
	conf := read(t, registrationConf)
	if !strings.Contains(read(t, filepath.Join("..", "..", "docs", "registration.md")), "```\n"+conf+"```\n") {
		t.Fatal("docs/registration.md does not hold examples/nats/registration.conf as it is")
	}
	f := newFleetWith(t, natstest.Options{Config: registrationConf}, nats.UserInfo("admin", "change-me-admin"))
	base := f.env
	admin := append(base[:len(base):len(base)], "NATS_USER=admin", "NATS_PASSWORD=change-me-admin")
	host := append(base[:len(base):len(base)], "NATS_USER=web-1", "NATS_PASSWORD=change-me-web-1")
	f.env = admin
	f.must("registration", "init")
	f.must("registration", "create", "--cluster", "prod", "--service", "db", "--protocol", "tcp", "--address", "10.0.0.5", "--port", "5432", "--ttl", "1h")

	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "status"), "0", 0o644)
	writeFile(t, filepath.Join(dir, "check_app"), "#!/bin/sh\nexit $(cat "+dir+"/status)\n", 0o755)
	// dbConf as one more of backendNode's resources.
	m := strings.Replace(backendNode, "address: 127.0.0.1", "address: 192.0.2.10", 1) + strings.ReplaceAll(dbConf, "\n", "\n    ")
	f.env = host
	w := f.watch("--state-dir", t.TempDir(), "--register", "jetstream", manifest(t, dir, m))
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(w.logs())
		}
	})
	w.converged(2)
	f.env = admin
	enginetest.Eventually(t, "web-1's registration", func() bool {
		return strings.Contains(f.must("registration", "query", "prod", "http", "web", "--json"), `"address": "192.0.2.10"`)
	})
	if got := read(t, dir+"/db.conf"); got != "10.0.0.5\n" {
		t.Fatalf("db.conf = %q", got)
	}
	if strings.Contains(w.logs(), "refused") || strings.Contains(w.logs(), "ermission") {
		t.Fatalf("the host lacked a permission:\n%s", w.logs())
	}
	f.env = host
	if r := f.ccm("registration", "create", "--cluster", "prod", "--service", "web", "--protocol", "http", "--address", "10.0.0.9", "--port", "80"); r.code != 1 {
		t.Fatalf("a host announcing another address: exit %d\n%s", r.code, r.stderr)
	}
}
