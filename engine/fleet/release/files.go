package release

import (
	"errors"
	"os"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
)

// KeySigner signs with the ed25519 private key in keyFile, read when a
// signature is needed; nil without a key file. A key it cannot read is
// ErrRefused.
func KeySigner(keyFile string) Signer {
	if keyFile == "" {
		return nil
	}
	return func(data []byte) ([]byte, error) {
		priv, err := bundle.ReadPrivateKey(keyFile)
		if err != nil {
			return nil, refused{err}
		}
		return bundle.Sign(data, priv, time.Now()), nil
	}
}

// ReadBundle reads a bundle to push from file, and its signature from
// file.sig when there is one. A file it cannot read is ErrRefused.
func ReadBundle(file string) (Bundle, error) {
	b := Bundle{PushedBy: Pusher()}
	var err error
	if b.Data, err = os.ReadFile(file); err != nil {
		return b, refused{err}
	}
	b.Signature, err = os.ReadFile(file + bundle.SignatureSuffix)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return b, err
	}
	return b, nil
}

// SignFile signs the bundle file with the key in keyFile and writes the
// signature beside it (file.sig), which it returns. A file or key it
// cannot read is ErrRefused.
func SignFile(file, keyFile string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", refused{err}
	}
	signature, err := KeySigner(keyFile)(b)
	if err != nil {
		return "", err
	}
	sig := file + bundle.SignatureSuffix
	return sig, os.WriteFile(sig, signature, 0o644)
}
