package source

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
)

func mustParse(t *testing.T, raw string) Location {
	t.Helper()
	loc, err := Parse(raw, true)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func testKey(t *testing.T) (ed25519.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	return pub, priv
}

// TestAdmit is the table of what may be fetched at all, before a byte is.
func TestAdmit(t *testing.T) {
	key, _ := testKey(t)
	trust := []ed25519.PublicKey{key}
	const (
		kvTrust   = "kv://d/k: kv:// values carry no signature and --trust requires signed input; pass --allow-unsigned-data to use them all the same"
		kvNoTrust = "kv://d/k: kv:// values carry no signature and the NATS server is not authenticated"
		objNone   = "obj://b/k: a bundle from NATS runs as root only when signed"
	)
	cases := []struct {
		opts Options
		raw  string
		data bool
		want string
	}{
		{Options{}, "kv://d/k", true, kvNoTrust},
		{Options{Trust: trust}, "kv://d/k", true, kvTrust},
		{Options{AllowUnsignedData: true}, "kv://d/k", true, ""},
		{Options{AllowUnsigned: true}, "kv://d/k", true, ""},
		{Options{Trust: trust, AllowUnsignedData: true}, "kv://d/k", true, ""},
		{Options{Trust: trust, AllowUnsigned: true}, "kv://d/k", true, ""},
		{Options{}, "obj://b/k", false, objNone},
		{Options{AllowUnsignedData: true}, "obj://b/k", false, objNone},
		{Options{AllowUnsigned: true}, "obj://b/k", false, ""},
		{Options{Trust: trust}, "obj://b/k", false, ""},
		// An object read as data is refused later, by Set.Data.
		{Options{}, "obj://b/k", true, ""},
		// TLS authenticates an https server; --trust decides its signatures.
		{Options{}, "https://example.com/b.tgz", false, ""},
		{Options{}, "http://example.com/b.tgz", true, ""},
	}
	for _, c := range cases {
		err := c.opts.admit(mustParse(t, c.raw), c.data)
		if c.want == "" && err != nil || c.want != "" && (!errors.Is(err, ErrUntrusted) || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v %s data=%t: err = %v, want %q", c.opts, c.raw, c.data, err, c.want)
		}
	}
}

// TestUsable: under --trust, a cached copy is used only when verified
// with a key trusted now; without --trust, and for kv://, any copy is.
func TestUsable(t *testing.T) {
	key, _ := testKey(t)
	other, _ := testKey(t)
	hk, ho := hex.EncodeToString(key), hex.EncodeToString(other)
	cases := []struct {
		trust []ed25519.PublicKey
		raw   string
		by    string
		want  string
	}{
		{nil, "obj://b/k", "", ""},
		{nil, "obj://b/k", ho, ""},
		{[]ed25519.PublicKey{key}, "kv://d/k", "", ""},
		{[]ed25519.PublicKey{key}, "obj://b/k", hk, ""},
		{[]ed25519.PublicKey{other, key}, "https://example.com/b.tgz", hk, ""},
		{[]ed25519.PublicKey{key}, "obj://b/k", "", "source: untrusted: the cached copy of revision r1 was not verified (a run without --trust fetched it); refusing it"},
		{[]ed25519.PublicKey{key}, "obj://b/k", ho, "source: untrusted: the cached copy of revision r1 was verified with key " + ho[:12] + ", which is not trusted now; refusing it"},
		{[]ed25519.PublicKey{key}, "obj://b/k", "abc", "was verified with key abc, which"},
	}
	for _, c := range cases {
		s := &Source{loc: mustParse(t, c.raw), opts: &Options{Trust: c.trust}}
		err := s.usable(Revision{ID: "r1", VerifiedBy: c.by})
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%d keys, %s, verified by %q: err = %v, want %q", len(c.trust), c.raw, c.by, err, c.want)
		}
	}
}

// TestVerifyOrdersBySigningTime: a signature older than the newest the
// host accepted, or as old but over other bytes, is a downgrade; the
// same bytes signed at the same time (published again) are not.
func TestVerifyOrdersBySigningTime(t *testing.T) {
	pub, priv := testKey(t)
	t0 := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	one, two := []byte("bundle one"), []byte("bundle two")
	s := &Source{loc: mustParse(t, "obj://b/k"), opts: &Options{Trust: []ed25519.PublicKey{pub}}, cache: testCache(t)}
	a, err := s.verify(blob{data: one, sig: bundle.Sign(one, priv, t0)})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cache.raise(a); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		data []byte
		at   time.Time
		want error
	}{
		{"the same bytes at the same time", one, t0, nil},
		{"newer", two, t0.Add(time.Second), nil},
		{"other bytes at the same time", two, t0, ErrDowngrade},
		{"older", two, t0.Add(-time.Nanosecond), ErrDowngrade},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.verify(blob{data: c.data, sig: bundle.Sign(c.data, priv, c.at)})
			if !errors.Is(err, c.want) || c.want != nil && !strings.Contains(err.Error(), "hosts never go back: to return to an older bundle, run ccm bundle rollback") {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
		})
	}
	if _, err := s.verify(blob{data: one, sig: []byte("ccm-sig-1.x.y")}); !errors.Is(err, bundle.ErrBadSignature) {
		t.Fatalf("a damaged signature: %v", err)
	}
	kv := &Source{loc: mustParse(t, "kv://d/k"), opts: s.opts}
	if a, err := kv.verify(blob{data: one}); err != nil || a != (bundle.Attestation{}) {
		t.Fatalf("a kv:// value under --trust: %+v, %v", a, err)
	}
}

