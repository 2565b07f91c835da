package service

import (
	"time"

	"context"
	"errors"
	"fmt"
	"os"

	"github.com/reactive-ccm/ccm/resources"
	sdwatch "github.com/reactive-ccm/ccm/watchers/systemd"
)

func init() {
	resources.Register(resources.Type{Name: "service", Subscribes: true, New: build, Props: props{}, Inspect: inspect, Aliases: []string{"svc"},
		Help: "Keep a systemd unit running or stopped, enabled or disabled", NameHelp: "the unit's name (NAME means NAME.service)",
		Timeout: 5 * time.Minute})
}

var providers = []resources.Provider{{Name: "systemd", Priority: 1, Usable: systemdUsable}}

// systemdUsable accepts hosts booted with systemd, and any process told
// where a system bus is (containers, tests).
func systemdUsable() error {
	if os.Getenv("DBUS_SYSTEM_BUS_ADDRESS") != "" {
		return nil
	}
	if fi, err := os.Lstat("/run/systemd/system"); err == nil && fi.IsDir() {
		return nil
	}
	return errors.New("systemd is not running (no /run/systemd/system) and DBUS_SYSTEM_BUS_ADDRESS is not set")
}

// Service is one unit kept in its desired state.
type Service struct {
	unit   string
	ensure string
	enable *bool
	hub    *sdwatch.Hub
}

var _ resources.Resource = (*Service)(nil)

func build(spec *resources.Spec) (resources.Instance, error) {
	p, errs := resources.DecodeProps[props](spec)
	p.validate(spec, errs)
	provider, err := resources.SelectProvider(p.Provider, providers)
	if err != nil && !errors.Is(err, resources.ErrNoSuitableProvider) {
		errs.Addf(spec.KeyPos("provider"), "%s: provider: %v", spec.ID(), err)
	}
	if err := errs.Err(); err != nil {
		return resources.Instance{}, err
	}
	inst := resources.Instance{Provider: provider, Ensure: p.Ensure}
	if err != nil {
		// Known but not usable here: the manifest is fine, the run fails.
		inst.Resource = resources.Unusable(err)
		return inst, nil
	}
	inst.Resource = &Service{unit: unitName(spec.Name), ensure: p.Ensure, enable: p.Enable, hub: sdwatch.Default()}
	return inst, nil
}

// Watch asks the systemd hub for the unit's changes.
func (s *Service) Watch() resources.WatchSpec {
	return resources.WatchSpec{Units: []string{s.unit}}
}

// Check reads the unit's state over D-Bus; it changes nothing.
func (s *Service) Check(ctx context.Context) (resources.Status, error) {
	st, err := s.read(ctx)
	if err != nil {
		return resources.Status{}, err
	}
	return s.status(st)
}

func (s *Service) read(ctx context.Context) (unitState, error) {
	conn, err := s.hub.Conn(ctx)
	if err != nil {
		return unitState{}, err
	}
	return readState(ctx, conn, s.unit)
}

// status compares the observed state with the desired one.
func (s *Service) status(st unitState) (resources.Status, error) {
	out := resources.Status{Ensure: stopped}
	if st.Running {
		out.Ensure = running
	}
	if out.Ensure != s.ensure {
		out.Differences = append(out.Differences, resources.Difference{
			Property: "ensure", Observed: out.Ensure, Desired: s.ensure, Note: "ActiveState " + st.Active})
	}
	if s.enable != nil {
		if !st.EnabledKnown {
			return out, fmt.Errorf("%w: cannot tell whether %s is enabled (UnitFileState %q)", ErrUnexpectedState, s.unit, st.FileState)
		}
		if st.Enabled != *s.enable {
			out.Differences = append(out.Differences, resources.Difference{
				Property: "enable", Observed: enabledWord(st.Enabled), Desired: enabledWord(*s.enable), Note: "UnitFileState " + st.FileState})
		}
	}
	out.Desired = len(out.Differences) == 0
	return out, nil
}

func enabledWord(enabled bool) string {
	if enabled {
		return "enabled"
	}
	return "disabled"
}
