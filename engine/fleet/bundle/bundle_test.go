package bundle_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func pack(t *testing.T, dir string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := bundle.Pack(dir, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestPackThenExtractKeepsEveryFile(t *testing.T) {
	src := t.TempDir()
	write(t, src+"/manifest.yaml", "ccm: {resources: []}\n")
	write(t, src+"/files/motd", "hello\n")
	write(t, src+"/templates/a/b.jet", "[[ x ]]")
	tgz := pack(t, src)
	if again := pack(t, src); !bytes.Equal(tgz, again) {
		t.Fatal("packing the same directory twice gave different bytes")
	}
	dest := filepath.Join(t.TempDir(), "out")
	m, err := bundle.Extract(bytes.NewReader(tgz), dest, bundle.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if m != dest+"/manifest.yaml" {
		t.Fatalf("manifest = %s", m)
	}
	for _, f := range []string{"manifest.yaml", "files/motd", "templates/a/b.jet"} {
		want, _ := os.ReadFile(filepath.Join(src, f))
		got, err := os.ReadFile(filepath.Join(dest, f))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s = %q, %v; want %q", f, got, err, want)
		}
	}
}

func TestPackRefusesWhatItCannotShip(t *testing.T) {
	t.Run("no manifest", func(t *testing.T) {
		src := t.TempDir()
		write(t, src+"/other.yaml", "x")
		if err := bundle.Pack(src, &bytes.Buffer{}); !errors.Is(err, bundle.ErrNoManifest) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("symlink", func(t *testing.T) {
		src := t.TempDir()
		write(t, src+"/manifest.yaml", "x")
		if err := os.Symlink("/etc/shadow", src+"/link"); err != nil {
			t.Fatal(err)
		}
		if err := bundle.Pack(src, &bytes.Buffer{}); !errors.Is(err, bundle.ErrUnsafeEntry) {
			t.Fatalf("err = %v", err)
		}
	})
}

// tarball builds a gzipped tarball from headers; regular files get body.
func tarball(t *testing.T, hdrs ...*tar.Header) []byte {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	for _, h := range hdrs {
		body := []byte("x")
		if h.Typeflag == tar.TypeReg {
			h.Size = int64(len(body))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write(body); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func reg(name string) *tar.Header { return &tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644} }

func TestExtractRefusesHostileTarballs(t *testing.T) {
	outside := t.TempDir()
	cases := []struct {
		name string
		hdrs []*tar.Header
		want error
	}{
		{"absolute name", []*tar.Header{reg("manifest.yaml"), reg(outside + "/pwned")}, bundle.ErrUnsafeEntry},
		{"dot-dot", []*tar.Header{reg("manifest.yaml"), reg("a/../../pwned")}, bundle.ErrUnsafeEntry},
		{"symlink", []*tar.Header{{Typeflag: tar.TypeSymlink, Name: "evil", Linkname: outside}, reg("evil/pwned"), reg("manifest.yaml")}, bundle.ErrUnsafeEntry},
		{"hard link", []*tar.Header{reg("manifest.yaml"), {Typeflag: tar.TypeLink, Name: "h", Linkname: "/etc/passwd"}}, bundle.ErrUnsafeEntry},
		{"device", []*tar.Header{reg("manifest.yaml"), {Typeflag: tar.TypeChar, Name: "null", Devmajor: 1, Devminor: 3}}, bundle.ErrUnsafeEntry},
		{"duplicate file", []*tar.Header{reg("manifest.yaml"), reg("manifest.yaml")}, os.ErrExist},
		{"deep name", []*tar.Header{reg("manifest.yaml"), reg(strings.Repeat("a/", 300_000) + "f")}, bundle.ErrUnsafeEntry},
		{"long name", []*tar.Header{reg("manifest.yaml"), reg(strings.Repeat("a", 5000))}, bundle.ErrUnsafeEntry},
		{"no manifest", []*tar.Header{reg("other.yaml")}, bundle.ErrNoManifest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dest := filepath.Join(t.TempDir(), "out")
			_, err := bundle.Extract(bytes.NewReader(tarball(t, c.hdrs...)), dest, bundle.Limits{})
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if _, err := os.Stat(dest); !os.IsNotExist(err) {
				t.Fatalf("a refused bundle left %s behind", dest)
			}
			if left, _ := os.ReadDir(outside); len(left) > 0 {
				t.Fatalf("wrote outside the bundle: %v", left)
			}
		})
	}
}

func TestExtractLimits(t *testing.T) {
	tgz := tarball(t, reg("manifest.yaml"), reg("a"), reg("b"))
	if _, err := bundle.Extract(bytes.NewReader(tgz), filepath.Join(t.TempDir(), "o"), bundle.Limits{Entries: 2}); !errors.Is(err, bundle.ErrTooLarge) {
		t.Fatalf("entries: err = %v", err)
	}
	if _, err := bundle.Extract(bytes.NewReader(tgz), filepath.Join(t.TempDir(), "o"), bundle.Limits{Bytes: 2}); !errors.Is(err, bundle.ErrTooLarge) {
		t.Fatalf("bytes: err = %v", err)
	}
	if _, err := bundle.Extract(bytes.NewReader([]byte("not gzip")), filepath.Join(t.TempDir(), "o"), bundle.Limits{}); err == nil {
		t.Fatal("garbage accepted")
	}
}

func TestExtractPrefersTheShallowestManifest(t *testing.T) {
	tgz := tarball(t, reg("deep/manifest.yaml"), reg("top/manifest.yaml"), reg("top/x/manifest.yaml"))
	dest := filepath.Join(t.TempDir(), "o")
	m, err := bundle.Extract(bytes.NewReader(tgz), dest, bundle.Limits{})
	if err != nil || m != dest+"/deep/manifest.yaml" {
		t.Fatalf("m = %s, %v", m, err)
	}
}

func TestSignatures(t *testing.T) {
	dir := t.TempDir()
	pub, err := bundle.GenerateKey(dir + "/key")
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir + "/key"); fi.Mode().Perm() != 0o600 {
		t.Fatalf("private key mode %v", fi.Mode())
	}
	if _, err := bundle.GenerateKey(dir + "/key"); !errors.Is(err, os.ErrExist) {
		t.Fatalf("GenerateKey overwrote a key: %v", err)
	}
	priv, err := bundle.ReadPrivateKey(dir + "/key")
	if err != nil {
		t.Fatal(err)
	}
	keys, err := bundle.ReadPublicKeys(dir + "/key.pub")
	if err != nil || len(keys) != 1 || !keys[0].Equal(pub) {
		t.Fatalf("keys = %v, %v", keys, err)
	}
	other, otherPriv, _ := ed25519.GenerateKey(rand.Reader)
	data := []byte("bundle bytes")
	when := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	sig := bundle.Sign(data, priv, when)
	legacy := []byte(hex.EncodeToString(ed25519.Sign(priv, data)) + "\n")
	// A signature whose payload names the trusted key but was made by
	// another: the key named must be the key that verifies.
	forged := forge(t, data, otherPriv, pub, when)
	cases := []struct {
		name      string
		data, sig []byte
		keys      []ed25519.PublicKey
		want      error
	}{
		{"good", data, sig, keys, nil},
		{"no key configured", data, nil, nil, nil},
		{"unsigned", data, nil, keys, bundle.ErrUnsigned},
		{"tampered", []byte("bundle bytez"), sig, keys, bundle.ErrBadSignature},
		{"other key", data, sig, []ed25519.PublicKey{other}, bundle.ErrBadSignature},
		{"garbage signature", data, []byte("zz"), keys, bundle.ErrBadSignature},
		{"signature without a time", data, legacy, keys, bundle.ErrBadSignature},
		{"payload names another key", data, forged, keys, bundle.ErrBadSignature},
		{"one of several keys", data, sig, []ed25519.PublicKey{other, pub}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := bundle.Verify(c.data, c.sig, c.keys)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if err == nil && len(c.keys) > 0 && (!a.Signed.Equal(when) || a.Key != hex.EncodeToString(pub)) {
				t.Fatalf("attestation = %+v", a)
			}
		})
	}
}

// forge makes a signature by priv whose payload names the key named.
func forge(t *testing.T, data []byte, priv ed25519.PrivateKey, named ed25519.PublicKey, when time.Time) []byte {
	t.Helper()
	sum := sha256.Sum256(data)
	payload, err := json.Marshal(bundle.Attestation{Digest: hex.EncodeToString(sum[:]), Signed: when, Key: hex.EncodeToString(named)})
	if err != nil {
		t.Fatal(err)
	}
	sig := ed25519.Sign(priv, append([]byte("ccm bundle signature\x00"), payload...))
	b64 := base64.RawURLEncoding
	return []byte("ccm-sig-1." + b64.EncodeToString(payload) + "." + b64.EncodeToString(sig))
}

func TestPEMKeys(t *testing.T) {
	dir := t.TempDir()
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	p8, _ := x509.MarshalPKCS8PrivateKey(priv)
	pk, _ := x509.MarshalPKIXPublicKey(pub)
	write(t, dir+"/k.pem", string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: p8})))
	write(t, dir+"/k.pub.pem", string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pk})))
	got, err := bundle.ReadPrivateKey(dir + "/k.pem")
	if err != nil || !got.Equal(priv) {
		t.Fatalf("private: %v", err)
	}
	keys, err := bundle.ReadPublicKeys(dir + "/k.pub.pem")
	if err != nil || len(keys) != 1 || !keys[0].Equal(pub) {
		t.Fatalf("public: %v %v", keys, err)
	}
	write(t, dir+"/bad", "not a key\n")
	if _, err := bundle.ReadPublicKeys(dir + "/bad"); !errors.Is(err, bundle.ErrBadKey) {
		t.Fatalf("bad public key: %v", err)
	}
	if _, err := bundle.ReadPrivateKey(dir + "/bad"); !errors.Is(err, bundle.ErrBadKey) {
		t.Fatalf("bad private key: %v", err)
	}
}

func TestDescribe(t *testing.T) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	key := hex.EncodeToString(priv.Public().(ed25519.PublicKey))
	// A signature stating a short key, as a crafted revision in a store
	// may hold: listings show it rather than fail.
	payload, _ := json.Marshal(bundle.Attestation{Digest: "x", Signed: at, Key: "ab"})
	short := "ccm-sig-1." + base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(make([]byte, ed25519.SignatureSize))
	for _, c := range []struct {
		name string
		sig  []byte
		want string
	}{
		{"none", nil, "unsigned"},
		{"garbage", []byte("not a signature"), "with a signature that is not one"},
		{"signed", bundle.Sign([]byte("data"), priv, at), "signed by " + key[:12] + " at 2026-01-02T03:04:05Z"},
		{"a short key", []byte(short), "signed by ab at 2026-01-02T03:04:05Z"},
	} {
		if got := bundle.Describe(c.sig); got != c.want {
			t.Errorf("%s: Describe = %q, want %q", c.name, got, c.want)
		}
	}
}
