package main_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn/natstest"
)

// fleetConf is the nats-server configuration docs/fleet.md gives.
var fleetConf = filepath.Join("..", "..", "examples", "nats", "fleet.conf")

func TestTheDocsGiveTheTestedPermissions(t *testing.T) {
	conf, docs := read(t, fleetConf), read(t, filepath.Join("..", "..", "docs", "fleet.md"))
	if !strings.Contains(docs, "```\n"+conf+"```\n") {
		t.Fatal("docs/fleet.md does not hold examples/nats/fleet.conf as it is")
	}
}

func TestAFleetRunsWithTheLeastPermissions(t *testing.T) {
	f := newFleetWith(t, natstest.Options{Config: fleetConf}, nats.UserInfo("admin", "change-me-admin"))
	base := f.env
	admin := append(base[:len(base):len(base)], "NATS_USER=admin", "NATS_PASSWORD=change-me-admin")
	host := append(base[:len(base):len(base)], "NATS_USER=web-1", "NATS_PASSWORD=change-me-web-1")
	dir, keys := t.TempDir(), t.TempDir()
	const loc = "obj://ccm/site.tgz"
	f.env = admin
	f.must("fleet", "init")
	f.must("bundle", "keygen", keys+"/signer")
	f.putKV("data", "common", "data:\n  greeting: hello\n")
	site := "- file:\n    - @/motd: {ensure: present, content: \"{{ lookup('data.greeting') }} %s\\n\", owner: root, group: root, mode: \"0644\"}\n"
	f.publish(dir, loc, strings.Replace(site, "%s", "one", 1), keys+"/signer")

	f.env = host
	w := f.watch("--state-dir", t.TempDir(), "--trust", keys+"/signer.pub", "--allow-unsigned-data", "--hiera", "kv://data/common",
		"--report", "nats", "--hostname", "web-1", "--report-heartbeat", "300ms", loc)
	w.converged(1)
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(w.logs())
		}
	})
	f.env = admin
	enginetest.Eventually(t, "web-1 converged in fleet status", func() bool { line, _ := f.statusLine("web-1"); return strings.Contains(line, " converged ") })
	f.publish(dir, loc, strings.Replace(site, "%s", "two", 1), keys+"/signer")
	f.putKV("data", "common", "data:\n  greeting: hi\n")
	enginetest.Eventually(t, "the new revision and data on web-1", func() bool { return fileIs(dir+"/motd", "hi two\n", 0o644) })
	if strings.Contains(w.logs(), "refused an operation") {
		t.Fatalf("the host lacked a permission:\n%s", w.logs())
	}

	f.env = host
	file := packed(t, f, dir, motd("evil"))
	if r := f.ccm("bundle", "push", "--force", file, loc); r.code != 1 || !strings.Contains(r.stderr, "Permissions Violation") || !strings.Contains(r.stderr, "docs/fleet.md") {
		t.Fatalf("a host pushing: exit %d\n%s", r.code, r.stderr)
	}
	m := manifest(t, t.TempDir(), fileAt("@/a", "a"))
	if r := f.ccm("run", "--state-dir", t.TempDir(), "--report", "nats", "--hostname", "web-2", m); !strings.Contains(r.stderr, "Permissions Violation") {
		t.Fatalf("web-1 reporting as web-2: exit %d\n%s", r.code, r.stderr)
	}
	f.env = admin
	if line, _ := f.statusLine("web-2"); line != "" {
		t.Fatalf("web-1 reported as web-2: %s", line)
	}
}

func TestJetStreamMissingIsSaidAtOnce(t *testing.T) {
	f := newFleetWith(t, natstest.Options{NoJetStream: true})
	for _, args := range [][]string{{"fleet", "status"}, {"bundle", "history", "obj://ccm/site.tgz"}} {
		r := f.ccm(args...)
		if r.code != 1 || !strings.Contains(r.stderr, "start nats-server with JetStream") {
			t.Fatalf("ccm %s: exit %d\n%s", strings.Join(args, " "), r.code, r.stderr)
		}
	}
}

func TestARefusedLoginIsSaidAtOnce(t *testing.T) {
	f := newFleetWith(t, natstest.Options{User: "admin", Password: "right"})
	f.env = append(f.env, "NATS_USER=admin", "NATS_PASSWORD=wrong")
	r := f.ccm("fleet", "status", "--timeout", "1h")
	if r.code != 1 || !strings.Contains(r.stderr, "Authorization Violation") || !strings.Contains(r.stderr, "check the user") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
}
