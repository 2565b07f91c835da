package sysctl

import (
	"context"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/internal/textfile"
)

// metadata is what `ccm status sysctl KEY` shows.
type metadata struct {
	Key   string `json:"key" yaml:"key"`
	Value string `json:"value" yaml:"value"`
	Path  string `json:"path" yaml:"path"`
	// Persisted is what ccm's drop-in for the key sets, if there is one.
	Persisted string `json:"persisted,omitempty" yaml:"persisted,omitempty"`
	Provider  string `json:"provider" yaml:"provider"`
}

// inspect reads the parameter name and ccm's drop-in for it.
func inspect(_ context.Context, name string) (any, error) {
	if err := checkKey(name); err != nil {
		return nil, err
	}
	v, err := read(name)
	if err != nil {
		return nil, err
	}
	md := metadata{Key: name, Value: v, Path: procPath(name), Provider: providers[0].Name}
	f, err := textfile.Read(safepath.Policy{}, dropIn(name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if f.Exists {
		md.Persisted = dropIn(name) + ": " + persistedValue(f.Content, name)
	}
	return md, nil
}
