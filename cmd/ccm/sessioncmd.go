package main

import (
	"errors"
	"fmt"

	"github.com/reactive-ccm/ccm/engine/daemon/session"
	"github.com/spf13/cobra"
)

// newSessionCmd manages the session stores `ccm ensure` records in.
func newSessionCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "session", Short: "Manage the session stores that let `ccm ensure` calls refer to each other"}
	var dir string
	create := &cobra.Command{
		Use:     "new",
		Aliases: []string{"start", "create"},
		Short:   "Create a session store and print the export line that selects it: eval \"$(ccm session new)\"",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := session.Create(dir)
			if err != nil {
				return failure(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "export %s=%s\n", session.Env, s.Dir())
			return nil
		},
	}
	create.Flags().StringVar(&dir, "directory", "", "create the store in this directory (created when missing; it must be empty) instead of a new temporary one")
	var remove bool
	report := &cobra.Command{
		Use:   "report",
		Short: "Sum up what the session's ensure calls did",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return reportSession(cmd, remove)
		},
	}
	report.Flags().String("session", "", "session store directory (default $"+session.Env+")")
	report.Flags().BoolVar(&remove, "remove", false, "remove the session store afterwards (only event files are removed; a directory holding anything else stays)")
	return groupOf(cmd, create, report)
}

func reportSession(cmd *cobra.Command, remove bool) error {
	dir := session.Named(flagOf(cmd.Flags().GetString, "session"))
	if dir == "" {
		return usage(errors.New("no session store: give --session DIR or set " + session.Env))
	}
	s, err := session.Open(dir)
	if err != nil {
		return usage(err)
	}
	es, err := s.Events()
	if err != nil {
		return failure(err)
	}
	session.Summarize(es).Write(cmd.OutOrStdout())
	if remove {
		if err := s.Remove(); err != nil {
			return failure(err)
		}
	}
	return nil
}
