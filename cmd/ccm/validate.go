package main

import (
	"fmt"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/spf13/cobra"
)

func newValidateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "validate SOURCE...",
		Short: "Check manifests without touching the host; exit 0 when valid, 2 with every problem otherwise",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			g, err := load(cmd, files)
			if err != nil {
				return err
			}
			notePending(cmd, g)
			fmt.Fprintf(cmd.OutOrStdout(), "%d resources, %d edges (%d of written order): ok\n", len(g.Vertices), len(g.Edges), g.OrderEdges())
			return nil
		},
	}
	addDataFlags(cmd.Flags())
	return cmd
}

func newGraphCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "graph SOURCE...",
		Short: "Print the dependency graph in Graphviz DOT",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			g, err := load(cmd, files)
			if err != nil {
				return err
			}
			return g.WriteDOT(cmd.OutOrStdout())
		},
	}
	addDataFlags(cmd.Flags())
	return cmd
}

// load compiles the manifests (paths, obj:// or https:// bundles), with
// the child manifests that exist (compile).
func load(cmd *cobra.Command, args []string) (*graph.Graph, error) {
	g, _, err := compile(cmd, args, graph.ChildrenAtLoad)
	return g, err
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
