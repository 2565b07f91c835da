package reload

import (
	"path/filepath"

	"github.com/reactive-ccm/ccm/graph"
)

// CompiledFrom is what g, compiled from manifests, was compiled from: the
// manifests, those they apply (a child that cannot be read yet is watched
// for its appearance), then data's files (the --hiera and facts files),
// then each manifest's resources_jet_file, with data's trees and remote
// revisions.
func CompiledFrom(manifests []string, g *graph.Graph, data Inputs) Inputs {
	files := append(withIncluded(manifests, g), data.Files...)
	for _, m := range g.Manifests {
		if jet := m.ResourcesJetFile; jet != "" {
			if !filepath.IsAbs(jet) {
				jet = filepath.Join(m.Dir, jet)
			}
			files = append(files, jet)
		}
	}
	return Inputs{Files: files, Trees: data.Trees, Remote: data.Remote}
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
	for _, v := range g.Vertices {
		if p := v.Pending; p != nil && !seen[p.File] {
			seen[p.File] = true
			out = append(out, p.File)
		}
	}
	return out
}
