package release_test

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
)

// tarball packs a directory holding manifest as manifest.yaml.
func tarball(t *testing.T, manifest string) []byte {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, bundle.ManifestName), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := bundle.Pack(dir, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestCheckRefusesWhatHostsWouldRefuse(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	otherPub, _, _ := ed25519.GenerateKey(nil)
	good := tarball(t, "good")
	signed := bundle.Sign(good, priv, time.Now())
	errCompile := errors.New("unknown key rollbak")
	// compile refuses the manifest "bad" and accepts anything else.
	compile := func(manifest string) error {
		b, err := os.ReadFile(manifest)
		if err == nil && string(b) == "bad" {
			return errCompile
		}
		return err
	}
	for _, c := range []struct {
		name  string
		b     release.Bundle
		trust []ed25519.PublicKey
		want  string
	}{
		{"an unsigned bundle that compiles", release.Bundle{Data: good}, nil, ""},
		{"a signed bundle under trust", release.Bundle{Data: good, Signature: signed}, []ed25519.PublicKey{pub}, ""},
		{"a signature that is not one", release.Bundle{Data: good, Signature: []byte("junk")}, nil, "site.tgz.sig"},
		{"a signature of other bytes", release.Bundle{Data: tarball(t, "other"), Signature: signed}, nil, "signs other bytes"},
		{"a signer the trust does not hold", release.Bundle{Data: good, Signature: signed}, []ed25519.PublicKey{otherPub}, "site.tgz: "},
		{"an unsigned bundle under trust", release.Bundle{Data: good}, []ed25519.PublicKey{pub}, "site.tgz: "},
		{"a tarball that does not unpack", release.Bundle{Data: []byte("not gzip")}, nil, "site.tgz: "},
		{"a manifest that does not compile", release.Bundle{Data: tarball(t, "bad")}, nil, "does not compile: unknown key rollbak"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := release.Check("site.tgz", c.b, c.trust, compile)
			if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
				t.Fatalf("Check: %v, want %q", err, c.want)
			}
		})
	}
}
