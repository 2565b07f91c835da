package main

import (
	"path/filepath"

	"github.com/reactive-ccm/ccm/engine/daemon/reload"
	"github.com/reactive-ccm/ccm/graph"
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

// inputsOf is what g, compiled from manifests, was compiled from: watch
// mode reloads when their content changes.
func inputsOf(cmd *cobra.Command, manifests []string, g *graph.Graph, remote func() []byte) reload.Inputs {
	files, trees := dataPaths(cmd, g)
	return reload.Inputs{Files: append(withIncluded(manifests, g), files...), Trees: trees, Remote: remote}
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
