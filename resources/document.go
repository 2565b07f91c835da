package resources

import (
	"path/filepath"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
)

// MaxDocumentSize bounds a manifest, hiera or facts file: a hundred times
// a manifest of 10,000 file resources.
const MaxDocumentSize = 64 << 20

// ReadDocument reads a manifest, hiera or facts file: a regular file (a
// FIFO, a device or a directory is safepath.ErrNotRegular) of at most
// MaxDocumentSize bytes (safepath.ErrTooLarge), reached as the files
// templates read are, without following a symlink someone other than
// root controls. A relative name is taken from the working directory.
func ReadDocument(file string) ([]byte, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	return safepath.Policy{}.ReadFile(abs, MaxDocumentSize)
}
