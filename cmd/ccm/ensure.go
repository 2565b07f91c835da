package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/reactive-ccm/ccm/engine/daemon/ensure"
	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/reactive-ccm/ccm/engine/daemon/inputs"
	"github.com/reactive-ccm/ccm/engine/daemon/session"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/propflag"
	"github.com/spf13/cobra"
)

// newEnsureCmd is upstream CCM's `ccm ensure TYPE NAME`: one resource,
// described by flags generated from its type's property declarations,
// converged by the engine as a manifest's would be.
func newEnsureCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ensure TYPE NAME [flags]",
		Short: "Converge one resource described on the command line",
		Long: "Converge one resource described on the command line, as if it were the only resource of a manifest.\n\n" +
			"In a session (ccm session new, or " + session.Env + "), each call records its event, so a later call's " +
			"--require and --subscribe see the earlier calls' outcomes.",
	}
	fl := cmd.PersistentFlags()
	fl.Bool("noop", false, "report what would change and change nothing")
	fl.String("session", "", "session store directory (default $"+session.Env+")")
	fl.StringArray("hiera", nil, "hiera data file for templates (default $"+inputs.HieraEnv+", else ./.hiera when it exists)")
	addReadEnvFlags(fl)
	addFactFlags(fl)
	addSourceFlags(fl)
	return groupOf(cmd, newEnsureAPICmd())
}

// addEnsureTypes adds `ccm ensure TYPE` for each type to ensure. They are
// added only when the command line may reach them (see newRoot): their
// flags, one per property of every type, cost as much to build as every
// other command together.
func addEnsureTypes(ensure *cobra.Command) {
	for _, name := range resources.TypeNames() {
		typ, _ := resources.Lookup(name)
		if !typ.ManifestOnly {
			ensure.AddCommand(newEnsureTypeCmd(typ))
		}
	}
}

// newEnsureTypeCmd is `ccm ensure TYPE`, its flags generated from the
// type's common and own properties.
func newEnsureTypeCmd(typ resources.Type) *cobra.Command {
	cmd := &cobra.Command{
		Short:   typ.Help,
		Aliases: typ.Aliases,
	}
	pf := propflag.New(cmd.Flags(), append(typ.CommonProperties(), typ.Properties()...))
	addEnsureRegistrationFlag(cmd.Flags())
	cmd.Use = typ.Name + " " + pf.Usage()
	cmd.Long = typ.Help + ".\n\nNAME is " + typ.NameHelp + "."
	cmd.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) < 1 || len(args) > 1+pf.Args() {
			return fmt.Errorf("usage: %s; got %d arguments", cmd.UseLine(), len(args))
		}
		return nil
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		props, err := pf.Node(args)
		if err != nil {
			return usage(err)
		}
		ev, err := ensureOne(cmd, typ.Name, props, "command line")
		if err != nil {
			return err
		}
		eventlog.WriteResult(cmd.OutOrStdout(), ev)
		if ensure.Failed(ev) {
			return &exitError{code: exitFailed}
		}
		return nil
	}
	return cmd
}

// hieraDefault is the data file `ccm ensure` reads when none is named.
const hieraDefault = ".hiera"

// defaultHiera makes ./.hiera the --hiera file when none is named and it
// exists, as upstream CCM does.
func defaultHiera(cmd *cobra.Command) error {
	if cmd.Flags().Changed("hiera") || os.Getenv(inputs.HieraEnv) != "" {
		return nil
	}
	if _, err := os.Stat(hieraDefault); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return cmd.Flags().Set("hiera", hieraDefault)
}
