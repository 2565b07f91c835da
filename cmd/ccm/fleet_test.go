package main_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn/natstest"
	fleetreport "github.com/reactive-ccm/ccm/engine/fleet/report"
)

// fleet is a NATS server and what ccm processes need to use it.
type fleet struct {
	t   *testing.T
	srv *natstest.Server
	// env is the environment of every ccm process: NATS_URL and an empty
	// nats CLI configuration.
	env []string
	// auth is how the test itself proves who it is to the server.
	auth []nats.Option
}

func newFleet(t *testing.T) *fleet {
	t.Helper()
	return newFleetWith(t, natstest.Options{})
}

// newFleetWith starts the fleet's server with o; the test connects with
// auth.
func newFleetWith(t *testing.T, o natstest.Options, auth ...nats.Option) *fleet {
	t.Helper()
	srv := natstest.Start(t, o)
	env := append(os.Environ(), "NATS_URL="+srv.URL(), "NATS_CONTEXT=", "XDG_CONFIG_HOME="+t.TempDir())
	return &fleet{t: t, srv: srv, env: env, auth: auth}
}

// ccm runs the binary to completion against the fleet's server.
func (f *fleet) ccm(args ...string) result {
	f.t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = f.env
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		f.t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

// must runs ccm and requires exit 0.
func (f *fleet) must(args ...string) string {
	f.t.Helper()
	r := f.ccm(args...)
	if r.code != 0 {
		f.t.Fatalf("ccm %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// watch starts `ccm run --watch --json` against the fleet's server.
func (f *fleet) watch(args ...string) *watcher {
	f.t.Helper()
	cmd := exec.Command(bin, append([]string{"run", "--watch", "--json"}, args...)...)
	cmd.Env = f.env
	return startCmd(f.t, cmd)
}

// publish packs src (a manifest, @ standing for dir) and pushes it to loc,
// signed with key when key is set, with push's flags.
func (f *fleet) publish(dir, loc, src, key string, flags ...string) {
	f.t.Helper()
	b := f.t.TempDir()
	if err := os.WriteFile(filepath.Join(b, "manifest.yaml"), []byte(strings.ReplaceAll(src, "@", dir)), 0o644); err != nil {
		f.t.Fatal(err)
	}
	out := filepath.Join(f.t.TempDir(), "bundle.tgz")
	args := []string{"bundle", "pack", b, "-o", out}
	if key != "" {
		args = append(args, "--sign", key)
	}
	f.must(args...)
	f.must(append([]string{"bundle", "push", out, loc}, flags...)...)
}

// motd is a manifest of one file, @/motd.
func motd(content string) string { return fileAt("@/motd", content) }

func TestFleetBundleFromObjectStore(t *testing.T) {
	f := newFleet(t)
	dir, state := t.TempDir(), t.TempDir()
	const loc = "obj://ccm/web.tgz"
	f.publish(dir, loc, motd("one"), "")

	w := f.watch("--allow-unsigned", "--state-dir", state, loc)
	w.converged(1)
	if got := read(t, dir+"/motd"); got != "one\n" {
		t.Fatalf("motd = %q", got)
	}

	f.publish(dir, loc, motd("two")+`
    - @/extra:
        ensure: present
        content: "x\n"
        owner: root
        group: root
        mode: "0644"
`, "")
	ev := w.waitFor("the new revision's resource", func(ev engine.Event) bool { return ev.Name == dir+"/extra" && ev.Changed })
	if ev.Trigger != engine.TriggerReload {
		t.Fatalf("trigger = %s, want reload", ev.Trigger)
	}
	enginetest.Eventually(t, "motd rewritten by the new revision", func() bool { return fileIs(dir+"/motd", "two\n", 0o644) })

	f.publish(dir, loc, motd("three")+"\n- file:\n    - @/x: {ensure: present, colour: red}\n", "", "--force")
	enginetest.Eventually(t, "the broken bundle reported", func() bool {
		return strings.Contains(w.logs(), "reload failed; the running manifests stay in force")
	})
	if err := os.WriteFile(dir+"/motd", []byte("tampered\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	enginetest.Eventually(t, "repairs to go on under the running graph", func() bool { return fileIs(dir+"/motd", "two\n", 0o644) })

	f.must("bundle", "push", packed(t, f, dir, motd("four")), loc)
	enginetest.Eventually(t, "the fixed bundle in force", func() bool { return fileIs(dir+"/motd", "four\n", 0o644) })
	w.stop()

	t.Run("restart without NATS converges from the cache", func(t *testing.T) {
		f.srv.Stop()
		if err := os.WriteFile(dir+"/motd", []byte("tampered\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := f.ccm("run", "--allow-unsigned", "--state-dir", state, loc)
		if r.code != 0 || !fileIs(dir+"/motd", "four\n", 0o644) {
			t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stderr, "converging from the cached copy") {
			t.Fatalf("the offline start was not reported:\n%s", r.stderr)
		}
		f.srv.Restart()
	})
}

// packed packs a manifest into a bundle file and returns its path.
func packed(t *testing.T, f *fleet, dir, src string) string {
	t.Helper()
	b := t.TempDir()
	if err := os.WriteFile(filepath.Join(b, "manifest.yaml"), []byte(strings.ReplaceAll(src, "@", dir)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "bundle.tgz")
	f.must("bundle", "pack", b, "-o", out)
	return out
}

func TestFleetRemovedObjectKeepsTheBundleInForce(t *testing.T) {
	f := newFleet(t)
	dir := t.TempDir()
	const loc = "obj://ccm/gone.tgz"
	f.publish(dir, loc, motd("kept"), "")
	w := f.watch("--allow-unsigned", "--state-dir", t.TempDir(), loc)
	w.converged(1)
	f.deleteObject("ccm", "gone.tgz")
	enginetest.Eventually(t, "the removal reported", func() bool { return strings.Contains(w.logs(), "removed from its source") })
	if err := os.Remove(dir + "/motd"); err != nil {
		t.Fatal(err)
	}
	enginetest.Eventually(t, "the last bundle still enforced", func() bool { return fileIs(dir+"/motd", "kept\n", 0o644) })
}

func TestFleetSignedBundles(t *testing.T) {
	f := newFleet(t)
	dir, keys := t.TempDir(), t.TempDir()
	f.must("bundle", "keygen", keys+"/signer")
	f.must("bundle", "keygen", keys+"/other")

	f.publish(dir, "obj://ccm/unsigned.tgz", motd("unsigned"), "")
	r := f.ccm("run", "--state-dir", t.TempDir(), "--trust", keys+"/signer.pub", "obj://ccm/unsigned.tgz")
	if r.code == 0 || !strings.Contains(r.stderr, "bundle: not signed") {
		t.Fatalf("an unsigned bundle was not refused: exit %d\n%s", r.code, r.stderr)
	}
	f.publish(dir, "obj://ccm/wrongkey.tgz", motd("wrong key"), keys+"/other")
	r = f.ccm("run", "--state-dir", t.TempDir(), "--trust", keys+"/signer.pub", "obj://ccm/wrongkey.tgz")
	if r.code == 0 || !strings.Contains(r.stderr, "bad signature") {
		t.Fatalf("a bundle signed by another key was not refused: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(dir + "/motd"); !os.IsNotExist(err) {
		t.Fatal("a refused bundle changed the host")
	}

	const loc = "obj://ccm/signed.tgz"
	f.publish(dir, loc, motd("signed"), keys+"/signer")
	w := f.watch("--state-dir", t.TempDir(), "--trust", keys+"/signer.pub", loc)
	w.converged(1)
	if !fileIs(dir+"/motd", "signed\n", 0o644) {
		t.Fatal("the signed bundle was not applied")
	}
	// A new bundle carrying the old signature: tampered in transit.
	good := packed(t, f, dir, motd("signed"))
	f.must("bundle", "sign", good, "--key", keys+"/signer")
	bad := packed(t, f, dir, motd("tampered"))
	if err := os.Rename(good+".sig", bad+".sig"); err != nil {
		t.Fatal(err)
	}
	f.must("bundle", "push", "--force", bad, loc)
	enginetest.Eventually(t, "the tampered bundle refused", func() bool { return strings.Contains(w.logs(), "refused a new revision") })
	if !fileIs(dir+"/motd", "signed\n", 0o644) {
		t.Fatal("a tampered bundle was applied")
	}
}

// js connects the test itself to the fleet's server.
func (f *fleet) js() jetstream.JetStream {
	f.t.Helper()
	nc, err := nats.Connect(f.srv.URL(), f.auth...)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		f.t.Fatal(err)
	}
	return js
}

func (f *fleet) deleteObject(bucket, key string) {
	f.t.Helper()
	obs, err := f.js().ObjectStore(f.t.Context(), bucket)
	if err == nil {
		err = obs.Delete(f.t.Context(), key)
	}
	if err != nil {
		f.t.Fatal(err)
	}
}

func TestFleetStatusOverThreeHosts(t *testing.T) {
	f := newFleet(t)
	const loc = "obj://ccm/all.tgz"
	dir := t.TempDir()
	f.publish(dir, loc, motd("fleet"), "")
	hosts := []string{"web-1", "web-2", "db-1"}
	ws := map[string]*watcher{}
	for _, h := range hosts {
		ws[h] = f.watch("--allow-unsigned", "--state-dir", t.TempDir(), "--report", "nats", "--hostname", h, "--report-heartbeat", "300ms", loc)
	}
	for _, h := range hosts {
		ws[h].converged(1)
	}
	enginetest.Eventually(t, "three converged hosts in fleet status", func() bool {
		out := f.ccm("fleet", "status").stdout
		return strings.Count(out, " converged ") == 3 && strings.Contains(out, "obj://ccm/all.tgz@")
	})

	c := f.js()
	for _, h := range hosts {
		evs := streamEvents(t, c, h)
		if len(evs) == 0 || evs[0]["host"] != h || evs[0]["trigger"] != "startup" || evs[0]["type"] != "file" {
			t.Fatalf("%s: events in JetStream = %v", h, evs)
		}
	}

	ws["db-1"].stop()
	enginetest.Eventually(t, "the stopped host marked stale", func() bool {
		for _, line := range strings.Split(f.ccm("fleet", "status").stdout, "\n") {
			if strings.HasPrefix(line, "db-1 ") && strings.Contains(line, "STALE") {
				return true
			}
		}
		return false
	})
	r := f.ccm("fleet", "status")
	if r.code != 1 || strings.Count(r.stdout, " converged ") != 2 || !strings.HasPrefix(r.stdout, "3 hosts: 2 converged, 1 STALE") {
		t.Fatalf("fleet status with a stale host: exit %d\n%s", r.code, r.stdout)
	}
	if out := f.must("fleet", "status", "--standing", "converged"); strings.Contains(out, "db-1") {
		t.Fatalf("--standing converged:\n%s", out)
	}
	if r := f.ccm("fleet", "status", "--stale"); r.code != 1 || !strings.HasPrefix(r.stdout, "1 hosts: 1 STALE") {
		t.Fatalf("--stale: exit %d\n%s", r.code, r.stdout)
	}
	f.must("fleet", "forget", "db-1")
	if out := f.must("fleet", "status"); !strings.HasPrefix(out, "2 hosts: 2 converged") {
		t.Fatalf("after forget:\n%s", out)
	}
	if r := f.ccm("fleet", "forget", "db-1"); r.code != 1 || !strings.Contains(r.stderr, "no host db-1") {
		t.Fatalf("forgetting a host twice: exit %d\n%s", r.code, r.stderr)
	}
}

// streamEvents reads the events one host published.
func streamEvents(t *testing.T, js jetstream.JetStream, host string) []map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	subject := fleetreport.SubjectPrefix + host
	cons, err := js.OrderedConsumer(ctx, fleetreport.Stream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{subject}})
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for {
		m, err := cons.Next(jetstream.FetchMaxWait(500 * time.Millisecond))
		if err != nil {
			return out
		}
		var ev map[string]any
		if err := json.Unmarshal(m.Data(), &ev); err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
}

// appConf is a manifest whose file renders hiera data and a kvGet() value.
var appConf = fileAt("@/app.conf", "{{ lookup('data.greeting') }} on {{ kvGet('cfg', 'port') }}")

func TestFleetKVDataRerendersFiles(t *testing.T) {
	f := newFleet(t)
	dir := t.TempDir()
	f.putKV("data", "common", "data:\n  greeting: hello\n")
	f.putKV("cfg", "port", "8080")
	m := manifest(t, dir, appConf)
	w := f.watch("--allow-unsigned", "--state-dir", t.TempDir(), "--hiera", "kv://data/common", m)
	w.converged(1)
	if got := read(t, dir+"/app.conf"); got != "hello on 8080\n" {
		t.Fatalf("app.conf = %q", got)
	}
	f.putKV("cfg", "port", "9090")
	enginetest.Eventually(t, "kvGet's new value rendered", func() bool { return fileIs(dir+"/app.conf", "hello on 9090\n", 0o644) })
	f.putKV("data", "common", "data:\n  greeting: bonjour\n")
	enginetest.Eventually(t, "the new hiera data rendered", func() bool { return fileIs(dir+"/app.conf", "bonjour on 9090\n", 0o644) })
}

func (f *fleet) putKV(bucket, key, value string) {
	f.t.Helper()
	ctx := f.t.Context()
	js := f.js()
	kv, err := js.KeyValue(ctx, bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bucket})
	}
	if err == nil {
		_, err = kv.Put(ctx, key, []byte(value))
	}
	if err != nil {
		f.t.Fatal(err)
	}
}

func TestAgentRunsUpstreamsConfiguration(t *testing.T) {
	f := newFleet(t)
	dir, cache := t.TempDir(), t.TempDir()
	const loc = "obj://ccm/agent.tgz"
	f.putKV("data", "common", "data:\n  motd: from the agent\n")
	f.publish(dir, loc, motd("{{ lookup('data.motd') }}"), "")
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte(`
interval: 45s
manifests:
  - `+loc+`
external_data_url: kv://data/common
cache_dir: `+cache+`
log_level: info
registration: jetstream
`), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "agent", "--config", cfg, "--json", "--allow-unsigned", "--state-dir", t.TempDir())
	cmd.Env = f.env
	w := startCmd(t, cmd)
	w.converged(1)
	if !fileIs(dir+"/motd", "from the agent\n", 0o644) {
		t.Fatalf("motd = %q", read(t, dir+"/motd"))
	}
	if _, err := os.Stat(filepath.Join(cache)); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(cache); len(ents) != 2 {
		t.Fatalf("cache_dir holds %d entries, want the bundle's and the data's", len(ents))
	}
	if strings.Contains(w.logs(), "not supported") {
		t.Fatalf("a setting of the agent was ignored:\n%s", w.logs())
	}
	f.putKV("data", "common", "data:\n  motd: changed in KV\n")
	enginetest.Eventually(t, "the agent to follow the data", func() bool { return fileIs(dir+"/motd", "changed in KV\n", 0o644) })

	r := f.ccm("agent", "--config", filepath.Join(t.TempDir(), "none.yaml"))
	if r.code != 2 || !strings.Contains(r.stderr, "agent configuration") {
		t.Fatalf("a missing configuration: exit %d\n%s", r.code, r.stderr)
	}
}

// bundleServer serves one bundle with an ETag, answering 304 to a
// request that names it.
type bundleServer struct {
	mu      sync.Mutex
	tgz     []byte
	etag    string
	notMods int
}

func (s *bundleServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Header.Get("If-None-Match") == s.etag {
		s.notMods++
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("ETag", s.etag)
	_, _ = w.Write(s.tgz)
}

func (s *bundleServer) put(t *testing.T, f *fleet, dir, src, etag string) {
	t.Helper()
	b, err := os.ReadFile(packed(t, f, dir, src))
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	s.tgz, s.etag = b, etag
	s.mu.Unlock()
}

func (s *bundleServer) conditionalHits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.notMods
}

func TestHTTPBundleWithETag(t *testing.T) {
	f := newFleet(t)
	dir := t.TempDir()
	bs := &bundleServer{}
	bs.put(t, f, dir, motd("v1"), `"1"`)
	srv := httptest.NewServer(bs)
	t.Cleanup(srv.Close)
	url := srv.URL + "/bundle.tgz"

	if r := f.ccm("run", "--state-dir", t.TempDir(), url); r.code != 2 || !strings.Contains(r.stderr, "--allow-http") {
		t.Fatalf("plain http without --allow-http: exit %d\n%s", r.code, r.stderr)
	}
	w := f.watch("--state-dir", t.TempDir(), "--allow-http", "--http-interval", "50ms", url)
	w.converged(1)
	enginetest.Eventually(t, "conditional polls answered 304", func() bool { return bs.conditionalHits() >= 3 })
	bs.put(t, f, dir, motd("v2"), `"2"`)
	enginetest.Eventually(t, "the changed bundle converged", func() bool { return fileIs(dir+"/motd", "v2\n", 0o644) })
}

func TestOneShotRunReportsBeforeExiting(t *testing.T) {
	f := newFleet(t)
	dir := t.TempDir()
	m := manifest(t, dir, motd("once"))
	f.must("run", "--state-dir", t.TempDir(), "--report", "nats", "--hostname", "batch-1", m)
	out := f.must("fleet", "status")
	if !strings.Contains(out, "batch-1") || !strings.Contains(out, " converged ") {
		t.Fatalf("fleet status after a one-shot run:\n%s", out)
	}
	if evs := streamEvents(t, f.js(), "batch-1"); len(evs) != 1 || evs[0]["changed"] != true {
		t.Fatalf("events = %v", evs)
	}
	if r := f.ccm("run", "--report", "carrier-pigeon", m); r.code != 2 {
		t.Fatalf("--report carrier-pigeon: exit %d", r.code)
	}
}

func TestRestartOnABrokenBundleFallsBackToTheLastGoodOne(t *testing.T) {
	f := newFleet(t)
	dir, state := t.TempDir(), t.TempDir()
	const loc = "obj://ccm/fallback.tgz"
	f.publish(dir, loc, motd("good"), "")
	f.must("run", "--allow-unsigned", "--state-dir", state, loc)

	f.publish(dir, loc, motd("broken")+"\n- file:\n    - @/x: {ensure: present, colour: red}\n", "", "--force")
	if err := os.WriteFile(dir+"/motd", []byte("tampered\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := f.watch("--allow-unsigned", "--state-dir", state, loc)
	w.converged(1)
	if !fileIs(dir+"/motd", "good\n", 0o644) {
		t.Fatalf("motd = %q", read(t, dir+"/motd"))
	}
	if !strings.Contains(w.logs(), "the newest manifests do not compile") || !strings.Contains(w.logs(), "colour") {
		t.Fatalf("the fallback was not reported with the error:\n%s", w.logs())
	}
	f.publish(dir, loc, motd("fixed"), "")
	enginetest.Eventually(t, "the fixed bundle in force", func() bool { return fileIs(dir+"/motd", "fixed\n", 0o644) })
	w.stop()

	if r := f.ccm("validate", "--allow-unsigned", "--state-dir", t.TempDir(), loc); r.code != 0 {
		t.Fatalf("validate of the fixed bundle: exit %d\n%s", r.code, r.stderr)
	}
}
