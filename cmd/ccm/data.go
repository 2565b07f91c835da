package main

import (
	"github.com/reactive-ccm/ccm/engine/daemon/inputs"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/graph/facts"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// addFactFlags registers --fact and --facts.
func addFactFlags(fl *pflag.FlagSet) {
	fl.StringArray("fact", nil, "set a fact, KEY=VALUE (a dotted KEY sets a nested fact); wins over every other source")
	fl.StringArray("facts", nil, "merge facts from a JSON or YAML file over the host's")
}

// addDataFlags registers the flags that feed templates: --fact, --facts
// and --hiera.
func addDataFlags(fl *pflag.FlagSet) {
	addFactFlags(fl)
	fl.StringArray("hiera", nil, "merge hiera data (data, hierarchy, overrides) from a file, kv://BUCKET/KEY or https:// over each manifest's data (default $"+inputs.HieraEnv+")")
	addSourceFlags(fl)
}

// addReadEnvFlags registers upstream's --[no-]read-env.
func addReadEnvFlags(fl *pflag.FlagSet) {
	fl.Bool("read-env", true, "add the variables of ./.env to the environment templates see")
	fl.Bool("no-read-env", false, "do not read ./.env")
}

// flagOf is the flag name of a command, read by get (cmd.Flags().GetBool,
// …): the zero value when the command does not define it.
func flagOf[T any](get func(string) (T, error), name string) T {
	v, _ := get(name)
	return v
}

func factOptions(cmd *cobra.Command) facts.Options {
	return facts.Options{Files: flagOf(cmd.Flags().GetStringArray, "facts"), Set: flagOf(cmd.Flags().GetStringArray, "fact")}
}

// sysFacts holds the host's facts, gathered once and kept until SIGHUP;
// overlays are re-read on every load.
var sysFacts facts.Cache

// loadOptions are the graph options the command line selects: templates
// over the host's facts (with --fact and --facts), the environment and
// each manifest's hiera data (with --hiera layers), and
// resources_jet_file, read once per load (graph.LazyOptions).
func loadOptions(cmd *cobra.Command) graph.Options {
	return graph.LazyOptions(func() (graph.Data, error) {
		d, err := dataOf(cmd)
		if err != nil {
			return graph.Data{}, err
		}
		return d.Load(cmd.Context())
	})
}

// dataOf is where the command's loads read their data, as its flags say.
func dataOf(cmd *cobra.Command) (inputs.Data, error) {
	r, err := remoteOf(cmd)
	if err != nil {
		return inputs.Data{}, err
	}
	reg, err := registryOf(cmd)
	if err != nil {
		return inputs.Data{}, err
	}
	return inputs.Data{Facts: factOptions(cmd), System: &sysFacts, Hiera: inputs.HieraFiles(flagOf(cmd.Flags().GetStringArray, "hiera")), Sources: r.sources, Registry: reg,
		ReadEnv: flagOf(cmd.Flags().GetBool, "read-env") && !flagOf(cmd.Flags().GetBool, "no-read-env")}, nil
}
