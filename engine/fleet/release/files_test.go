package release_test

import (
	"crypto/ed25519"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
)

func TestKeySigner(t *testing.T) {
	if release.KeySigner("") != nil {
		t.Fatal("no key file, no signer")
	}
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	pub, err := bundle.GenerateKey(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := release.KeySigner(keyFile)([]byte("data"))
	if err != nil {
		t.Fatal(err)
	}
	if a, err := bundle.Verify([]byte("data"), sig, []ed25519.PublicKey{pub}); err != nil || a.Signed.IsZero() {
		t.Fatalf("the signature does not verify with the key's public half: %v", err)
	}
	_, err = release.KeySigner(filepath.Join(dir, "missing"))([]byte("data"))
	if !errors.Is(err, release.ErrRefused) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing key file: %v, want a refusal that keeps fs.ErrNotExist", err)
	}
}

func TestReadBundle(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "site.tgz")
	if _, err := release.ReadBundle(file); !errors.Is(err, release.ErrRefused) {
		t.Fatalf("a missing bundle: %v, want a refusal", err)
	}
	if err := os.WriteFile(file, []byte("tarball"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := release.ReadBundle(file)
	if err != nil || string(b.Data) != "tarball" || b.Signature != nil || b.PushedBy != release.Pusher() {
		t.Fatalf("ReadBundle = %+v, %v", b, err)
	}
	if err := os.WriteFile(file+bundle.SignatureSuffix, []byte("sig"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err = release.ReadBundle(file); err != nil || string(b.Signature) != "sig" {
		t.Fatalf("ReadBundle with a signature = %+v, %v", b, err)
	}
	if err := os.Remove(file + bundle.SignatureSuffix); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(file+bundle.SignatureSuffix, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err = release.ReadBundle(file); err == nil || errors.Is(err, release.ErrRefused) {
		t.Fatalf("an unreadable signature: %v, want an error that is not a refusal", err)
	}
}

func TestSignFile(t *testing.T) {
	dir := t.TempDir()
	keyFile, file := filepath.Join(dir, "key"), filepath.Join(dir, "site.tgz")
	pub, err := bundle.GenerateKey(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := release.SignFile(file, keyFile); !errors.Is(err, release.ErrRefused) {
		t.Fatalf("a missing bundle: %v, want a refusal", err)
	}
	if err := os.WriteFile(file, []byte("tarball"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := release.SignFile(file, filepath.Join(dir, "nokey")); !errors.Is(err, release.ErrRefused) {
		t.Fatalf("a missing key: %v, want a refusal", err)
	}
	sig, err := release.SignFile(file, keyFile)
	if err != nil || sig != file+bundle.SignatureSuffix {
		t.Fatalf("SignFile = %q, %v", sig, err)
	}
	b, err := os.ReadFile(sig)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bundle.Verify([]byte("tarball"), b, []ed25519.PublicKey{pub}); err != nil {
		t.Fatalf("the signature written does not verify: %v", err)
	}
}
