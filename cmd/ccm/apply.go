package main

import "github.com/spf13/cobra"

// newApplyCmd is upstream CCM's one-shot `ccm apply FILE`, so existing
// invocations keep working. Unlike upstream it exits 1 when a resource
// failed.
func newApplyCmd() *cobra.Command {
	f := runFlags{PollInterval: defaultPoll}
	var a struct {
		Render   bool `flag:"render" help:"print the manifest resolved against the facts and data, and change nothing"`
		Report   bool `flag:"report,default=true" help:"print the run summary"`
		NoReport bool `flag:"no-report" help:"do not print the run summary"`
	}
	cmd := &cobra.Command{
		Use:   "apply [flags] FILE",
		Short: "Converge the host to one manifest once, as upstream CCM's apply does",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.Render {
				return renderManifest(cmd, args[0])
			}
			f.noReport = a.NoReport || !a.Report
			return runManifests(cmd, args, f)
		},
	}
	fl := cmd.Flags()
	bind(fl, &f.changeFlags)
	bind(fl, &a)
	addReadEnvFlags(fl)
	addDataFlags(fl)
	addRegistrationFlag(fl)
	return cmd
}
