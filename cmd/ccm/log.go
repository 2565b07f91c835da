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
	name, _ := cmd.Flags().GetString("log-level")
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
