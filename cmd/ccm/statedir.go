package main

import (
	"fmt"
	"log/slog"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/spf13/pflag"
)

// addStateFlag adds --state-dir to fl.
func addStateFlag(fl *pflag.FlagSet, dir *string) {
	fl.StringVar(dir, "state-dir", "", "directory for what must survive a restart, such as pending refreshes (default $"+state.PathEnv+", else "+state.DefaultPath+")")
}

// openState opens the state directory and names this run's graph in it
// (state.OpenNamed): read only in noop; without an explicit --state-dir,
// an unusable default is a warning, not an error.
func openState(log *slog.Logger, flag string, noop bool, files []string) (*state.Dir, string, error) {
	d, unusable, err := state.OpenNamed(flag, noop)
	switch {
	case err != nil:
		return nil, "", usage(fmt.Errorf("--state-dir: %w", err))
	case unusable != nil:
		log.Warn("no state directory; pending refreshes will not survive a restart (set --state-dir)", "error", unusable)
	case d != nil:
		return d, state.GraphKey(files...), nil
	}
	return nil, "", nil
}
