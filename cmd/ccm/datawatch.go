package main

import (
	"crypto/sha256"
	"io/fs"
	"path/filepath"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources/document"
	"github.com/spf13/cobra"
)

// dataPaths lists what besides the manifests feeds g, so watch mode
// reloads when it changes: the --hiera and --facts files, the facts
// overlay files, each manifest's resources_jet_file (files), and the
// facts.d directories (trees, whose files come and go).
func dataPaths(cmd *cobra.Command, g *graph.Graph) (files, trees []string) {
	files, trees = factOptions(cmd).WatchPaths()
	files = append(files, localOnly(hieraFiles(cmd))...)
	for _, m := range g.Manifests {
		if m.ResourcesJetFile == "" {
			continue
		}
		jet := m.ResourcesJetFile
		if !filepath.IsAbs(jet) {
			jet = filepath.Join(m.Dir, jet)
		}
		files = append(files, jet)
	}
	return files, trees
}

// watchTree watches every file under root, or polls it.
func (s *sources) watchTree(root string, notify func()) (cancel func()) {
	if s.inotify != nil {
		return s.inotify.WatchTree(root, notify)
	}
	return s.poll.Every(s.interval, notify)
}

// inputs are the files a graph was compiled from: the manifests and
// what feeds their templates. Watch mode reloads when their content
// changes; events only prompt a comparison, so polling, and writes that
// change nothing, cause no reload.
type inputs struct {
	files, trees []string
	// remote identifies the revisions of the remote sources in force.
	remote func() []byte
}

func inputsOf(cmd *cobra.Command, manifests []string, g *graph.Graph, remote func() []byte) inputs {
	files, trees := dataPaths(cmd, g)
	return inputs{files: append(withIncluded(manifests, g), files...), trees: trees, remote: remote}
}

// withIncluded is manifests and the manifests they apply, read or not.
func withIncluded(manifests []string, g *graph.Graph) []string {
	out := append([]string(nil), manifests...)
	seen := map[string]bool{}
	for _, f := range manifests {
		if abs, err := filepath.Abs(f); err == nil {
			seen[abs] = true
		}
	}
	for _, m := range g.Manifests {
		if abs, err := filepath.Abs(m.File); err == nil && !seen[abs] {
			seen[abs] = true
			out = append(out, m.File)
		}
	}
	// A child that cannot be read yet is watched for its appearance.
	for _, v := range g.Vertices {
		if p := v.Pending; p != nil && !seen[p.File] {
			seen[p.File] = true
			out = append(out, p.File)
		}
	}
	return out
}

// watch calls notify whenever one of the inputs may have changed.
func (s *sources) watchInputs(in inputs, notify func()) (cancel func()) {
	var cancels []func()
	for _, f := range in.files {
		cancels = append(cancels, s.watchFile(f, notify))
	}
	for _, t := range in.trees {
		cancels = append(cancels, s.watchTree(t, notify))
	}
	return func() {
		for _, c := range cancels {
			c()
		}
	}
}

// sum hashes every file's content, every tree's file names and contents
// and the remote revisions; missing paths hash as absent, so their
// appearance counts.
func (in inputs) sum() []byte {
	h := sha256.New()
	if in.remote != nil {
		h.Write(in.remote())
	}
	for _, f := range in.files {
		b, err := document.Read(f)
		h.Write([]byte(f + "\x00" + err2string(err) + "\x00"))
		h.Write(b)
	}
	for _, t := range in.trees {
		// A tree that cannot be walked hashes as what was seen of it.
		_ = filepath.WalkDir(t, func(p string, e fs.DirEntry, err error) error {
			// A FIFO or a device in a data tree is hashed as its error.
			b, rerr := document.Read(p)
			h.Write([]byte(p + "\x00" + err2string(err) + err2string(rerr) + "\x00"))
			h.Write(b)
			return nil
		})
	}
	return h.Sum(nil)
}

func err2string(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
