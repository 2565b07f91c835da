package bundle

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"
)

// SignatureSuffix names a bundle's detached signature file: FILE.sig
// beside FILE, URL.sig beside URL.
const SignatureSuffix = ".sig"

// RemoveSignature removes file.sig, the signature of what file held
// before it was packed again: push would attach it to bytes it does not
// sign. It returns the file it removed, "" when there was none.
func RemoveSignature(file string) (string, error) {
	sig := file + SignatureSuffix
	err := os.Remove(sig)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return sig, nil
}

// Attestation is what a signature states about a bundle, all of it
// covered by the signature: which bytes, when they were signed and by
// which key. Hosts never go back from the newest Signed time they
// accepted, so an older signed bundle published again is refused.
type Attestation struct {
	// Digest is the hex SHA-256 of the tarball.
	Digest string `json:"sha256"`
	// Signed is when the signature was made; it orders revisions.
	Signed time.Time `json:"signed"`
	// Key is the hex ed25519 public key that signed.
	Key string `json:"key"`
}

// sigPrefix starts every signature; the version in it lets the format
// change without a signature of one format being read as another.
const sigPrefix = "ccm-sig-1."

// sigDomain is prefixed to what is signed, so a ccm bundle signature can
// never be taken for another protocol's signature by the same key.
const sigDomain = "ccm bundle signature\x00"

// Sign returns the signature of bundle made with key at now: one line,
// "ccm-sig-1.PAYLOAD.SIG", PAYLOAD the base64url JSON Attestation and SIG
// the base64url ed25519 signature of it.
func Sign(bundle []byte, key ed25519.PrivateKey, now time.Time) []byte {
	sum := sha256.Sum256(bundle)
	pub, _ := key.Public().(ed25519.PublicKey)
	payload, _ := json.Marshal(Attestation{Digest: hex.EncodeToString(sum[:]), Signed: now.UTC(), Key: hex.EncodeToString(pub)})
	sig := ed25519.Sign(key, append([]byte(sigDomain), payload...))
	b64 := base64.RawURLEncoding
	return []byte(sigPrefix + b64.EncodeToString(payload) + "." + b64.EncodeToString(sig) + "\n")
}

// Inspect reads what sig states without checking it: for listings, never
// for a decision.
func Inspect(sig []byte) (Attestation, error) {
	a, _, _, err := parse(sig)
	return a, err
}

// Describe says for an operator who signed sig and when, unchecked
// (Inspect): "unsigned", "signed by KEY at TIME" with KEY shortened, or
// that it is not a signature.
func Describe(sig []byte) string {
	a, err := Inspect(sig)
	switch {
	case len(sig) == 0:
		return "unsigned"
	case err != nil:
		return "with a signature that is not one"
	}
	return fmt.Sprintf("signed by %s at %s", short(a.Key), a.Signed.Format(time.RFC3339))
}

// parse splits a signature into its attestation, the payload bytes that
// were signed and the raw signature.
func parse(sig []byte) (a Attestation, payload, raw []byte, err error) {
	line := strings.TrimSpace(string(sig))
	rest, ok := strings.CutPrefix(line, sigPrefix)
	if !ok {
		return a, nil, nil, fmt.Errorf("%w: not a ccm signature (want %s…; an older signature holds no signing time: sign the bundle again with ccm bundle sign)", ErrBadSignature, sigPrefix)
	}
	p, s, _ := strings.Cut(rest, ".")
	b64 := base64.RawURLEncoding
	payload, perr := b64.DecodeString(p)
	raw, serr := b64.DecodeString(s)
	if perr != nil || serr != nil || len(raw) != ed25519.SignatureSize || json.Unmarshal(payload, &a) != nil || a.Signed.IsZero() {
		return Attestation{}, nil, nil, fmt.Errorf("%w: the signature is damaged", ErrBadSignature)
	}
	return a, payload, raw, nil
}

// Verify checks sig (as Sign writes it) over bundle against keys and
// returns what it attests. With no keys nothing is required: the zero
// Attestation and nil are returned.
func Verify(bundle, sig []byte, keys []ed25519.PublicKey) (Attestation, error) {
	if len(keys) == 0 {
		return Attestation{}, nil
	}
	if len(bytes.TrimSpace(sig)) == 0 {
		return Attestation{}, ErrUnsigned
	}
	a, payload, raw, err := parse(sig)
	if err != nil {
		return Attestation{}, err
	}
	key := trusted(keys, a.Key)
	if key == nil {
		return Attestation{}, fmt.Errorf("%w: signed by key %s, which is not trusted", ErrBadSignature, short(a.Key))
	}
	if !ed25519.Verify(key, append([]byte(sigDomain), payload...), raw) {
		return Attestation{}, fmt.Errorf("%w: the signature does not verify with key %s", ErrBadSignature, short(a.Key))
	}
	if sum := sha256.Sum256(bundle); hex.EncodeToString(sum[:]) != a.Digest {
		return Attestation{}, fmt.Errorf("%w: the bundle is not the one signed (its SHA-256 differs)", ErrBadSignature)
	}
	return a, nil
}

// trusted returns the key of keys whose hex form is h, or nil.
func trusted(keys []ed25519.PublicKey, h string) ed25519.PublicKey {
	for _, k := range keys {
		if hex.EncodeToString(k) == h {
			return k
		}
	}
	return nil
}

// short is a key's first 12 hex digits, enough to tell keys apart.
func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
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
