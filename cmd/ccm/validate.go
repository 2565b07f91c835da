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

// load compiles the manifests (paths, obj:// or https:// bundles); any
// problem in them is unusable input (exit 2), with every problem listed.
func load(cmd *cobra.Command, args []string) (*graph.Graph, error) {
	files, err := manifestPaths(cmd, args)
	if err != nil {
		return nil, err
	}
	g, err := graph.Load(files, loadOptions(cmd))
	if err != nil {
		return nil, usage(err)
	}
	return g, nil
}
