package pkg

import (
	"context"
	"fmt"

	"github.com/reactive-ccm/ccm/resources"
)

// metadata is what `ccm status package NAME` shows: upstream's package
// metadata, plus ensure as a check reports it (the version, or absent).
type metadata struct {
	Name     string `json:"name" yaml:"name"`
	Ensure   string `json:"ensure" yaml:"ensure"`
	Version  string `json:"version" yaml:"version"`
	Provider string `json:"provider" yaml:"provider"`
}

// inspect asks the host's package manager which version of name is
// installed.
func inspect(ctx context.Context, name string) (any, error) {
	if !nameRE.MatchString(name) {
		return nil, fmt.Errorf("package name %q may hold only letters, digits and . _ + : ~ - and must start with a letter or digit", name)
	}
	provider, err := resources.SelectProvider("", descriptors())
	if err != nil {
		return nil, err
	}
	defer lock(false)()
	version, err := managerNamed(provider).Status(ctx, name)
	if err != nil {
		return nil, err
	}
	return metadata{Name: name, Ensure: ensureOf(version), Version: version, Provider: provider}, nil
}
