package main_test

import (
	"bufio"
	"context"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/enginetest"
)

// The attacks of issue 23 on what root trusts, each run against the real
// binary: by a local user (uid 65534), by a NATS peer and by an HTTP peer.
// Each must fail with a clear error and change nothing.

const (
	impostorEnv       = "CCM_TEST_IMPOSTOR"
	impostorStoreEnv  = "CCM_TEST_IMPOSTOR_STORE"
	impostorBundleEnv = "CCM_TEST_IMPOSTOR_BUNDLE"
)

// runImpostor serves NATS with JetStream on addr, holding bundle as
// obj://ccm/site.tgz, unsigned; it prints "ready" and runs until killed.
func runImpostor(addr, store, bundle string) int {
	host, p, _ := net.SplitHostPort(addr)
	port, _ := strconv.Atoi(p)
	s, err := server.NewServer(&server.Options{Host: host, Port: port, JetStream: true, StoreDir: store, NoSigs: true, NoLog: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		fmt.Fprintln(os.Stderr, "the impostor server did not start")
		return 1
	}
	if err := putImpostorBundle(s.ClientURL(), bundle); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("ready")
	select {}
}

func putImpostorBundle(url, bundle string) error {
	data, err := os.ReadFile(bundle)
	if err != nil {
		return err
	}
	nc, err := nats.Connect(url)
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	obs, err := js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: "ccm"})
	if err == nil {
		_, err = obs.PutBytes(ctx, "site.tgz", data)
	}
	return err
}

// nobodyDir is a new directory uid 65534 owns and can reach.
func nobodyDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	return dir
}

