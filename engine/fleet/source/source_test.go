package source_test

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn/natstest"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
)

// env is a NATS server, a connection to it and a cache directory.
type env struct {
	t     *testing.T
	srv   *natstest.Server
	nats  *natsconn.Lazy
	cache string
	logs  *enginetest.Logs
}

func newEnv(t *testing.T) *env {
	t.Helper()
	srv := natstest.Start(t, natstest.Options{})
	e := &env{t: t, srv: srv, cache: t.TempDir(), logs: &enginetest.Logs{}}
	e.nats = e.lazy()
	return e
}

func (e *env) lazy() *natsconn.Lazy {
	e.srv.Env()
	l := natsconn.NewLazy(natsconn.FromEnv(""), slog.New(slog.NewTextHandler(e.logs, nil)))
	e.t.Cleanup(l.Close)
	return l
}

// set is a set trusting keys, or with none taking unsigned bundles and
// data from NATS.
func (e *env) set(trust ...ed25519.PublicKey) *source.Set {
	return e.setWith(source.Options{Trust: trust, AllowUnsigned: len(trust) == 0})
}

// setWith is a set with o's trust rules, caching in e's cache.
func (e *env) setWith(o source.Options) *source.Set {
	o.Cache, o.NATS, o.ConnectWait = cacheIn(e.cache), e.nats, 500*time.Millisecond
	o.Logger = slog.New(slog.NewTextHandler(e.logs, nil))
	return source.NewSet(e.t.Context(), o)
}

// cacheIn caches under a state directory at dir.
func cacheIn(dir string) func() (*state.Dir, error) {
	return func() (*state.Dir, error) { return state.Open(dir) }
}

