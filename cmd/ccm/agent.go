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
		unsupported, err := c.Apply(cmd.Flags())
		for _, name := range unsupported {
			fmt.Fprintf(cmd.ErrOrStderr(), "ccm: the agent setting for --%s is not supported by this ccm; ignored\n", name)
		}
		if err != nil {
			return usage(err)
		}
		return run(cmd, c.Manifests)
	}
	return cmd
}
