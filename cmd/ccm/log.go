package main

import (
	"fmt"
	"log/slog"

	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/spf13/cobra"
)

// setupLogging sends logs to stderr at the requested level, in the style
// of the event lines: "15:04:05.000 warn      message key=value". Under
// journald (JOURNAL_STREAM set) the time is left out, since the journal
// stamps every line, and each line starts with its priority.
func setupLogging(cmd *cobra.Command) (*slog.Logger, error) {
	name, err := levelName(cmd)
	if err != nil {
		return nil, err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(name)); err != nil {
		return nil, usage(fmt.Errorf("--log-level %q: want debug, info, warn or error", name))
	}
	log := slog.New(eventlog.NewLogHandler(stderr, level, eventlog.UnderJournal()))
	slog.SetDefault(log)
	return log, nil
}

// levelName is --log-level, or the level upstream's --debug or --info
// names; naming two different levels is an error.
func levelName(cmd *cobra.Command) (string, error) {
	name, _ := cmd.Flags().GetString("log-level")
	for _, alias := range []string{"debug", "info"} {
		if on, _ := cmd.Flags().GetBool(alias); !on || name == alias {
			continue
		}
		if cmd.Flags().Changed("log-level") {
			return "", usage(fmt.Errorf("--%s and --log-level %s name different levels", alias, name))
		}
		name = alias
		if alias == "debug" {
			break
		}
	}
	return name, nil
}
