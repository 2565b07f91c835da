package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/graph/facts"
	"github.com/reactive-ccm/ccm/graph/hiera"
	"github.com/spf13/cobra"
)

// hieraInputEnv names the input of `ccm hiera parse` when none is given.
const hieraInputEnv = "HIERA_INPUT"

// hieraFlags are the flags of `ccm hiera`, as upstream CCM's.
type hieraFlags struct {
	factsFile string
	envFacts  bool
	// sysFacts includes the host's facts; upstream always does, and its
	// docs name -S for it.
	sysFacts  bool
	query     string
	asYAML    bool
	asEnv     bool
	envPrefix string
	data      []string
	dataFile  string
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
	addHieraFactFlags(fl.StringVar, fl.BoolVarP, &f)
	fl.StringVar(&f.query, "query", "", "print only the value at this path (such as web.port)")
	fl.BoolVar(&f.asYAML, "yaml", false, "print YAML instead of JSON")
	fl.BoolVar(&f.asEnv, "env", false, "print PREFIX_KEY=VALUE lines, one per top-level key")
	fl.StringVar(&f.envPrefix, "env-prefix", "HIERA", "the prefix of --env's variable names")
	fl.StringArrayVarP(&f.data, "data", "D", nil, "set a data value over the result, KEY=VALUE (a dotted KEY nests)")
	fl.StringVar(&f.dataFile, "data-file", "", "merge this JSON or YAML map over the result")
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
	addHieraFactFlags(factsCmd.Flags().StringVar, factsCmd.Flags().BoolVarP, &ff)
	factsCmd.Flags().StringVar(&ff.query, "query", "", "print only the fact at this path")
	return groupOf(&cobra.Command{Use: "hiera", Short: "Resolve hierarchical data as manifests do"}, parse, factsCmd)
}

func addHieraFactFlags(str func(*string, string, string, string), boolP func(*bool, string, string, bool, string), f *hieraFlags) {
	str(&f.factsFile, "facts", "", "JSON or YAML file of facts, merged over the host's")
	boolP(&f.envFacts, "env-facts", "E", false, "the environment's variables as facts")
	boolP(&f.sysFacts, "system-facts", "S", true, "the host's facts (--system-facts=false leaves them out)")
}

// hieraFacts are the host's facts, then the environment's variables
// (-E), the --facts file, and the FACT=VALUE arguments, each over the
// ones before.
func hieraFacts(cmd *cobra.Command, args []string, f hieraFlags) (map[string]any, error) {
	if _, err := setupLogging(cmd); err != nil {
		return nil, err
	}
	var sys map[string]any
	if f.sysFacts {
		var warn error
		if sys, warn = sysFacts.System(cmd.Context()); warn != nil {
			cmd.PrintErrln("ccm: some facts could not be gathered:", warn)
		}
	}
	var env map[string]string
	if f.envFacts {
		env, _ = graph.Environ(false)
	}
	out, err := facts.Layered(sys, env, f.factsFile, args)
	if err != nil {
		return nil, usage(err)
	}
	return out, nil
}

func hieraParse(cmd *cobra.Command, args []string, f hieraFlags) error {
	input := os.Getenv(hieraInputEnv)
	if len(args) > 0 && !strings.Contains(args[0], "=") {
		input, args = args[0], args[1:]
	}
	if input == "" {
		return usage(errors.New("no input: give a hiera file (or set " + hieraInputEnv + ")"))
	}
	src, err := hieraInput(cmd, input)
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
	data, err := facts.ResolveHiera(src, all, env, f.dataFile, f.data)
	if err != nil {
		return usage(err)
	}
	return printQuery(cmd, data, f)
}

// hieraInput reads `ccm hiera parse`'s input: a hiera document from a
// file or a remote source (kv://, https://), or a manifest's data
// sections.
func hieraInput(cmd *cobra.Command, input string) (hiera.Source, error) {
	if !strings.Contains(input, "://") {
		if src, ok, err := graph.ManifestData(input); ok || err != nil {
			return src, err
		}
	}
	r, err := remoteOf(cmd)
	if err != nil {
		return hiera.Source{}, err
	}
	return readHiera(r, input)
}

// printQuery prints v, or the value at --query, as JSON, YAML or
// environment lines.
func printQuery(cmd *cobra.Command, v map[string]any, f hieraFlags) error {
	out, err := query(v, f.query, f.query != "", "nothing")
	if err != nil {
		return err
	}
	if str, ok := out.(string); ok && f.raw {
		_, err := fmt.Fprintln(cmd.OutOrStdout(), str)
		return err
	}
	if f.asEnv {
		lines, err := hiera.Env(out, f.envPrefix)
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
	return printValue(cmd, out, f.asYAML)
}
