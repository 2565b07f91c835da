package source_test

import (
	"crypto/ed25519"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
)

// signer is a trusted key pair.
type signer struct {
	pub  ed25519.PublicKey
	priv ed25519.PrivateKey
}

func newSigner(t *testing.T) signer {
	t.Helper()
	dir := t.TempDir()
	pub, err := bundle.GenerateKey(dir + "/key")
	if err != nil {
		t.Fatal(err)
	}
	priv, err := bundle.ReadPrivateKey(dir + "/key")
	if err != nil {
		t.Fatal(err)
	}
	return signer{pub, priv}
}

func (s signer) sign(tgz []byte, at time.Time) []byte { return bundle.Sign(tgz, s.priv, at) }

func TestWhatNATSServesNeedsASignatureOrAnOptIn(t *testing.T) {
	e := newEnv(t)
	key := newSigner(t)
	e.push("obj://b/site.tgz", bundleOf(t, "unsigned\n"), nil)
	e.putKV("kv://data/common", "data: {a: 1}\n")
	cases := []struct {
		name      string
		opts      source.Options
		bundleErr error
		dataErr   error
	}{
		{"nothing said", source.Options{}, source.ErrUntrusted, source.ErrUntrusted},
		{"--allow-unsigned", source.Options{AllowUnsigned: true}, nil, nil},
		{"--allow-unsigned-data", source.Options{AllowUnsignedData: true}, source.ErrUntrusted, nil},
		{"--trust", source.Options{Trust: []ed25519.PublicKey{key.pub}}, bundle.ErrUnsigned, source.ErrUntrusted},
		{"--trust --allow-unsigned-data", source.Options{Trust: []ed25519.PublicKey{key.pub}, AllowUnsignedData: true}, bundle.ErrUnsigned, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.cache = t.TempDir()
			set := e.setWith(c.opts)
			if _, err := set.Manifest("obj://b/site.tgz"); !errors.Is(err, c.bundleErr) {
				t.Fatalf("bundle: err = %v, want %v", err, c.bundleErr)
			}
			if _, _, err := set.Data("kv://data/common"); !errors.Is(err, c.dataErr) {
				t.Fatalf("--hiera kv://: err = %v, want %v", err, c.dataErr)
			}
			if _, _, err := set.Get("data", "common"); !errors.Is(err, c.dataErr) {
				t.Fatalf("kvGet(): err = %v, want %v", err, c.dataErr)
			}
		})
	}
}

func TestATrustedRunNeverUsesACopyCachedUnverified(t *testing.T) {
	e := newEnv(t)
	key, other := newSigner(t), newSigner(t)
	const loc = "obj://b/site.tgz"
	unsigned := bundleOf(t, "unsigned\n")
	e.push(loc, unsigned, nil)
	if _, err := e.set().Manifest(loc); err != nil {
		t.Fatal(err)
	}
	// Online, the fetched copy is refused, and so is the cached one.
	if _, err := e.set(key.pub).Manifest(loc); !errors.Is(err, bundle.ErrUnsigned) || !errors.Is(err, source.ErrUntrusted) {
		t.Fatalf("online: err = %v", err)
	}
	e.srv.Stop()
	_, err := e.set(key.pub).Manifest(loc)
	if !errors.Is(err, source.ErrUntrusted) || !strings.Contains(err.Error(), "was not verified") {
		t.Fatalf("offline: err = %v", err)
	}

	t.Run("a copy verified with another key", func(t *testing.T) {
		e.srv.Restart()
		signed := bundleOf(t, "signed by other\n")
		e.push(loc, signed, other.sign(signed, time.Now()))
		if _, err := e.set(other.pub).Manifest(loc); err != nil {
			t.Fatal(err)
		}
		e.srv.Stop()
		_, err := e.set(key.pub).Manifest(loc)
		if !errors.Is(err, source.ErrUntrusted) || !strings.Contains(err.Error(), "not trusted now") {
			t.Fatalf("err = %v", err)
		}
		if m, err := e.set(other.pub).Manifest(loc); err != nil || read(t, m) != "signed by other\n" {
			t.Fatalf("the key that verified it: %v", err)
		}
	})
}

