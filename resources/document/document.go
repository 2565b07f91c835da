// Package document reads the documents ccm is given: manifests, hiera and
// facts files, the agent's configuration. Each must be a regular file of
// bounded size, reached without following a symlink someone other than
// root controls, so that /dev/zero, a FIFO or a huge file is an error at
// once rather than a hang or an exhausted memory.
package document

import (
	"path/filepath"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
)

// MaxSize bounds a manifest, hiera or facts file: a hundred times
// a manifest of 10,000 file resources.
const MaxSize = 64 << 20

// Read reads a manifest, hiera or facts file: a regular file (a
// FIFO, a device or a directory is safepath.ErrNotRegular) of at most
// MaxSize bytes (safepath.ErrTooLarge), reached as the files
// templates read are, without following a symlink someone other than
// root controls. A relative name is taken from the working directory.
func Read(file string) ([]byte, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	return safepath.Policy{}.ReadFile(abs, MaxSize)
}
