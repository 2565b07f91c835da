package main

import (
	"log/slog"

	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/spf13/cobra"
)

// setupLogging sends logs to stderr at the requested level, in the style
// of the event lines: "15:04:05.000 warn      message key=value". Under
// journald (JOURNAL_STREAM set) the time is left out, since the journal
// stamps every line, and each line starts with its priority.
func setupLogging(cmd *cobra.Command) (*slog.Logger, error) {
	fl := cmd.Flags()
	level, err := eventlog.Level(flagOf(fl.GetString, "log-level"), fl.Changed("log-level"), flagOf(fl.GetBool, "debug"), flagOf(fl.GetBool, "info"))
	if err != nil {
		return nil, usage(err)
	}
	log := slog.New(eventlog.NewLogHandler(stderr, level, eventlog.UnderJournal()))
	slog.SetDefault(log)
	return log, nil
}
