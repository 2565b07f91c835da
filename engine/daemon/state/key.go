package state

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
)

// Key names a thing by the strings that identify it (a graph by its
// manifest sources) as a short hex digest, usable as a name.
func Key(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// GraphKey names a graph by its manifest files' absolute paths, so the
// same manifests find their state whatever the working directory.
func GraphKey(files ...string) string {
	abs := make([]string, len(files))
	for i, f := range files {
		if a, err := filepath.Abs(f); err == nil {
			f = a
		}
		abs[i] = f
	}
	return Key(abs...)
}
