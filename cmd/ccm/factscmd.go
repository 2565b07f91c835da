package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/graph/facts"
	"github.com/reactive-ccm/ccm/resources/template"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"
)

func newFactsCmd() *cobra.Command {
	var asYAML bool
	cmd := &cobra.Command{
		Use:   "facts [QUERY]",
		Short: "Print the facts templates see, or the one at QUERY (a path such as host.info.platformFamily)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := setupLogging(cmd); err != nil {
				return err
			}
			all, warn, err := facts.Gather(cmd.Context(), factOptions(cmd))
			if err != nil {
				return usage(err)
			}
			if warn != nil {
				cmd.PrintErrln("ccm: some facts could not be gathered:", warn)
			}
			out, err := query(all, strings.Join(args, ""), len(args) == 1, "no fact")
			if err != nil {
				return err
			}
			return printValue(cmd, out, asYAML)
		},
	}
	addFactFlags(cmd.Flags())
	cmd.Flags().BoolVar(&asYAML, "yaml", false, "print YAML instead of JSON")
	return cmd
}

// printValue writes v as indented JSON, or as YAML.
func printValue(cmd *cobra.Command, v any, asYAML bool) error {
	w := cmd.OutOrStdout()
	if asYAML {
		enc := yaml.NewEncoder(w)
		enc.SetIndent(2)
		if err := enc.Encode(v); err != nil {
			return err
		}
		return enc.Close()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// query is the value at path in v, all of v when no path is given; a
// path that holds nothing is a failure saying none ("no fact at …").
func query(v map[string]any, path string, given bool, none string) (any, error) {
	if !given {
		return v, nil
	}
	got, found, err := template.Path(v, path)
	if err != nil {
		return nil, usage(err)
	}
	if !found {
		return nil, failure(fmt.Errorf("%s at %q", none, path))
	}
	return got, nil
}
