package bundle_test

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
)

// TestReadPublicKeys: one hex key a line with blank lines and comments,
// or PEM blocks; what is wrong is named with its line.
func TestReadPublicKeys(t *testing.T) {
	dir := t.TempDir()
	a, _, _ := ed25519.GenerateKey(rand.Reader)
	b, _, _ := ed25519.GenerateKey(rand.Reader)
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ecDER, _ := x509.MarshalPKIXPublicKey(&ec.PublicKey)
	cases := []struct {
		name, content string
		keys          int
		want          string
	}{
		{"two keys, comments and blank lines", "# ops\n\n  " + hex.EncodeToString(a) + "  \n# ci\n" + hex.EncodeToString(b) + "\n", 2, ""},
		{"a bad line", "# ops\n" + hex.EncodeToString(a) + "\nzz\n", 0, "bundle: bad key: " + dir + "/a bad line:3 is not a hex ed25519 public key"},
		{"a short key", hex.EncodeToString(a[:31]), 0, "bundle: bad key: " + dir + "/a short key:1 is not a hex ed25519 public key"},
		{"only comments", "# nothing\n\n", 0, "bundle: bad key: " + dir + "/only comments holds no key"},
		{"a PEM key of another kind", string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: ecDER})), 0,
			"bundle: bad key: " + dir + "/a PEM key of another kind holds a PEM block that is not an ed25519 public key"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			write(t, dir+"/"+c.name, c.content)
			keys, err := bundle.ReadPublicKeys(dir + "/" + c.name)
			if c.want == "" && (err != nil || len(keys) != c.keys) || c.want != "" && (err == nil || err.Error() != c.want) {
				t.Fatalf("%d keys, %v; want %d, %q", len(keys), err, c.keys, c.want)
			}
		})
	}
	if _, err := bundle.ReadPublicKeys(dir + "/none"); !errors.Is(err, os.ErrNotExist) || !strings.HasPrefix(err.Error(), "bundle: ") {
		t.Fatalf("a missing file: %v", err)
	}
}

