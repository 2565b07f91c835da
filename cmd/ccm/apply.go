package main

import "github.com/spf13/cobra"

// newApplyCmd is upstream CCM's one-shot `ccm apply FILE`, so existing
// invocations keep working. Unlike upstream it exits 1 when a resource
// failed.
func newApplyCmd() *cobra.Command {
	var noop, render, report, noReport, monitorOnly bool
	var f runFlags
	var stateDir string
	cmd := &cobra.Command{
		Use:   "apply [flags] FILE",
		Short: "Converge the host to one manifest once, as upstream CCM's apply does",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if render {
				return renderManifest(cmd, args[0])
			}
			f.noop, f.daemon.PollInterval, f.noReport, f.monitorOnly, f.stateDir = noop, defaultPoll, noReport || !report, monitorOnly, stateDir
			return runManifests(cmd, args, f)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&noop, "noop", false, "report what would change and change nothing")
	fl.BoolVar(&render, "render", false, "print the manifest resolved against the facts and data, and change nothing")
	fl.BoolVar(&monitorOnly, "monitor-only", false, "run only the health checks: check and change nothing else")
	fl.BoolVar(&report, "report", true, "print the run summary")
	fl.BoolVar(&noReport, "no-report", false, "do not print the run summary")
	addReadEnvFlags(fl)
	addOutputFlags(fl, &f)
	addStateFlag(fl, &stateDir)
	addDataFlags(fl)
	addRegistrationFlag(fl, true)
	return cmd
}
