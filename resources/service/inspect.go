package service

import (
	"context"

	sdwatch "github.com/reactive-ccm/ccm/watchers/systemd"
)

// metadata is what `ccm status service NAME` shows: upstream's service
// metadata, plus the unit and ensure as a check reports it.
type metadata struct {
	Name     string `json:"name" yaml:"name"`
	Unit     string `json:"unit" yaml:"unit"`
	Ensure   string `json:"ensure" yaml:"ensure"`
	Provider string `json:"provider" yaml:"provider"`
	Enabled  bool   `json:"enabled" yaml:"enabled"`
	Running  bool   `json:"running" yaml:"running"`
}

// inspect reads the unit's state from systemd over D-Bus.
func inspect(ctx context.Context, name string) (any, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if err := systemdUsable(); err != nil {
		return nil, err
	}
	s := &Service{unit: unitName(name), hub: sdwatch.Default()}
	st, err := s.read(ctx)
	if err != nil {
		return nil, err
	}
	md := metadata{Name: name, Unit: s.unit, Ensure: stopped, Provider: providers[0].Name, Enabled: st.Enabled, Running: st.Running}
	if st.Running {
		md.Ensure = running
	}
	return md, nil
}
