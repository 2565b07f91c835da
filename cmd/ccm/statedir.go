package main

import (
	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/spf13/pflag"
)

// addStateFlag adds --state-dir to fl.
func addStateFlag(fl *pflag.FlagSet, dir *string) {
	fl.StringVar(dir, "state-dir", "", "directory for what must survive a restart, such as pending refreshes (default $"+state.PathEnv+", else "+state.DefaultPath+")")
}
