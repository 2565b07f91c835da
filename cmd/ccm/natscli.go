package main

import (
	"context"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// addNATSFlags registers --context and --timeout (default d) of an
// operator's command.
func addNATSFlags(fl *pflag.FlagSet, timeout *time.Duration, d time.Duration) {
	fl.String("context", "", "NATS context (default $NATS_CONTEXT; else $NATS_URL; else the context CCM)")
	fl.DurationVar(timeout, "timeout", d, "give up after this long")
}

// onNATS runs f once against NATS for an operator's command: the server is
// dialled without retrying, so a refused login or a server that is not
// there is an error at once, and so is a refused permission (natsconn.Run).
// Failures exit 1; f's usage errors keep their code.
func onNATS(cmd *cobra.Command, timeout time.Duration, f func(context.Context, *natsconn.Conn) error) error {
	log, err := setupLogging(cmd)
	if err != nil {
		return err
	}
	name, _ := cmd.Flags().GetString("context")
	s := natsconn.FromEnv(name)
	s.Name, s.FailFast = "ccm "+cmd.Name(), true
	c, err := natsconn.Dial(s, log)
	if err != nil {
		return &exitError{code: exitFailed, err: err}
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
	defer cancel()
	err = c.Run(ctx, func(ctx context.Context) error { return f(ctx, c) })
	if _, ok := err.(*exitError); err != nil && !ok {
		err = &exitError{code: exitFailed, err: err}
	}
	return err
}
