package main

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/spf13/cobra"
)

// setupLogging sends logs to stderr at the requested level. Under journald
// (JOURNAL_STREAM set) the time is left out: the journal stamps every line.
func setupLogging(cmd *cobra.Command) (*slog.Logger, error) {
	name, err := levelName(cmd)
	if err != nil {
		return nil, err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(name)); err != nil {
		return nil, usage(fmt.Errorf("--log-level %q: want debug, info, warn or error", name))
	}
	opts := &slog.HandlerOptions{Level: level}
	if os.Getenv("JOURNAL_STREAM") != "" {
		opts.ReplaceAttr = func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, opts))
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
