package mount

import (
	"context"
	"fmt"
	"path/filepath"
)

// metadata is what `ccm status mount PATH` shows: the topmost mount at
// the point.
type metadata struct {
	Path     string `json:"path" yaml:"path"`
	Ensure   string `json:"ensure" yaml:"ensure"`
	Source   string `json:"source,omitempty" yaml:"source,omitempty"`
	FSType   string `json:"fstype,omitempty" yaml:"fstype,omitempty"`
	Device   string `json:"device,omitempty" yaml:"device,omitempty"`
	Options  string `json:"options,omitempty" yaml:"options,omitempty"`
	Super    string `json:"super_options,omitempty" yaml:"super_options,omitempty"`
	Provider string `json:"provider" yaml:"provider"`
}

// inspect reads the mount table for name, a mount point.
func inspect(_ context.Context, name string) (any, error) {
	if !filepath.IsAbs(name) {
		return nil, fmt.Errorf("%q is not an absolute path", name)
	}
	point := filepath.Clean(name)
	top, err := mounted(point)
	if err != nil {
		return nil, err
	}
	md := metadata{Path: point, Ensure: Unmounted, Provider: providers[0].Name}
	if top != nil {
		md.Ensure, md.Source, md.FSType, md.Device, md.Options, md.Super = Mounted, top.Source, top.FSType, top.Device, top.Options, top.Super
	}
	return md, nil
}
