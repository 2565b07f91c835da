package service

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sddbus "github.com/coreos/go-systemd/v22/dbus"
	"github.com/reactive-ccm/ccm/resources"
)

// action is what the running phase does to the unit.
type action int

const (
	none action = iota
	start
	stop
	restart
)

var noopMessages = map[action]string{start: "Would have started", stop: "Would have stopped", restart: "Would have restarted"}

// decide is the CCM decision table for the running phase. A refresh
// restarts a running service and starts a stopped one when ensure is
// running, and is ignored when ensure is stopped.
func decide(ensure string, isRunning, refresh bool) action {
	switch {
	case ensure == stopped && isRunning:
		return stop
	case ensure == running && !isRunning:
		return start
	case ensure == running && refresh:
		return restart
	}
	return none
}

// Apply converges the running state, then the enabled state, reading the
// unit's state afresh. In noop it only describes what it would do.
func (s *Service) Apply(ctx context.Context, req resources.Request) (resources.Change, error) {
	st, err := s.read(ctx)
	if err != nil {
		return resources.Change{}, err
	}
	act := decide(s.ensure, st.Running, req.Refresh)
	setEnable := s.enable != nil && (!st.EnabledKnown || st.Enabled != *s.enable)
	change := resources.Change{
		Changed:   act != none || setEnable,
		Refreshed: req.Refresh && s.ensure == running && act != none,
	}
	if req.Noop {
		change.NoopMessage = noopMessage(act, setEnable, s.enable)
		return change, nil
	}
	conn, err := s.hub.Conn(ctx)
	if err != nil {
		return resources.Change{}, err
	}
	if act == start && st.Active == "deactivating" {
		if err := waitStopped(ctx, conn, s.unit); err != nil {
			return resources.Change{}, err
		}
	}
	if err := s.run(ctx, conn, act, st.NeedReload); err != nil {
		return resources.Change{}, err
	}
	if setEnable {
		if err := setEnabled(ctx, conn, s.unit, *s.enable); err != nil {
			return resources.Change{}, err
		}
	}
	return change, nil
}

// run carries out the running phase. A unit whose file changed on disk is
// reloaded first, so the job runs the unit as it is now written.
func (s *Service) run(ctx context.Context, conn *sddbus.Conn, act action, needReload bool) error {
	if act == none {
		return nil
	}
	if needReload {
		if err := reload(ctx, conn); err != nil {
			return err
		}
	}
	var err error
	switch act {
	case start:
		err = runJob(ctx, "starting", s.unit, conn.StartUnitContext)
	case stop:
		err = runJob(ctx, "stopping", s.unit, conn.StopUnitContext)
	default:
		err = runJob(ctx, "restarting", s.unit, conn.RestartUnitContext)
	}
	return explain(ctx, conn, s.unit, err)
}

// explain adds the unit's Result (exit-code, timeout, start-limit-hit...)
// to a failed job's error: "failed" alone does not say what to fix.
func explain(ctx context.Context, conn *sddbus.Conn, unit string, err error) error {
	if !errors.Is(err, ErrJobFailed) {
		return err
	}
	kind := unit[strings.LastIndexByte(unit, '.')+1:]
	p, perr := conn.GetUnitTypePropertyContext(ctx, unit, strings.ToUpper(kind[:1])+kind[1:], "Result")
	if perr != nil {
		return err
	}
	return fmt.Errorf("%w (Result %v)", err, p.Value.Value())
}

func noopMessage(act action, setEnable bool, enable *bool) string {
	var msgs []string
	if act != none {
		msgs = append(msgs, noopMessages[act])
	}
	if setEnable && *enable {
		msgs = append(msgs, "Would have enabled")
	} else if setEnable {
		msgs = append(msgs, "Would have disabled")
	}
	return strings.Join(msgs, "; ")
}
