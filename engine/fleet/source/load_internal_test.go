package source

import (
	"crypto/ed25519"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
)

// site is a loopback web server holding one file and its signature,
// which a test replaces or removes.
type site struct {
	mu        sync.Mutex
	data, sig []byte
	status    int
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.status != 0:
		w.WriteHeader(s.status)
	case strings.HasSuffix(r.URL.Path, bundle.SignatureSuffix) && s.sig != nil:
		_, _ = w.Write(s.sig)
	case strings.HasSuffix(r.URL.Path, bundle.SignatureSuffix):
		http.NotFound(w, r)
	default:
		_, _ = w.Write(s.data)
	}
}

// put serves data signed with sig; status, when not 0, answers instead.
func (s *site) put(data, sig []byte, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data, s.sig, s.status = data, sig, status
}

// host is a server and what a Set fetching from it needs.
type host struct {
	t     *testing.T
	site  *site
	url   string
	cache string
	logs  *enginetest.Logs
}

func newHost(t *testing.T) *host {
	h := &host{t: t, site: &site{}, cache: t.TempDir(), logs: &enginetest.Logs{}}
	srv := httptest.NewServer(h.site)
	t.Cleanup(srv.Close)
	h.url = srv.URL + "/site.tgz"
	return h
}

func (h *host) set(trust ...ed25519.PublicKey) *Set {
	return NewSet(h.t.Context(), Options{AllowHTTP: true, Trust: trust, Logger: slog.New(slog.NewTextHandler(h.logs, nil)),
		Cache: func() (*state.Dir, error) { return state.Open(h.cache) }})
}

// source is the set's source of h.url, loaded.
func (h *host) source(set *Set) *Source {
	h.t.Helper()
	src, err := set.source(mustParse(h.t, h.url), false)
	if err != nil {
		h.t.Fatal(err)
	}
	return src
}

// TestLoadFallsBackToTheCache is the table of a start-up: what was
// fetched, what is cached, and what the source starts on or says.
func TestLoadFallsBackToTheCache(t *testing.T) {
	pub, _ := testKey(t)
	good := tgz(t, map[string]string{"manifest.yaml": "cached\n"})
	cases := []struct {
		name string
		// cached fills the cache first (signed when trusted).
		cached  bool
		trusted bool
		status  int
		damage  bool
		want    error
		msg     string
	}{
		{name: "unreachable, nothing cached", status: http.StatusBadGateway, want: ErrUnavailable, msg: "answered 502 Bad Gateway; and nothing is cached"},
		{name: "unreachable, cached", cached: true, status: http.StatusBadGateway},
		{name: "removed, nothing cached", status: http.StatusNotFound, want: ErrGone},
		{name: "removed, cached", cached: true, status: http.StatusNotFound},
		{name: "unreachable, the cache damaged", cached: true, status: http.StatusBadGateway, damage: true, want: ErrUnavailable, msg: "and the cached copy is unreadable"},
		{name: "refused, cached unverified", cached: true, trusted: true, want: ErrUntrusted, msg: "bundle: not signed; and source: untrusted: the cached copy of revision sha256:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHost(t)
			h.site.put(good, nil, 0)
			if c.cached {
				h.source(h.set())
			}
			if c.damage {
				dirs, _ := filepath.Glob(filepath.Join(h.cache, "http_*", recordFile))
				if len(dirs) != 1 || os.WriteFile(dirs[0], []byte(`{"id":"x","manifest":"../m"}`), 0o600) != nil {
					t.Fatalf("no record to damage: %v", dirs)
				}
			}
			h.site.put(good, nil, c.status)
			var trust []ed25519.PublicKey
			if c.trusted {
				trust = []ed25519.PublicKey{pub}
			}
			m, err := h.set(trust...).Manifest(h.url)
			switch {
			case c.want == nil && err != nil:
				t.Fatalf("err = %v", err)
			case c.want == nil:
				if readString(t, m) != "cached\n" || !strings.Contains(h.logs.String(), "converging from the cached copy") {
					t.Fatalf("manifest %s, logs:\n%s", m, h.logs)
				}
			case !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg):
				t.Fatalf("err = %v, want %v saying %q", err, c.want, c.msg)
			}
		})
	}
}