// startImpostor runs the NATS server of a local user, as uid 65534, on
// addr, serving the bundle file unsigned.
func startImpostor(t *testing.T, addr, bundle string) {
	t.Helper()
	home := nobodyDir(t)
	readable := filepath.Join(home, "site.tgz")
	if err := os.WriteFile(readable, []byte(read(t, bundle)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/proc/self/exe")
	cmd.Env = []string{impostorEnv + "=" + addr, impostorStoreEnv + "=" + filepath.Join(home, "js"), impostorBundleEnv + "=" + readable}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var errb strings.Builder
	cmd.Stderr = &errb
	line, _ := bufio.NewReader(startPiped(t, cmd, cmd.StdoutPipe, os.Kill)).ReadString('\n')
	if strings.TrimSpace(line) != "ready" {
		t.Fatalf("the impostor did not start: %q\n%s", line, errb.String())
	}
}

// defaultNATS returns the address ccm dials with no NATS settings when
// it is free, so the impostor takes it as a local user would; when a
// server runs there, a free loopback port named by $NATS_URL instead.
// env is what ccm's environment needs for that.
func defaultNATS(t *testing.T) (addr string, env []string) {
	t.Helper()
	env = []string{"NATS_CONTEXT=", "NATS_URL=", "XDG_CONFIG_HOME=" + t.TempDir()}
	if l, err := net.Listen("tcp", "127.0.0.1:4222"); err == nil {
		l.Close()
		return "127.0.0.1:4222", env
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr = l.Addr().String()
	l.Close()
	return addr, append(env, "NATS_URL=nats://"+addr)
}

// pwnBundle packs a manifest that writes dir/pwned.
func pwnBundle(t *testing.T, dir string) string {
	t.Helper()
	src := t.TempDir()
	writeManifest(t, filepath.Join(src, "manifest.yaml"), dir, fileAt("@/pwned", "root ran a local user's bundle"))
	out := filepath.Join(t.TempDir(), "site.tgz")
	if r := ccm(t, "bundle", "pack", src, "-o", out); r.code != 0 {
		t.Fatalf("pack: %s", r.stderr)
	}
	return out
}

func TestAttackANATSServerOfALocalUserIsNotObeyed(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("attack tests run as root, attacking as uid 65534")
	}
	dir, keys := t.TempDir(), t.TempDir()
	ccm(t, "bundle", "keygen", keys+"/signer")
	addr, env := defaultNATS(t)
	startImpostor(t, addr, pwnBundle(t, dir))
	for _, args := range [][]string{
		{"run", "--state-dir", t.TempDir(), "obj://ccm/site.tgz"},
		{"run", "--state-dir", t.TempDir(), "--trust", keys + "/signer.pub", "obj://ccm/site.tgz"},
	} {
		r := ccmIn(t, "", env, "", args...)
		if r.code != 1 || !(strings.Contains(r.stderr, "runs as root only when signed") || strings.Contains(r.stderr, "bundle: not signed")) {
			t.Fatalf("ccm %s: exit %d\n%s", strings.Join(args, " "), r.code, r.stderr)
		}
		if _, err := os.Stat(dir + "/pwned"); !os.IsNotExist(err) {
			t.Fatalf("ccm %s ran the local user's bundle", strings.Join(args, " "))
		}
	}
	// The impostor does serve it: an operator who opts in gets it.
	if r := ccmIn(t, "", env, "", "run", "--allow-unsigned", "--state-dir", t.TempDir(), "obj://ccm/site.tgz"); r.code != 0 || !fileIs(dir+"/pwned", "root ran a local user's bundle\n", 0o644) {
		t.Fatalf("with --allow-unsigned: exit %d\n%s", r.code, r.stderr)
	}
}

func TestAttackAnUnsignedCachedBundleIsNotUsedByATrustedRun(t *testing.T) {
	f := newFleet(t)
	dir, keys, state := t.TempDir(), t.TempDir(), t.TempDir()
	f.must("bundle", "keygen", keys+"/signer")
	f.publish(dir, "obj://ccm/site.tgz", motd("unsigned"), "")
	for _, cmd := range []string{"validate", "graph"} {
		f.must(cmd, "--allow-unsigned", "--state-dir", state, "obj://ccm/site.tgz")
	}
	trusted := []string{"run", "--state-dir", state, "--trust", keys + "/signer.pub", "obj://ccm/site.tgz"}
	r := f.ccm(trusted...)
	if r.code != 1 || !strings.Contains(r.stderr, "bundle: not signed") || !strings.Contains(r.stderr, "was not verified") {
		t.Fatalf("online: exit %d\n%s", r.code, r.stderr)
	}
	f.srv.Stop()
	r = f.ccm(trusted...)
	if r.code != 1 || !strings.Contains(r.stderr, "the cached copy of revision") || !strings.Contains(r.stderr, "was not verified") {
		t.Fatalf("offline: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(dir + "/motd"); !os.IsNotExist(err) {
		t.Fatal("a trusted run used an unverified bundle")
	}
}

func TestAttackAnOlderSignedBundlePublishedAgainIsRefused(t *testing.T) {
	f := newFleet(t)
	dir, keys, state := t.TempDir(), t.TempDir(), t.TempDir()
	f.must("bundle", "keygen", keys+"/signer")
	const loc = "obj://ccm/site.tgz"
	old := packed(t, f, dir, motd("old"))
	f.must("bundle", "sign", old, "--key", keys+"/signer")
	f.must("bundle", "push", old, loc)
	trust := []string{"--state-dir", state, "--trust", keys + "/signer.pub", loc}
	w := f.watch(trust...)
	w.converged(1)
	f.publish(dir, loc, motd("new"), keys+"/signer")
	enginetest.Eventually(t, "the new revision applied", func() bool { return fileIs(dir+"/motd", "new\n", 0o644) })

	// The attacker (a NATS peer) publishes the old bundle with its old,
	// valid signature.
	f.must("bundle", "push", "--force", old, loc)
	enginetest.Eventually(t, "the replay refused", func() bool { return strings.Contains(w.logs(), "hosts never go back") })
	w.stop()
	r := f.ccm(append([]string{"run"}, trust...)...)
	if r.code != 0 || !strings.Contains(r.stderr, "hosts never go back") || !fileIs(dir+"/motd", "new\n", 0o644) {
		t.Fatalf("a restarted host: exit %d, motd %q\n%s", r.code, read(t, dir+"/motd"), r.stderr)
	}
	// The operator rolls back on purpose: signed again, it is taken.
	f.must("bundle", "sign", old, "--key", keys+"/signer")
	f.must("bundle", "push", old, loc)
	f.must(append([]string{"run"}, trust...)...)
	if !fileIs(dir+"/motd", "old\n", 0o644) {
		t.Fatal("an explicit rollback was refused")
	}
}

// tlsServer serves h over TLS with a certificate ccm processes trust
// through $SSL_CERT_FILE, which env sets.
func tlsServer(t *testing.T, h http.Handler) (*httptest.Server, []string) {
	t.Helper()
	srv := httptest.NewTLSServer(h)
	t.Cleanup(srv.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv, []string{"SSL_CERT_FILE=" + ca}
}

func TestAttackAnHTTPSSourceRedirectingToHTTPIsRefused(t *testing.T) {
	dir := t.TempDir()
	bundle := pwnBundle(t, dir)
	hits := make(chan string, 10)
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits <- r.URL.Path
		http.ServeFile(w, r, bundle)
	}))
	t.Cleanup(plain.Close)
	srv, env := tlsServer(t, http.RedirectHandler(plain.URL+"/site.tgz", http.StatusFound))
	r := ccmIn(t, "", env, "", "run", "--state-dir", t.TempDir(), srv.URL+"/site.tgz")
	if r.code != 1 || !strings.Contains(r.stderr, "which is not https (allow with --allow-http)") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if len(hits) != 0 {
		t.Fatal("the plain http server was asked")
	}
	if _, err := os.Stat(dir + "/pwned"); !os.IsNotExist(err) {
		t.Fatal("a downgraded fetch was applied")
	}
}

func TestAttackKVDataIsRefusedUnderTrust(t *testing.T) {
	f := newFleet(t)
	dir, keys := t.TempDir(), t.TempDir()
	f.must("bundle", "keygen", keys+"/signer")
	f.putKV("data", "common", "data:\n  greeting: pwned\n")
	m := manifest(t, dir, "data: {greeting: hello}\nccm:\n  resources:\n    - file:\n        - @/motd: {ensure: present, content: \"{{ lookup('data.greeting') }}\\n\", owner: root, group: root, mode: \"0644\"}\n")
	for _, args := range [][]string{
		{"run", "--state-dir", t.TempDir(), "--trust", keys + "/signer.pub", "--hiera", "kv://data/common", m},
		{"run", "--state-dir", t.TempDir(), "--hiera", "kv://data/common", m},
	} {
		r := f.ccm(args...)
		if r.code == 0 || !strings.Contains(r.stderr, "kv:// values carry no signature") {
			t.Fatalf("ccm %s: exit %d\n%s", strings.Join(args, " "), r.code, r.stderr)
		}
		if _, err := os.Stat(dir + "/motd"); !os.IsNotExist(err) {
			t.Fatal("a refused run changed the host")
		}
	}
	f.must("run", "--state-dir", t.TempDir(), "--trust", keys+"/signer.pub", "--allow-unsigned-data", "--hiera", "kv://data/common", m)
	if !fileIs(dir+"/motd", "pwned\n", 0o644) {
		t.Fatal("--allow-unsigned-data did not use the kv:// data")
	}
}

func TestHostNamesStayApartOrAreRefused(t *testing.T) {
	f := newFleet(t)
	m := manifest(t, t.TempDir(), fileAt("@/a", "a"))
	for _, h := range []string{"web.1", "web_1"} {
		f.must("run", "--state-dir", t.TempDir(), "--report", "nats", "--hostname", h, m)
	}
	r := f.ccm("fleet", "status", "--json")
	if strings.Count(r.stdout, `"host":"web.1"`) != 1 || strings.Count(r.stdout, `"host":"web_1"`) != 1 {
		t.Fatalf("statuses:\n%s", r.stdout)
	}
	r = f.ccm("run", "--report", "nats", "--hostname", "web 1\x1b[2J", m)
	if r.code != 2 || !strings.Contains(r.stderr, "bad host name") {
		t.Fatalf("a name with a space and an escape: exit %d\n%s", r.code, r.stderr)
	}
}