func TestAnOlderSignatureIsRefused(t *testing.T) {
	e := newEnv(t)
	key := newSigner(t)
	const loc = "obj://b/site.tgz"
	t0 := time.Now().Add(-time.Hour)
	v1, v2 := bundleOf(t, "v1\n"), bundleOf(t, "v2\n")
	v1sig := key.sign(v1, t0)
	e.push(loc, v1, v1sig)
	set := e.set(key.pub)
	if _, err := set.Manifest(loc); err != nil {
		t.Fatal(err)
	}
	n := make(notified, 1)
	set.Watch(t.Context(), n.notify)
	e.push(loc, v2, key.sign(v2, t0.Add(time.Minute)))
	n.wait(t, "v2")

	e.push(loc, v1, v1sig)
	enginetest.Eventually(t, "the replayed v1 to be refused", func() bool { return strings.Contains(e.logs.String(), "hosts never go back") })
	if m, _ := set.Manifest(loc); read(t, m) != "v2\n" {
		t.Fatal("an older signed bundle was put in force")
	}
	// A restarted host refuses it too, and starts on its cached v2.
	if m, err := e.set(key.pub).Manifest(loc); err != nil || read(t, m) != "v2\n" {
		t.Fatalf("restart: %v", err)
	}
	// Signed again (an explicit rollback), v1 is taken at once.
	e.push(loc, v1, key.sign(v1, time.Now()))
	n.wait(t, "v1 signed again")
	if m, _ := set.Manifest(loc); read(t, m) != "v1\n" {
		t.Fatal("the rollback was not put in force")
	}
}

func TestACorrectedSignatureIsTakenAtOnce(t *testing.T) {
	e := newEnv(t)
	key := newSigner(t)
	const loc = "obj://b/site.tgz"
	v1, v2 := bundleOf(t, "v1\n"), bundleOf(t, "v2\n")
	e.push(loc, v1, key.sign(v1, time.Now()))
	set := e.set(key.pub)
	if _, err := set.Manifest(loc); err != nil {
		t.Fatal(err)
	}
	n := make(notified, 1)
	set.Watch(t.Context(), n.notify)
	e.push(loc, v2, []byte("garbage"))
	enginetest.Eventually(t, "the badly signed v2 to be refused", func() bool { return strings.Contains(e.logs.String(), "bad signature") })
	e.push(loc, v2, key.sign(v2, time.Now()))
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(e.logs.String())
		}
	})
	n.wait(t, "v2 with a good signature")
	if m, _ := set.Manifest(loc); read(t, m) != "v2\n" {
		t.Fatal("the corrected signature was ignored")
	}
}

func TestHTTPSNeverRedirectsToHTTP(t *testing.T) {
	var plainHits atomic.Int32
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		plainHits.Add(1)
		_, _ = w.Write(bundleOf(t, "from plain http\n"))
	}))
	t.Cleanup(plain.Close)
	tls := httptest.NewTLSServer(http.RedirectHandler(plain.URL+"/b.tgz", http.StatusFound))
	t.Cleanup(tls.Close)
	for _, allow := range []bool{false, true} {
		set := source.NewSet(t.Context(), source.Options{Cache: cacheIn(t.TempDir()), HTTPClient: tls.Client(), AllowHTTP: allow})
		_, err := set.Manifest(tls.URL + "/b.tgz")
		switch {
		case !allow && (err == nil || !strings.Contains(err.Error(), "which is not https")):
			t.Fatalf("redirect to http: err = %v", err)
		case !allow && plainHits.Load() != 0:
			t.Fatal("the plain http server was asked")
		case allow && err != nil:
			t.Fatalf("with --allow-http: %v", err)
		}
	}
}

func TestHTTPSDataIsSignedUnderTrust(t *testing.T) {
	key := newSigner(t)
	data := []byte("data: {a: 1}\n")
	sig := key.sign(data, time.Now())
	var signed atomic.Bool
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/d.yaml":
			_, _ = w.Write(data)
		case signed.Load():
			_, _ = w.Write(sig)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	open := func() *source.Set {
		return source.NewSet(t.Context(), source.Options{Cache: cacheIn(t.TempDir()), HTTPClient: srv.Client(), Trust: []ed25519.PublicKey{key.pub}})
	}
	if _, _, err := open().Data(srv.URL + "/d.yaml"); !errors.Is(err, bundle.ErrUnsigned) {
		t.Fatalf("unsigned data: err = %v", err)
	}
	signed.Store(true)
	if got, _, err := open().Data(srv.URL + "/d.yaml"); err != nil || string(got) != string(data) {
		t.Fatalf("signed data: %q, %v", got, err)
	}
}
