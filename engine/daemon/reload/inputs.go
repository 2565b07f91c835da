package reload

import (
	"crypto/sha256"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/reactive-ccm/ccm/resources/document"
)

// Inputs are what a graph was compiled from.
type Inputs struct {
	// Files are the manifests and the files their data comes from.
	Files []string
	// Trees are directories whose files come and go (facts.d).
	Trees []string
	// Remote identifies the revisions of the remote sources in force; nil
	// when there are none.
	Remote func() []byte
}

// Sum hashes every file's content, every tree's file names and contents
// and the remote revisions; a missing path hashes as absent, so its
// appearance counts.
func (in Inputs) Sum() []byte {
	h := sha256.New()
	if in.Remote != nil {
		h.Write(in.Remote())
	}
	for _, f := range in.Files {
		b, err := document.Read(f)
		h.Write([]byte(f + "\x00" + errText(err) + "\x00"))
		h.Write(b)
	}
	for _, t := range in.Trees {
		// A tree that cannot be walked hashes as what was seen of it.
		_ = filepath.WalkDir(t, func(p string, _ fs.DirEntry, err error) error {
			// A FIFO or a device in a data tree is hashed as its error.
			b, rerr := document.Read(p)
			h.Write([]byte(p + "\x00" + errText(err) + errText(rerr) + "\x00"))
			h.Write(b)
			return nil
		})
	}
	return h.Sum(nil)
}

// samePaths reports whether in and other name the same files and trees.
func (in Inputs) samePaths(other Inputs) bool {
	return slices.Equal(in.Files, other.Files) && slices.Equal(in.Trees, other.Trees)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Watcher is what the inputs are watched with: the process's shared
// event sources, or polling.
type Watcher interface {
	// WatchFile calls notify whenever the file at path may have changed.
	WatchFile(path string, notify func()) (cancel func())
	// WatchTree calls notify whenever a file under root may have changed.
	WatchTree(root string, notify func()) (cancel func())
}

// watch watches every input with w, calling notify on any change.
func (in Inputs) watch(w Watcher, notify func()) (cancel func()) {
	var cancels []func()
	for _, f := range in.Files {
		cancels = append(cancels, w.WatchFile(f, notify))
	}
	for _, t := range in.Trees {
		cancels = append(cancels, w.WatchTree(t, notify))
	}
	return func() {
		for _, c := range cancels {
			c()
		}
	}
}
