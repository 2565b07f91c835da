package main

import (
	"github.com/reactive-ccm/ccm/engine/daemon/reload"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/spf13/cobra"
)

// inputsOf is what g, compiled from manifests, was compiled from: watch
// mode reloads when their content changes. Besides the manifests, the
// --hiera and --facts files, the facts overlay files and the facts.d
// directories (trees, whose files come and go).
func inputsOf(cmd *cobra.Command, manifests []string, g *graph.Graph, remote func() []byte) reload.Inputs {
	files, trees := factOptions(cmd).WatchPaths()
	files = append(files, source.LocalPaths(hieraFiles(cmd))...)
	return reload.CompiledFrom(manifests, g, reload.Inputs{Files: files, Trees: trees, Remote: remote})
}
