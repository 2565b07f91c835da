package statuscache

import "errors"

// ErrFingerprint wraps a failure to read the package database's files.
var ErrFingerprint = errors.New("statuscache: cannot fingerprint the package database")