// TestRefusalIsByRevisionAndSignature: the same revision with another
// signature is looked at again.
func TestRefusalIsByRevisionAndSignature(t *testing.T) {
	a := refusal(blob{id: "r1", sig: []byte("sig one")})
	for _, b := range []blob{{id: "r1", sig: []byte("sig two")}, {id: "r2", sig: []byte("sig one")}, {id: "r1"}} {
		if refusal(b) == a {
			t.Errorf("%q %q is taken for the refused r1 %q", b.id, b.sig, "sig one")
		}
	}
	if refusal(blob{id: "r1", sig: []byte("sig one"), data: []byte("other")}) != a {
		t.Error("the same revision and signature is not remembered as refused")
	}
}

// TestCacheNames: readable, bounded, free of path characters, and unique
// per full address (credentials included, which String hides).
func TestCacheNames(t *testing.T) {
	long := strings.Repeat("x", 80)
	cases := []struct{ raw, want string }{
		{"obj://bundles/web.tgz", "obj_bundles_web.tgz-"},
		{"kv://data/a/b c", "kv_data_a_b_c-"},
		{"https://example.com:8443/b/site.tgz?x=1", "https_example.com_8443_b_site.tgz-"},
		{"https://example.com/" + long, "https_example.com_" + long[:64-len("example.com_")] + "-"},
		{"https://example.com/" + long[:53], "https_example.com_" + long[:52] + "-"},
	}
	for _, c := range cases {
		got := mustParse(t, c.raw).cacheName()
		if !strings.HasPrefix(got, c.want) || len(got) != len(c.want)+12 {
			t.Errorf("%s: cache name %s, want %s and 12 hex digits", c.raw, got, c.want)
		}
	}
	if mustParse(t, "https://a:one@example.com/b").cacheName() == mustParse(t, "https://a:two@example.com/b").cacheName() {
		t.Error("two credentials share a cache")
	}
	if mustParse(t, "kv://d/k").cacheName() == mustParse(t, "obj://d/k").cacheName() {
		t.Error("kv:// and obj:// share a cache")
	}
}

// TestParseErrors: each refusal says what to write instead, without a
// password.
func TestParseErrors(t *testing.T) {
	cases := []struct{ raw, want string }{
		{"obj://b", "source: bad location: obj://b: want obj://BUCKET/KEY, BUCKET of letters, digits, _ and -"},
		{"kv://a.b/k", "source: bad location: kv://a.b/k: want kv://BUCKET/KEY"},
		{"http://u:pw@example.com/x", "source: bad location: http://u:xxxxx@example.com/x: plain http:// is refused unless allowed (--allow-http); use https://"},
		{"https:///x", "source: bad location: https:///x: not a URL"},
		{"s3://u:pw@bucket/x", `source: bad location: s3://u:xxxxx@bucket/x: unknown scheme "s3"; use a path, obj://, kv://, https:// or http://`},
	}
	for _, c := range cases {
		if _, err := Parse(c.raw, false); err == nil || err.Error() != c.want && !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.raw, err, c.want)
		}
	}
}

// TestBackoffDoublesToItsCap: one second doubling, within the jitter,
// up to five minutes however many failures.
func TestBackoffDoublesToItsCap(t *testing.T) {
	for _, c := range []struct {
		n    int
		base time.Duration
	}{{0, time.Second}, {1, 2 * time.Second}, {4, 16 * time.Second}, {8, 256 * time.Second}, {9, retryMax}, {20, retryMax}, {63, retryMax}, {1000, retryMax}} {
		for range 20 {
			if d := backoff(c.n); d < c.base*8/10 || d > c.base*12/10 {
				t.Fatalf("backoff(%d) = %v, want %v ±20%%", c.n, d, c.base)
			}
		}
	}
}

// TestInflightSupersede: a change cancels the fetch under way with
// errSuperseded, and none after it ended.
func TestInflightSupersede(t *testing.T) {
	var f inflight
	f.supersede()
	ctx, done := f.start(t.Context())
	f.supersede()
	if !errors.Is(context.Cause(ctx), errSuperseded) {
		t.Fatalf("cause %v", context.Cause(ctx))
	}
	done()
	ctx, done = f.start(t.Context())
	done()
	f.supersede()
	if errors.Is(context.Cause(ctx), errSuperseded) {
		t.Fatal("a fetch that ended was superseded")
	}
}
