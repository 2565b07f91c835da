package bundle

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"os"
	"strings"
)

// SignatureSuffix names a bundle's detached signature file: FILE.sig
// beside FILE, URL.sig beside URL.
const SignatureSuffix = ".sig"

// Sign returns the hex-encoded ed25519 signature of bundle.
func Sign(bundle []byte, key ed25519.PrivateKey) []byte {
	return []byte(hex.EncodeToString(ed25519.Sign(key, bundle)) + "\n")
}

// Verify checks sig (as Sign writes it) over bundle against keys. With no
// keys nothing is required and nil is returned.
func Verify(bundle, sig []byte, keys []ed25519.PublicKey) error {
	if len(keys) == 0 {
		return nil
	}
	if len(bytes.TrimSpace(sig)) == 0 {
		return ErrUnsigned
	}
	raw, err := hex.DecodeString(string(bytes.TrimSpace(sig)))
	if err != nil || len(raw) != ed25519.SignatureSize {
		return fmt.Errorf("%w: the signature is not %d hex-encoded bytes", ErrBadSignature, ed25519.SignatureSize)
	}
	for _, k := range keys {
		if ed25519.Verify(k, bundle, raw) {
			return nil
		}
	}
	return fmt.Errorf("%w: no trusted key verifies it", ErrBadSignature)
}

// GenerateKey makes a key pair and writes the private key to file (mode
// 0600, refusing to overwrite) and the public key to file.pub, both as hex.
func GenerateKey(file string) (ed25519.PublicKey, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	if err := writeNew(file, hex.EncodeToString(priv.Seed())+"\n", 0o600); err != nil {
		return nil, err
	}
	if err := writeNew(file+".pub", hex.EncodeToString(pub)+"\n", 0o644); err != nil {
		return nil, err
	}
	return pub, nil
}

func writeNew(file, content string, mode os.FileMode) error {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	_, err = f.WriteString(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ReadPrivateKey reads a signing key: a hex-encoded 32-byte seed (as
// GenerateKey writes) or a PEM PKCS#8 ed25519 key (openssl genpkey
// -algorithm ed25519).
func ReadPrivateKey(file string) (ed25519.PrivateKey, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	if blk, _ := pem.Decode(b); blk != nil {
		k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
		if priv, ok := k.(ed25519.PrivateKey); err == nil && ok {
			return priv, nil
		}
		return nil, fmt.Errorf("%w: %s is not a PEM ed25519 private key", ErrBadKey, file)
	}
	seed, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("%w: %s holds neither a hex ed25519 seed nor a PEM key", ErrBadKey, file)
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// ReadPublicKeys reads trusted keys: one hex-encoded key per line (blank
// lines and # comments skipped), or PEM PKIX public keys.
func ReadPublicKeys(file string) ([]ed25519.PublicKey, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	var keys []ed25519.PublicKey
	if blk, rest := pem.Decode(b); blk != nil {
		for ; blk != nil; blk, rest = pem.Decode(rest) {
			k, err := x509.ParsePKIXPublicKey(blk.Bytes)
			pub, ok := k.(ed25519.PublicKey)
			if err != nil || !ok {
				return nil, fmt.Errorf("%w: %s holds a PEM block that is not an ed25519 public key", ErrBadKey, file)
			}
			keys = append(keys, pub)
		}
		return keys, nil
	}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		raw, err := hex.DecodeString(line)
		if err != nil || len(raw) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("%w: %s:%d is not a hex ed25519 public key", ErrBadKey, file, i+1)
		}
		keys = append(keys, ed25519.PublicKey(raw))
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%w: %s holds no key", ErrBadKey, file)
	}
	return keys, nil
}
