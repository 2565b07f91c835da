package main

import (
	"fmt"

	"github.com/reactive-ccm/ccm/engine/daemon/inputs"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/graph/facts"
	"github.com/reactive-ccm/ccm/graph/hiera"
	"github.com/spf13/cobra"
)

// hieraFactFlags choose the facts `ccm hiera` resolves against.
type hieraFactFlags struct {
	FactsFile string `flag:"facts" help:"JSON or YAML file of facts, merged over the host's"`
	EnvFacts  bool   `flag:"env-facts,short=E" help:"the environment's variables as facts"`
	// SysFacts includes the host's facts; upstream always does, and its
	// docs name -S for it.
	SysFacts bool `flag:"system-facts,short=S,default=true" help:"the host's facts (--system-facts=false leaves them out)"`
}

// hieraFlags are the flags of `ccm hiera parse`, as upstream CCM's.
type hieraFlags struct {
	hieraFactFlags
	Query     string   `flag:"query" help:"print only the value at this path (such as web.port)"`
	AsYAML    bool     `flag:"yaml" help:"print YAML instead of JSON"`
	AsEnv     bool     `flag:"env" help:"print PREFIX_KEY=VALUE lines, one per top-level key"`
	EnvPrefix string   `flag:"env-prefix,default=HIERA" help:"the prefix of --env's variable names"`
	Data      []string `flag:"data,short=D" help:"set a data value over the result, KEY=VALUE (a dotted KEY nests)"`
	DataFile  string   `flag:"data-file" help:"merge this JSON or YAML map over the result"`
	// raw prints a queried string as it is, as upstream's hiera facts does.
	raw bool
}

// newHieraCmd is upstream's hiera tool: resolve a hiera document (or a
// manifest's data) against facts, or show the facts it would see.
func newHieraCmd() *cobra.Command {
	var f hieraFlags
	parse := &cobra.Command{
		Use:     "parse INPUT [FACT=VALUE...]",
		Aliases: []string{"resolve"},
		Short:   "Resolve a hiera file (data, hierarchy, overrides) or a manifest's data against facts; print the data",
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return hieraParse(cmd, args, f)
		},
	}
	fl := parse.Flags()
	bind(fl, &f)
	addSourceFlags(fl)
	// hiera prints what it reads and changes nothing on the host, so
	// kv:// data needs no opt-in here.
	unsignedData := fl.Lookup("allow-unsigned-data")
	unsignedData.DefValue = "true"
	_ = unsignedData.Value.Set("true")
	var ff hieraFlags
	factsCmd := &cobra.Command{
		Use:   "facts [FACT=VALUE...]",
		Short: "Print the facts hiera parse resolves against",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			all, err := hieraFacts(cmd, args, ff)
			if err != nil {
				return err
			}
			ff.raw = true
			return printQuery(cmd, all, ff)
		},
	}
	bind(factsCmd.Flags(), &ff.hieraFactFlags)
	factsCmd.Flags().StringVar(&ff.Query, "query", "", "print only the fact at this path")
	return groupOf(&cobra.Command{Use: "hiera", Short: "Resolve hierarchical data as manifests do"}, parse, factsCmd)
}

// hieraFacts are the facts `ccm hiera` resolves against (inputs.HieraFacts).
func hieraFacts(cmd *cobra.Command, args []string, f hieraFlags) (map[string]any, error) {
	if _, err := setupLogging(cmd); err != nil {
		return nil, err
	}
	system := &sysFacts
	if !f.SysFacts {
		system = nil
	}
	all, warn, err := inputs.HieraFacts(cmd.Context(), system, f.EnvFacts, f.FactsFile, args)
	if warn != nil {
		cmd.PrintErrln("ccm: some facts could not be gathered:", warn)
	}
	if err != nil {
		return nil, usage(err)
	}
	return all, nil
}

func hieraParse(cmd *cobra.Command, args []string, f hieraFlags) error {
	input, args, err := inputs.HieraInput(args)
	if err != nil {
		return usage(err)
	}
	src, err := inputs.ReadHiera(input, func() (*source.Set, error) {
		r, err := remoteOf(cmd)
		if err != nil {
			return nil, err
		}
		return r.sources, nil
	})
	if err != nil {
		return usage(err)
	}
	all, err := hieraFacts(cmd, args, f)
	if err != nil {
		return err
	}
	env, err := graph.Environ(false)
	if err != nil {
		return err
	}
	data, err := facts.ResolveHiera(src, all, env, f.DataFile, f.Data)
	if err != nil {
		return usage(err)
	}
	return printQuery(cmd, data, f)
}

// printQuery prints v, or the value at --query, as JSON, YAML or
// environment lines.
func printQuery(cmd *cobra.Command, v map[string]any, f hieraFlags) error {
	out, err := query(v, f.Query, f.Query != "", "nothing")
	if err != nil {
		return err
	}
	if str, ok := out.(string); ok && f.raw {
		_, err := fmt.Fprintln(cmd.OutOrStdout(), str)
		return err
	}
	if f.AsEnv {
		lines, err := hiera.Env(out, f.EnvPrefix)
		if err != nil {
			return err
		}
		for _, l := range lines {
			if _, err := fmt.Fprintln(cmd.OutOrStdout(), l); err != nil {
				return err
			}
		}
		return nil
	}
	return printValue(cmd, out, f.AsYAML)
}
