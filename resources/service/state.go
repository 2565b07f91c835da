package service

import (
	"context"
	"fmt"

	sddbus "github.com/coreos/go-systemd/v22/dbus"
)

// unitState is what systemd reports about a unit.
type unitState struct {
	Running bool
	// Enabled is meaningful only when EnabledKnown is true.
	Enabled      bool
	EnabledKnown bool
	Active       string // ActiveState
	FileState    string // UnitFileState
	// NeedReload is true when the unit's file changed on disk since
	// systemd loaded it.
	NeedReload bool
}

// readState reads the unit's properties in one call.
func readState(ctx context.Context, conn *sddbus.Conn, unit string) (unitState, error) {
	props, err := conn.GetUnitPropertiesContext(ctx, unit)
	if err != nil {
		return unitState{}, fmt.Errorf("reading the state of %s: %w", unit, err)
	}
	str := func(k string) string { s, _ := props[k].(string); return s }
	if err := checkLoad(unit, str("LoadState"), props["LoadError"]); err != nil {
		return unitState{}, err
	}
	st := unitState{Active: str("ActiveState"), FileState: str("UnitFileState")}
	st.NeedReload, _ = props["NeedDaemonReload"].(bool)
	if st.Running, err = isRunning(unit, st.Active); err != nil {
		return unitState{}, err
	}
	st.Enabled, st.EnabledKnown = isEnabled(st.FileState)
	return st, nil
}

// checkLoad accepts loaded and masked units; a masked unit reads as
// disabled and refuses to start, which systemd reports when asked.
func checkLoad(unit, load string, loadErr any) error {
	switch load {
	case "loaded", "masked":
		return nil
	case "not-found":
		return fmt.Errorf("%w: systemd has no unit %s; install it or fix the name", ErrUnknownUnit, unit)
	}
	// LoadError is (error name, message), e.g. a syntax error in the file.
	if e, ok := loadErr.([]any); ok && len(e) == 2 && e[1] != "" {
		return fmt.Errorf("%w: %s could not be loaded (LoadState %s): %v", ErrUnexpectedState, unit, load, e[1])
	}
	return fmt.Errorf("%w: %s could not be loaded (LoadState %q)", ErrUnexpectedState, unit, load)
}

// isRunning maps ActiveState as CCM maps `systemctl is-active`: active
// is running; inactive, failed and activating are stopped. Transitions
// that a watcher sees on their way also map: reloading is still running,
// deactivating is already stopping (so ensure: running starts it again,
// and systemd queues the start behind the stop).
func isRunning(unit, active string) (bool, error) {
	switch active {
	case "active", "reloading":
		return true, nil
	case "inactive", "failed", "activating", "deactivating":
		return false, nil
	}
	return false, fmt.Errorf("%w: %s has ActiveState %q, which is neither running nor stopped", ErrUnexpectedState, unit, active)
}

// isEnabled maps UnitFileState as CCM maps `systemctl is-enabled`; ok is
// false for states that say neither (bad, or no unit file).
func isEnabled(fileState string) (enabled, ok bool) {
	switch fileState {
	case "enabled", "enabled-runtime", "alias", "static", "indirect", "generated", "transient":
		return true, true
	case "linked", "linked-runtime", "masked", "masked-runtime", "disabled":
		return false, true
	}
	return false, false
}
