package state

import (
	"crypto/sha256"
	"encoding/hex"
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
