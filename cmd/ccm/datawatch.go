package main

import (
	"bytes"
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/spf13/cobra"
)

// dataPaths lists what besides the manifests feeds g, so watch mode
// reloads when it changes: the --hiera and --facts files, the facts
// overlay files, each manifest's resources_jet_file (files), and the
// facts.d directories (trees, whose files come and go).
func dataPaths(cmd *cobra.Command, g *graph.Graph) (files, trees []string) {
	files, trees = factOptions(cmd).WatchPaths()
	files = append(files, hieraFiles(cmd)...)
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

// watchData calls reload whenever the content of g's data paths changes.
// Events only prompt a comparison of content hashes, so polling, and
// writes that change nothing, cause no reload.
func (s *sources) watchData(cmd *cobra.Command, g *graph.Graph, reload func()) (cancel func()) {
	files, trees := dataPaths(cmd, g)
	d := &dataSums{files: files, trees: trees}
	d.sum = d.compute()
	var cancels []func()
	for _, f := range files {
		cancels = append(cancels, s.watchFile(f, func() { go d.check(reload) }))
	}
	for _, t := range trees {
		cancels = append(cancels, s.watchTree(t, func() { go d.check(reload) }))
	}
	return func() {
		for _, c := range cancels {
			c()
		}
	}
}

// watchTree watches every file under root, or polls it.
func (s *sources) watchTree(root string, notify func()) (cancel func()) {
	if s.inotify != nil {
		return s.inotify.WatchTree(root, notify)
	}
	return s.poll.Every(s.interval, notify)
}

// dataSums remembers the content of data paths.
type dataSums struct {
	files, trees []string
	mu           sync.Mutex
	sum          []byte
}

// check calls reload when the content changed since the last check.
func (d *dataSums) check(reload func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	sum := d.compute()
	if bytes.Equal(sum, d.sum) {
		return
	}
	d.sum = sum
	reload()
}

// compute hashes every file's content and every tree's file names and
// contents; missing paths hash as absent, so their appearance counts.
func (d *dataSums) compute() []byte {
	h := sha256.New()
	for _, f := range d.files {
		b, err := os.ReadFile(f)
		h.Write([]byte(f + "\x00" + err2string(err) + "\x00"))
		h.Write(b)
	}
	for _, t := range d.trees {
		// A tree that cannot be walked hashes as what was seen of it.
		_ = filepath.WalkDir(t, func(p string, e fs.DirEntry, err error) error {
			b, rerr := os.ReadFile(p)
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
