package main

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/spf13/pflag"
)

// addStateFlag adds --state-dir to fl.
func addStateFlag(fl *pflag.FlagSet, dir *string) {
	fl.StringVar(dir, "state-dir", "", "directory for what must survive a restart, such as pending refreshes (default $"+state.PathEnv+", else "+state.DefaultPath+")")
}

// openState opens the state directory and names this run's graph in it.
// Without an explicit --state-dir an unusable default is a warning, not an
// error, so ccm still runs for users who cannot write /var/lib/ccm. In
// noop it is only read: a missing one is not created, and nothing in it
// is written, not even a mode or a leftover.
func openState(log *slog.Logger, flag string, noop bool, files []string) (*state.Dir, string, error) {
	path, explicit := statePath(flag)
	open := state.Open
	if noop {
		open = state.OpenReadOnly
	}
	d, err := open(path)
	switch {
	case noop && errors.Is(err, fs.ErrNotExist):
		return nil, "", nil
	case err != nil && explicit:
		return nil, "", usage(fmt.Errorf("--state-dir: %w", err))
	case err != nil:
		log.Warn("no state directory; pending refreshes will not survive a restart (set --state-dir)", "error", err)
		return nil, "", nil
	}
	return d, state.GraphKey(files...), nil
}

// statePath is the state directory --state-dir names (flag), else
// $CCM_STATE_DIR's, else the default; explicit is set when one was named.
func statePath(flag string) (path string, explicit bool) { return state.Resolve(flag) }