// TestRefreshDecides: what a look at a watched source does for each
// answer: new revisions go in force, a removal is reported once and
// keeps the revision, a refused revision is not fetched into force again
// until its signature changes.
func TestRefreshDecides(t *testing.T) {
	pub, priv := testKey(t)
	h := newHost(t)
	t0 := time.Now()
	v1 := tgz(t, map[string]string{"manifest.yaml": "v1\n"})
	h.site.put(v1, bundle.Sign(v1, priv, t0), 0)
	refusals := 0
	set := h.set(pub)
	set.opts.OnRefused = func() { refusals++ }
	src := h.source(set)
	look := func(want bool) {
		t.Helper()
		changed, err := src.refresh(t.Context())
		if err != nil || changed != want {
			t.Fatalf("refresh: changed %t, %v; want %t", changed, err, want)
		}
	}
	look(false)

	h.site.put(nil, nil, http.StatusNotFound)
	look(false)
	look(false)
	if n := strings.Count(h.logs.String(), "removed from its source"); n != 1 {
		t.Fatalf("the removal was reported %d times", n)
	}

	v2 := tgz(t, map[string]string{"manifest.yaml": "v2\n"})
	h.site.put(v2, bundle.Sign(v1, priv, t0.Add(time.Second)), 0)
	look(false)
	look(false)
	if refusals != 1 {
		t.Fatalf("the same refused revision was looked at %d times", refusals)
	}
	st := set.InForce()
	if len(st) != 1 || st[0].Refused == nil || !strings.Contains(st[0].Refused.Reason, "the bundle is not the one signed") {
		t.Fatalf("in force: %+v", st)
	}

	h.site.put(v2, bundle.Sign(v2, priv, t0.Add(time.Second)), 0)
	look(true)
	if rev, _ := src.Current(); readString(t, rev.Manifest) != "v2\n" || rev.VerifiedBy == "" {
		t.Fatalf("in force %+v", rev)
	}

	h.site.put(nil, nil, http.StatusBadGateway)
	if _, err := src.refresh(t.Context()); err == nil || !strings.Contains(err.Error(), "502") {
		t.Fatalf("a failing server: %v", err)
	}
	if strings.Count(h.logs.String(), "removed from its source") != 1 {
		t.Fatal("a failure was taken for a removal")
	}
	h.site.put(nil, nil, http.StatusNotFound)
	look(false)
	if n := strings.Count(h.logs.String(), "removed from its source"); n != 2 {
		t.Fatal("a second removal, after the source came back, was not reported")
	}
}

// TestACachedStartIsConfirmedByTheSource: a revision taken from the cache
// stops being "cached" once the source is reached and holds it.
func TestACachedStartIsConfirmedByTheSource(t *testing.T) {
	h := newHost(t)
	h.site.put(tgz(t, map[string]string{"manifest.yaml": "m\n"}), nil, 0)
	h.source(h.set())
	h.site.mu.Lock()
	h.site.status = http.StatusBadGateway
	h.site.mu.Unlock()
	set := h.set()
	src := h.source(set)
	if st := set.InForce(); !st[0].Cached {
		t.Fatalf("offline start: %+v", st)
	}
	h.site.mu.Lock()
	h.site.status = 0
	h.site.mu.Unlock()
	if changed, err := src.refresh(t.Context()); err != nil || changed {
		t.Fatalf("refresh: %t, %v", changed, err)
	}
	if st := set.InForce(); st[0].Cached {
		t.Fatalf("the source confirmed the cached revision, still cached: %+v", st)
	}
}

// TestSetRefusesTheWrongKindOfSource: a manifest is not a kv:// value,
// and data is not an object.
func TestSetRefusesTheWrongKindOfSource(t *testing.T) {
	set := NewSet(t.Context(), Options{})
	if _, err := set.Manifest("kv://d/k"); !errors.Is(err, ErrLocation) || !strings.Contains(err.Error(), "a manifest comes from a file, obj:// or http(s)://; kv:// holds data") {
		t.Fatalf("a kv:// manifest: %v", err)
	}
	if _, _, err := set.Data("obj://b/k"); !errors.Is(err, ErrLocation) || !strings.Contains(err.Error(), "data comes from a file, kv:// or http(s)://") {
		t.Fatalf("obj:// data: %v", err)
	}
	if m, err := set.Manifest("file:///etc/ccm/m.yaml"); err != nil || m != "/etc/ccm/m.yaml" {
		t.Fatalf("a local manifest: %s, %v", m, err)
	}
	if _, local, err := set.Data("/etc/ccm/d.yaml"); err != nil || local != "/etc/ccm/d.yaml" {
		t.Fatalf("local data: %s, %v", local, err)
	}
	if _, _, err := set.Get("bad.bucket", "k"); !errors.Is(err, ErrLocation) {
		t.Fatalf("kvGet of a bad bucket: %v", err)
	}
	if _, err := set.Manifest("https://example.com/b.tgz"); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "no state directory") {
		t.Fatalf("a remote source without a cache: %v", err)
	}
}