func (e *env) conn() *natsconn.Conn {
	c, err := e.nats.Get()
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// bundleOf packs a directory holding a manifest with the given content.
func bundleOf(t *testing.T, manifest string) []byte {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "manifest.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := bundle.Pack(dir, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func (e *env) push(raw string, tgz, sig []byte) {
	e.t.Helper()
	loc, err := source.Parse(raw, false)
	if err != nil {
		e.t.Fatal(err)
	}
	obs, err := release.Open(e.t.Context(), e.conn().JetStream(), loc.Bucket, true)
	if err == nil {
		_, err = release.Publish(e.t.Context(), obs, loc.Key, release.Bundle{Data: tgz, Signature: sig}, 0)
	}
	if err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) putKV(raw, value string) {
	e.t.Helper()
	loc, _ := source.Parse(raw, false)
	if _, err := source.PutKV(e.t.Context(), e.conn(), loc, []byte(value)); err != nil {
		e.t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// notified counts Watch's notifications.
type notified chan struct{}

func (n notified) notify() {
	select {
	case n <- struct{}{}:
	default:
	}
}

func (n notified) wait(t *testing.T, what string) {
	t.Helper()
	select {
	case <-n:
	case <-time.After(15 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

func TestObjectStoreBundleIsFetchedWatchedAndCached(t *testing.T) {
	e := newEnv(t)
	const loc = "obj://bundles/web.tgz"
	e.push(loc, bundleOf(t, "one\n"), nil)
	set := e.set()
	m, err := set.Manifest(loc)
	if err != nil {
		t.Fatal(err)
	}
	if read(t, m) != "one\n" {
		t.Fatalf("manifest = %q", read(t, m))
	}
	n := make(notified, 1)
	set.Watch(t.Context(), n.notify)

	e.push(loc, bundleOf(t, "two\n"), nil)
	n.wait(t, "the new revision")
	m2, _ := set.Manifest(loc)
	if read(t, m2) != "two\n" {
		t.Fatalf("after the push the manifest is %q", read(t, m2))
	}

	t.Run("a removed object keeps the revision in force", func(t *testing.T) {
		obs, err := e.conn().JetStream().ObjectStore(t.Context(), "bundles")
		if err != nil {
			t.Fatal(err)
		}
		if err := obs.Delete(t.Context(), "web.tgz"); err != nil {
			t.Fatal(err)
		}
		enginetest.Eventually(t, "the removal to be reported", func() bool { return strings.Contains(e.logs.String(), "removed from its source") })
		if m3, _ := set.Manifest(loc); m3 != m2 || read(t, m3) != "two\n" {
			t.Fatalf("the revision in force changed after the removal: %s", m3)
		}
		e.push(loc, bundleOf(t, "three\n"), nil)
		n.wait(t, "the republished bundle")
	})

	t.Run("offline start converges from the cache", func(t *testing.T) {
		e.srv.Stop()
		offline := e.set()
		m, err := offline.Manifest(loc)
		if err != nil {
			t.Fatal(err)
		}
		if read(t, m) != "three\n" {
			t.Fatalf("cached manifest = %q", read(t, m))
		}
		if st := offline.InForce(); len(st) != 1 || !st[0].Cached {
			t.Fatalf("in force: %+v", st)
		}
		if !strings.Contains(e.logs.String(), "converging from the cached copy") {
			t.Fatalf("the offline start was not reported:\n%s", e.logs)
		}
	})
}

func TestMissingSourceWithoutCacheIsAnError(t *testing.T) {
	e := newEnv(t)
	if _, err := e.set().Manifest("obj://none/x.tgz"); !errors.Is(err, source.ErrGone) {
		t.Fatalf("err = %v", err)
	}
	e.srv.Stop()
	if _, err := e.set().Manifest("obj://none/y.tgz"); !errors.Is(err, source.ErrUnavailable) {
		t.Fatalf("offline err = %v", err)
	}
}

func TestSignedBundles(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	pub, err := bundle.GenerateKey(dir + "/key")
	if err != nil {
		t.Fatal(err)
	}
	priv, _ := bundle.ReadPrivateKey(dir + "/key")
	good := bundleOf(t, "signed\n")

	e.push("obj://b/unsigned.tgz", good, nil)
	if _, err := e.set(pub).Manifest("obj://b/unsigned.tgz"); !errors.Is(err, bundle.ErrUnsigned) {
		t.Fatalf("unsigned: err = %v", err)
	}

	const loc = "obj://b/app.tgz"
	e.push(loc, good, bundle.Sign(good, priv, time.Now()))
	set := e.set(pub)
	m, err := set.Manifest(loc)
	if err != nil || read(t, m) != "signed\n" {
		t.Fatalf("signed: %v", err)
	}
	n := make(notified, 1)
	set.Watch(t.Context(), n.notify)
	tampered := bundleOf(t, "tampered\n")
	e.push(loc, tampered, bundle.Sign(good, priv, time.Now()))
	enginetest.Eventually(t, "the tampered bundle to be refused", func() bool {
		return strings.Contains(e.logs.String(), "refused a new revision") && strings.Contains(e.logs.String(), "bad signature")
	})
	if m2, _ := set.Manifest(loc); read(t, m2) != "signed\n" {
		t.Fatal("a badly signed bundle was put in force")
	}
	select {
	case <-n:
		t.Fatal("a refused bundle notified a reload")
	default:
	}
}

func TestKVDataAndKeys(t *testing.T) {
	e := newEnv(t)
	e.putKV("kv://data/common", "data: {port: 80}\n")
	set := e.set()
	data, local, err := set.Data("kv://data/common")
	if err != nil || local != "" || string(data) != "data: {port: 80}\n" {
		t.Fatalf("data = %q, %q, %v", data, local, err)
	}
	v, found, err := set.Get("data", "missing")
	if err != nil || found || v != nil {
		t.Fatalf("missing key: %q %v %v", v, found, err)
	}
	n := make(notified, 1)
	set.Watch(t.Context(), n.notify)
	sum := set.Sum()

	e.putKV("kv://data/common", "data: {port: 81}\n")
	n.wait(t, "the data change")
	if data, _, _ := set.Data("kv://data/common"); string(data) != "data: {port: 81}\n" {
		t.Fatalf("data after the change = %q", data)
	}
	if bytes.Equal(sum, set.Sum()) {
		t.Fatal("the sum did not change with the data")
	}

	e.putKV("kv://data/missing", "now here")
	n.wait(t, "the key's creation")
	if v, found, _ := set.Get("data", "missing"); !found || string(v) != "now here" {
		t.Fatalf("created key = %q %v", v, found)
	}
}

func TestLocations(t *testing.T) {
	for _, c := range []struct {
		raw     string
		http    bool
		wantErr bool
		str     string
	}{
		{"/etc/ccm/m.yaml", false, false, "/etc/ccm/m.yaml"},
		{"file:///etc/ccm/m.yaml", false, false, "/etc/ccm/m.yaml"},
		{"obj://bundles/web.tgz", false, false, "obj://bundles/web.tgz"},
		{"kv://data/a.b", false, false, "kv://data/a.b"},
		{"obj://bad.bucket/x", false, true, ""},
		{"kv://data", false, true, ""},
		{"https://user:pw@example.com/b.tgz", false, false, "https://user:xxxxx@example.com/b.tgz"},
		{"http://example.com/b.tgz", false, true, ""},
		{"http://example.com/b.tgz", true, false, "http://example.com/b.tgz"},
		{"ftp://example.com/b.tgz", false, true, ""},
	} {
		loc, err := source.Parse(c.raw, c.http)
		if (err != nil) != c.wantErr {
			t.Errorf("%s: err = %v", c.raw, err)
			continue
		}
		if err == nil && loc.String() != c.str {
			t.Errorf("%s: String() = %s, want %s", c.raw, loc, c.str)
		}
		if err != nil && strings.Contains(err.Error(), "pw") {
			t.Errorf("%s: the error shows the password: %v", c.raw, err)
		}
	}
}

func TestParseObjectTakesOnlyObjects(t *testing.T) {
	loc, err := source.ParseObject("obj://ccm/site.tgz")
	if err != nil || loc.Bucket != "ccm" || loc.Key != "site.tgz" {
		t.Fatalf("ParseObject = %+v, %v", loc, err)
	}
	for _, raw := range []string{"kv://ccm/site.tgz", "/srv/site.tgz", "obj://ccm", "https://user:pw@example.com/x.tgz"} {
		_, err := source.ParseObject(raw)
		if !errors.Is(err, source.ErrLocation) || !strings.Contains(err.Error(), "want obj://BUCKET/KEY") || strings.Contains(err.Error(), "pw") {
			t.Errorf("%s: %v, want ErrLocation asking for obj://BUCKET/KEY, without the password", raw, err)
		}
	}
}

func TestLocalPathsKeepsWhatInotifyCanWatch(t *testing.T) {
	got := source.LocalPaths([]string{"/etc/ccm/a.yaml", "file:///etc/ccm/b.yaml", "obj://bundles/web.tgz", "kv://data/x",
		"https://example.com/c.yaml", "http://example.com/d.yaml", "ftp://example.com/e", "relative.yaml"})
	if want := []string{"/etc/ccm/a.yaml", "/etc/ccm/b.yaml", "relative.yaml"}; !slices.Equal(got, want) {
		t.Fatalf("LocalPaths = %v, want %v", got, want)
	}
}

// httpSet is a set polling h every 20ms, served over TLS on loopback at
// url; it logs to logs.
func httpSet(t *testing.T, h http.Handler) (set *source.Set, url string, logs *enginetest.Logs) {
	t.Helper()
	srv := httptest.NewTLSServer(h)
	t.Cleanup(srv.Close)
	logs = &enginetest.Logs{}
	set = source.NewSet(t.Context(), source.Options{
		Cache: cacheIn(t.TempDir()), HTTPClient: srv.Client(), HTTPInterval: 20 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(logs, nil)),
	})
	return set, srv.URL, logs
}

// etagServer serves one body with an ETag and counts full and
// conditional answers.
type etagServer struct {
	mu           sync.Mutex
	body, etag   string
	full, notMod int
}

func (s *etagServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.URL.Path != "/bundle.tgz" {
		http.NotFound(w, r)
		return
	}
	if r.Header.Get("If-None-Match") == s.etag {
		s.notMod++
		w.WriteHeader(http.StatusNotModified)
		return
	}
	s.full++
	w.Header().Set("ETag", s.etag)
	_, _ = w.Write([]byte(s.body))
}

func (s *etagServer) put(body, etag string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.body, s.etag = body, etag
}

func (s *etagServer) counts() (int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.full, s.notMod
}

func TestHTTPSourcePollsWithETag(t *testing.T) {
	es := &etagServer{}
	es.put(string(bundleOf(t, "v1\n")), `"v1"`)
	set, url, _ := httpSet(t, es)
	loc := url + "/bundle.tgz"
	m, err := set.Manifest(loc)
	if err != nil || read(t, m) != "v1\n" {
		t.Fatalf("first fetch: %v", err)
	}
	n := make(notified, 1)
	set.Watch(t.Context(), n.notify)
	enginetest.Eventually(t, "conditional polls answered 304", func() bool { _, nm := es.counts(); return nm >= 3 })
	if full, _ := es.counts(); full != 1 {
		t.Fatalf("%d full downloads of an unchanged bundle", full)
	}
	es.put(string(bundleOf(t, "v2\n")), `"v2"`)
	n.wait(t, "the changed bundle")
	if m, _ := set.Manifest(loc); read(t, m) != "v2\n" {
		t.Fatalf("manifest after the change = %q", read(t, m))
	}
	if _, err := set.Manifest(url + "/other.tgz"); !errors.Is(err, source.ErrGone) {
		t.Fatalf("a 404 gave %v", err)
	}
}

// flaky answers 500 until healed, then serves body.
type flaky struct {
	mu     sync.Mutex
	broken bool
	body   string
	errors int // 500s served
}

func (f *flaky) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.broken {
		f.errors++
		http.Error(w, "down for maintenance", http.StatusInternalServerError)
		return
	}
	_, _ = w.Write([]byte(f.body))
}

func (f *flaky) set(broken bool, body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.broken, f.body = broken, body
}

func TestHTTPDataBacksOffAndRecovers(t *testing.T) {
	fl := &flaky{body: "data: {a: 1}\n"}
	set, url, lg := httpSet(t, fl)
	loc := url + "/data.yaml"
	if data, _, err := set.Data(loc); err != nil || string(data) != "data: {a: 1}\n" {
		t.Fatalf("data = %q, %v", data, err)
	}
	n := make(notified, 1)
	set.Watch(t.Context(), n.notify)
	fl.set(true, "")
	enginetest.Eventually(t, "two failures, the second after the back-off", func() bool {
		return strings.Count(lg.String(), "fetching failed; the revision in force stays") >= 2
	})
	if data, _, _ := set.Data(loc); string(data) != "data: {a: 1}\n" {
		t.Fatalf("a failing server changed the data in force: %q", data)
	}
	fl.mu.Lock()
	errs := fl.errors
	fl.mu.Unlock()
	// Polls every 20ms did not defeat the back-off (1s, then 2s).
	if errs > 3 {
		t.Fatalf("the failing server was asked %d times during two back-offs", errs)
	}
	fl.set(false, "data: {a: 2}\n")
	n.wait(t, "the data after the server recovered")
	if data, _, _ := set.Data(loc); string(data) != "data: {a: 2}\n" {
		t.Fatalf("data after recovery = %q", data)
	}
}

// TestReadOnlySetWritesNoCache: a read-only set (noop) fetches into a
// temporary directory that Close removes, never creating the cache, and
// reads a cache that exists when the source cannot be reached.
func TestReadOnlySetWritesNoCache(t *testing.T) {
	e := newEnv(t)
	const loc = "obj://bundles/ro.tgz"
	e.push(loc, bundleOf(t, "fetched\n"), nil)
	readOnly := func() *source.Set {
		return source.NewSet(t.Context(), source.Options{
			Cache: func() (*state.Dir, error) { return state.OpenReadOnly(e.cache) }, ReadOnly: true, AllowUnsigned: true,
			NATS: e.nats, ConnectWait: 500 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(e.logs, nil)),
		})
	}
	if err := os.Remove(e.cache); err != nil {
		t.Fatal(err)
	}
	set := readOnly()
	m, err := set.Manifest(loc)
	if err != nil || read(t, m) != "fetched\n" {
		t.Fatalf("manifest %s, %v", m, err)
	}
	set.MarkGood()
	if _, err := os.Stat(e.cache); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the cache was created: %v", err)
	}
	if err := set.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(m); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("what was fetched is still there after Close: %v", err)
	}

	if _, err := e.set().Manifest(loc); err != nil {
		t.Fatal(err)
	}
	e.srv.Stop()
	offline := readOnly()
	t.Cleanup(func() { offline.Close() })
	m, err = offline.Manifest(loc)
	if err != nil || read(t, m) != "fetched\n" || !strings.HasPrefix(m, e.cache) {
		t.Fatalf("offline read-only manifest %s, %v: want the cached one", m, err)
	}
}
