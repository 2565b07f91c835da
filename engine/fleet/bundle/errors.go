package bundle

import "errors"

var (
	// ErrNoManifest is returned for a bundle or directory without a
	// manifest.yaml.
	ErrNoManifest = errors.New("bundle: no manifest.yaml")
	// ErrUnsafeEntry is returned for a tarball entry that could write
	// outside the extraction directory or is not a plain file or directory.
	ErrUnsafeEntry = errors.New("bundle: unsafe entry")
	// ErrTooLarge is returned when a bundle exceeds the extraction limits.
	ErrTooLarge = errors.New("bundle: too large")
	// ErrUnsigned is returned when keys are trusted and a bundle carries no
	// signature.
	ErrUnsigned = errors.New("bundle: not signed")
	// ErrBadSignature is returned when no trusted key verifies a bundle's
	// signature.
	ErrBadSignature = errors.New("bundle: bad signature")
	// ErrBadKey is returned for a key file that holds no usable ed25519 key.
	ErrBadKey = errors.New("bundle: bad key")
)
