package main

import (
	"fmt"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/spf13/cobra"
)

func newValidateCmd() *cobra.Command {
	return compileCmd("validate SOURCE...", "Check manifests without touching the host; exit 0 when valid, 2 with every problem otherwise",
		func(cmd *cobra.Command, g *graph.Graph) error {
			notePending(cmd, g)
			fmt.Fprintf(cmd.OutOrStdout(), "%d resources, %d edges (%d of written order): ok\n", len(g.Vertices), len(g.Edges), g.OrderEdges())
			return nil
		})
}

func newGraphCmd() *cobra.Command {
	return compileCmd("graph SOURCE...", "Print the dependency graph in Graphviz DOT", func(cmd *cobra.Command, g *graph.Graph) error {
		return g.WriteDOT(cmd.OutOrStdout())
	})
}

// compileCmd is a command that compiles the manifests its arguments name
// (paths, obj:// or https:// bundles), with the child manifests that
// exist, and shows the graph.
func compileCmd(use, short string, show func(*cobra.Command, *graph.Graph) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			g, _, err := compile(cmd, files, graph.ChildrenAtLoad)
			if err != nil {
				return err
			}
			return show(cmd, g)
		},
	}
	addDataFlags(cmd.Flags())
	return cmd
}

// notePending says which child manifests validate could not check: those
// that cannot be read yet, which their apply resources read when they run
// (an earlier resource may write them).
func notePending(cmd *cobra.Command, g *graph.Graph) {
	for _, v := range g.Vertices {
		if p := v.Pending; p != nil {
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %s: not checked: %v; it is read when the apply resource runs\n", v.Pos, v.ID(), p.Why)
		}
	}
}
