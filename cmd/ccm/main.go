// Command ccm converges a host to the state CCM manifests describe, once or
// continuously (--watch). This package holds only the command line: flags,
// signals and output; the engine and the graph do the work.
package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/reactive-ccm/ccm/internal/buildinfo"
	"github.com/reactive-ccm/ccm/internal/memory"
	"github.com/reactive-ccm/ccm/internal/ownership"
	"github.com/reactive-ccm/ccm/internal/structflag"
	"github.com/reactive-ccm/ccm/internal/termsafe"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	_ "github.com/reactive-ccm/ccm/resources/all"
)

// Exit codes: 0 when every resource is in its desired state, 1 when any
// failed or was blocked, 2 for unusable input.
const (
	exitOK      = 0
	exitFailed  = 1
	exitBadArgs = 2
)

// exitError carries an exit code out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

// stdout and stderr are where every command prints, with the control
// characters of the data it prints escaped (termsafe).
var stdout, stderr = termsafe.NewWriter(os.Stdout), termsafe.NewWriter(os.Stderr)

// usage marks err as unusable input (exit 2).
func usage(err error) error { return &exitError{code: exitBadArgs, err: err} }

func main() {
	// A reader of stdout that goes away (ccm run | head, a dead journal
	// pipe) must not kill the daemon: writes then fail with EPIPE, and
	// the printer drops events (see dropWriter).
	signal.Ignore(syscall.SIGPIPE)
	memory.Start()
	root := newRoot(os.Args[1:])
	err := root.Execute()
	if err == nil {
		return
	}
	// A one-shot command whose reader left (ccm schema manifest | head)
	// has nothing to say to it.
	if errors.Is(err, syscall.EPIPE) {
		os.Exit(exitFailed)
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "ccm:", ee.err)
		}
		os.Exit(ee.code)
	}
	// Anything cobra reports itself (unknown flags, wrong arguments) is
	// unusable input.
	fmt.Fprintln(stderr, "ccm:", err)
	os.Exit(exitBadArgs)
}

// newRoot builds the command line that runs args. The subcommands of
// `ccm ensure` are built only when args may reach them (addEnsureTypes).
func newRoot(args []string) *cobra.Command {
	root := &cobra.Command{
		Use:           "ccm",
		Short:         "Converge a host to the state CCM manifests describe, once or continuously",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.Version = buildinfo.Line()
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.PersistentFlags().String("log-level", "info", "log level on stderr: debug, info, warn or error")
	root.PersistentFlags().Bool("debug", false, "same as --log-level debug (upstream CCM's flag)")
	root.PersistentFlags().Bool("info", false, "same as --log-level info (upstream CCM's flag)")
	root.PersistentFlags().Bool(ownership.Flag, false, "use manifests, configuration, data, session stores and state directories that a user other than root (or ccm's user) owns or may write, with a warning, instead of refusing them")
	root.PersistentPreRun = allowUnsafeOwnership
	ensure := newEnsureCmd()
	root.AddCommand(newRunCmd(), newValidateCmd(), newGraphCmd(), newApplyCmd(), newFactsCmd(), newSchemaCmd(), newBundleCmd(), newFleetCmd(), newRolloutCmd(), newAgentCmd(),
		ensure, newSessionCmd(), newHieraCmd(), newRegistrationCmd())
	root.AddCommand(newControlCmds()...)
	if man := newManPagesCmd(); man != nil {
		root.AddCommand(man)
	}
	if reaches(root, ensure, args) {
		addEnsureTypes(ensure)
	}
	return root
}

// reaches reports whether args may run cmd or one of its subcommands, or
// ask about them: unless they name another command of root, as cobra
// finds it. Help, completion and mistyped commands reach every command.
func reaches(root, cmd *cobra.Command, args []string) bool {
	found, _, err := root.Find(args)
	if err != nil || found == root {
		return true
	}
	for c := found; c != nil; c = c.Parent() {
		if c == cmd {
			return true
		}
	}
	return false
}

// groupOf makes cmd a group of subcommands: without one, or with an
// unknown one, it is unusable input.
func groupOf(cmd *cobra.Command, subs ...*cobra.Command) *cobra.Command {
	cmd.AddCommand(subs...)
	cmd.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return fmt.Errorf("unknown command %q for %q; its commands: %s", args[0], cmd.CommandPath(), subcommands(cmd))
		}
		return nil
	}
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return usage(fmt.Errorf("%s needs a subcommand: %s", cmd.CommandPath(), subcommands(cmd)))
	}
	return cmd
}

// subcommands lists cmd's commands a user may call.
func subcommands(cmd *cobra.Command) string {
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return strings.Join(names, ", ")
}

// bind registers the flags the tagged fields of the struct f points to
// declare (structflag). A bad declaration is a programming error, which
// every test that builds the command line finds.
func bind(fl *pflag.FlagSet, f any) {
	if err := structflag.Bind(fl, f); err != nil {
		panic(err)
	}
}

// allowUnsafeOwnership turns the ownership rule's refusals into warnings
// for the whole process when --allow-unsafe-ownership is given.
func allowUnsafeOwnership(cmd *cobra.Command, _ []string) {
	if on, _ := cmd.Flags().GetBool(ownership.Flag); on {
		ownership.Allow(func(e *ownership.UnsafeError) {
			slog.Warn("unsafe ownership, used anyway (--"+ownership.Flag+")", "path", e.Path, "because", e.Reason())
		})
	}
}