func TestReadPrivateKeyRefusesOtherKeys(t *testing.T) {
	dir := t.TempDir()
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ecDER, _ := x509.MarshalPKCS8PrivateKey(ec)
	cases := []struct{ name, content, want string }{
		{"ecdsa", string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: ecDER})), "is not a PEM ed25519 private key"},
		{"a short seed", strings.Repeat("ab", 31), "holds neither a hex ed25519 seed nor a PEM key"},
		{"a public key", strings.Repeat("ab", 32) + strings.Repeat("cd", 32), "holds neither a hex ed25519 seed nor a PEM key"},
	}
	for _, c := range cases {
		write(t, dir+"/"+c.name, c.content)
		if _, err := bundle.ReadPrivateKey(dir + "/" + c.name); !errors.Is(err, bundle.ErrBadKey) || err.Error() != "bundle: bad key: "+dir+"/"+c.name+" "+c.want {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	write(t, dir+"/seed", "\n"+strings.Repeat("ab", 32)+"\n")
	if _, err := bundle.ReadPrivateKey(dir + "/seed"); err != nil {
		t.Fatalf("a seed between blank lines: %v", err)
	}
}

// TestSignatureFormat: one line, "ccm-sig-1." then the attestation and the
// signature, each base64url; Inspect reads it back without a key.
func TestSignatureFormat(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	at := time.Date(2026, 12, 7, 12, 0, 0, 5, time.FixedZone("CET", 3600))
	sig := bundle.Sign([]byte("data"), priv, at)
	line, ok := strings.CutSuffix(string(sig), "\n")
	if !ok || strings.Contains(line, "\n") || !strings.HasPrefix(line, "ccm-sig-1.") || strings.Count(line, ".") != 2 {
		t.Fatalf("signature %q", sig)
	}
	a, err := bundle.Inspect(sig)
	if err != nil || a.Key != hex.EncodeToString(pub) || !a.Signed.Equal(at) || a.Signed.Location() != time.UTC ||
		a.Digest != "3a6eb0790f39ac87c94f3856b2dd2c5d110e6811602261a9a923d3bb23adc8b7" {
		t.Fatalf("inspected %+v, %v", a, err)
	}
}

// TestDamagedSignatures: each way a signature can be broken is refused
// as ErrBadSignature, and says whether it is not one or is damaged.
func TestDamagedSignatures(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	data := []byte("data")
	good := strings.TrimSpace(string(bundle.Sign(data, priv, time.Now())))
	payload, raw, _ := strings.Cut(strings.TrimPrefix(good, "ccm-sig-1."), ".")
	b64 := base64.RawURLEncoding.EncodeToString
	noTime, _ := json.Marshal(map[string]string{"sha256": "x", "key": hex.EncodeToString(pub)})
	const notOne, damaged = "not a ccm signature", "the signature is damaged"
	cases := []struct{ name, sig, want string }{
		{"another format", "ccm-sig-2." + payload + "." + raw, notOne},
		{"a bare hex signature", hex.EncodeToString(ed25519.Sign(priv, data)), notOne},
		{"payload not base64", "ccm-sig-1.!!." + raw, damaged},
		{"signature not base64", "ccm-sig-1." + payload + ".!!", damaged},
		{"no signature part", "ccm-sig-1." + payload, damaged},
		{"a short signature", "ccm-sig-1." + payload + "." + b64(make([]byte, 63)), damaged},
		{"payload not JSON", "ccm-sig-1." + b64([]byte("{")) + "." + raw, damaged},
		{"payload without a time", "ccm-sig-1." + b64(noTime) + "." + raw, damaged},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := bundle.Verify(data, []byte(c.sig), []ed25519.PublicKey{pub})
			if !errors.Is(err, bundle.ErrBadSignature) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			if _, err := bundle.Inspect([]byte(c.sig)); !errors.Is(err, bundle.ErrBadSignature) {
				t.Fatalf("Inspect took it: %v", err)
			}
		})
	}
	for _, blank := range []string{"", " \n\t"} {
		if _, err := bundle.Verify(data, []byte(blank), []ed25519.PublicKey{pub}); !errors.Is(err, bundle.ErrUnsigned) {
			t.Errorf("%q: %v, want ErrUnsigned", blank, err)
		}
	}
	if _, err := bundle.Verify(data, []byte("\n "+good+"\n\n"), []ed25519.PublicKey{pub}); err != nil {
		t.Fatalf("a signature between blank lines: %v", err)
	}
}

// TestVerifyMessagesNameTheKey: a refusal names the key that signed, in
// short, and which check failed.
func TestVerifyMessagesNameTheKey(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	other, otherPriv, _ := ed25519.GenerateKey(rand.Reader)
	data := []byte("data")
	when := time.Now()
	cases := []struct {
		name string
		sig  []byte
		data []byte
		want string
	}{
		{"an untrusted key", bundle.Sign(data, otherPriv, when), data, "bundle: bad signature: signed by key " + hex.EncodeToString(other)[:12] + ", which is not trusted"},
		{"made by another key", forge(t, data, otherPriv, pub, when), data, "bundle: bad signature: the signature does not verify with key " + hex.EncodeToString(pub)[:12]},
		{"other bytes", bundle.Sign(data, priv, when), []byte("datb"), "bundle: bad signature: the bundle is not the one signed (its SHA-256 differs)"},
	}
	for _, c := range cases {
		if _, err := bundle.Verify(c.data, c.sig, []ed25519.PublicKey{pub}); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

func TestRemoveSignature(t *testing.T) {
	dir := t.TempDir()
	write(t, dir+"/b.tgz", "tgz")
	if got, err := bundle.RemoveSignature(dir + "/b.tgz"); err != nil || got != "" {
		t.Fatalf("without a signature: %q, %v", got, err)
	}
	write(t, dir+"/b.tgz.sig", "sig")
	if got, err := bundle.RemoveSignature(dir + "/b.tgz"); err != nil || got != dir+"/b.tgz.sig" {
		t.Fatalf("with one: %q, %v", got, err)
	}
	if _, err := os.Stat(dir + "/b.tgz.sig"); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the signature is still there")
	}
	if err := os.Mkdir(dir+"/d.tgz.sig", 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, dir+"/d.tgz.sig/x", "x")
	if _, err := bundle.RemoveSignature(dir + "/d.tgz"); err == nil {
		t.Fatal("a signature that could not be removed was no error")
	}
}
