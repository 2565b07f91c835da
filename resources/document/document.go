// Package document reads the documents ccm is given: manifests, hiera and
// facts files, `.env`, the agent's configuration. Each decides what ccm
// does as root, so each is read under the ownership rule (package
// internal/ownership): it and every directory above it must be owned by
// root or ccm's user and writable by no one else. Each must also be a
// regular file of bounded size, so that /dev/zero, a FIFO or a huge file
// is an error at once rather than a hang or an exhausted memory.
package document

import "github.com/reactive-ccm/ccm/internal/ownership"

// MaxSize bounds a manifest, hiera or facts file: a hundred times
// a manifest of 10,000 file resources.
const MaxSize = 64 << 20

// Read reads a manifest, hiera or facts file: a regular file (a FIFO, a
// device or a directory is ownership.ErrNotRegular) of at most MaxSize
// bytes (ownership.ErrTooLarge) that passes the ownership rule
// (ownership.ErrUnsafe), reached without following a symlink someone
// other than root or ccm's user owns. A relative name is taken from the
// working directory.
func Read(file string) ([]byte, error) {
	return ownership.ReadFile(file, MaxSize)
}
