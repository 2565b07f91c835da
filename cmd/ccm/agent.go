package main

import (
	"fmt"

	"github.com/reactive-ccm/ccm/engine/fleet/agent"
	"github.com/spf13/cobra"
)

// newAgentCmd is upstream CCM's `ccm agent --config FILE`: the watch
// engine run on upstream's agent configuration. It is `ccm run --watch`
// with the file's settings as defaults, so every run flag works here too
// and wins over the file.
func newAgentCmd() *cobra.Command {
	cmd := newRunCmd()
	run := cmd.RunE
	var config string
	cmd.Use = "agent [--config FILE] [flags]"
	cmd.Short = "Run continuously on upstream CCM's agent configuration (" + agent.DefaultPath + ")"
	cmd.Args = cobra.NoArgs
	cmd.Flags().StringVar(&config, "config", agent.DefaultPath, "upstream CCM's agent configuration file ("+agent.LegacyPath+" when only that exists)")
	// The agent always watches.
	_ = cmd.Flags().MarkHidden("watch")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if !cmd.Flags().Changed("config") {
			var legacy bool
			if config, legacy = agent.Locate(agent.DefaultPath, agent.LegacyPath); legacy {
				fmt.Fprintf(cmd.ErrOrStderr(), "ccm: reading %s: %s does not exist; upstream's packaged unit reads %s, move the file there\n",
					agent.LegacyPath, agent.DefaultPath, agent.DefaultPath)
			}
		}
		c, err := agent.Read(config)
		if err != nil {
			return usage(err)
		}
		if err := applyAgentConfig(cmd, c); err != nil {
			return err
		}
		return run(cmd, c.Manifests)
	}
	return cmd
}

// applyAgentConfig sets the flags the configuration speaks for, unless
// they were given on the command line.
func applyAgentConfig(cmd *cobra.Command, c *agent.Config) error {
	for name, v := range c.Flags() {
		fl := cmd.Flags().Lookup(name)
		switch {
		case fl != nil && fl.Changed:
		case fl == nil:
			fmt.Fprintf(cmd.ErrOrStderr(), "ccm: the agent setting for --%s is not supported by this ccm; ignored\n", name)
		default:
			if err := cmd.Flags().Set(name, v); err != nil {
				return usage(fmt.Errorf("%s: %w", name, err))
			}
		}
	}
	return nil
}
