package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// contextHelp is the help of --context.
const contextHelp = "NATS context (default $NATS_CONTEXT; else $NATS_URL; else the context CCM)"

// addNATSFlags registers --context and --timeout (default d) of an
// operator's command.
func addNATSFlags(fl *pflag.FlagSet, timeout *time.Duration, d time.Duration) {
	fl.String("context", "", contextHelp)
	fl.DurationVar(timeout, "timeout", d, "give up after this long")
}

// natsSettings are the settings of the NATS context --context names, for
// a connection called name.
func natsSettings(cmd *cobra.Command, name string) natsconn.Settings {
	s := natsconn.FromEnv(flagOf(cmd.Flags().GetString, "context"))
	s.Name = name
	return s
}

// beforeExit gives publish, which hands NATS what a one-shot run leaves,
// at most 10 seconds, even once ctx has ended; a failure is logged as
// msg.
func beforeExit(ctx context.Context, log *slog.Logger, publish func(context.Context) error, msg string, attrs ...any) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := publish(ctx); err != nil {
		log.Warn(msg, append(attrs, "error", err)...)
	}
}

// natsCmd makes c an operator's command against NATS, with --context and
// --timeout (default d): run is called with the connection (onNATS).
func natsCmd(c *cobra.Command, d time.Duration, run func(context.Context, *cobra.Command, []string, *natsconn.Conn) error) *cobra.Command {
	var timeout time.Duration
	addNATSFlags(c.Flags(), &timeout, d)
	c.RunE = func(cmd *cobra.Command, args []string) error {
		return onNATS(cmd, timeout, func(ctx context.Context, conn *natsconn.Conn) error { return run(ctx, cmd, args, conn) })
	}
	return c
}

// onNATS runs f once against NATS for an operator's command
// (natsconn.Once). Failures exit 1; f's usage errors keep their code.
func onNATS(cmd *cobra.Command, timeout time.Duration, f func(context.Context, *natsconn.Conn) error) error {
	log, err := setupLogging(cmd)
	if err != nil {
		return err
	}
	err = natsconn.Once(cmd.Context(), natsSettings(cmd, "ccm "+cmd.Name()), log, timeout, f)
	if _, ok := err.(*exitError); err != nil && !ok {
		err = failure(err)
	}
	return err
}
