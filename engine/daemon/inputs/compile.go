package inputs

import (
	"context"

	"github.com/reactive-ccm/ccm/engine/daemon/reload"
	"github.com/reactive-ccm/ccm/graph"
)

// SourceError is a manifest argument that names no source ccm can use,
// or one that cannot be had.
type SourceError struct{ Err error }

func (e *SourceError) Error() string { return e.Err.Error() }
func (e *SourceError) Unwrap() error { return e.Err }

// Manifests maps manifest arguments (paths, obj://, https://) to local
// files: remote bundles are fetched, or read from the cache when their
// source is unreachable. Without Sources, the arguments are the files.
func (d Data) Manifests(args []string) ([]string, error) {
	if d.Sources == nil {
		return args, nil
	}
	paths := make([]string, len(args))
	for i, a := range args {
		p, err := d.Sources.Manifest(a)
		if err != nil {
			return nil, &SourceError{err}
		}
		paths[i] = p
	}
	return paths, nil
}

// Compile compiles the manifests args name with d's data, children read
// as given, and says what the graph was compiled from (Inputs).
func (d Data) Compile(ctx context.Context, args []string, children graph.ChildLoading) (*graph.Graph, reload.Inputs, error) {
	paths, err := d.Manifests(args)
	if err != nil {
		return nil, reload.Inputs{}, err
	}
	opts := graph.LazyOptions(func() (graph.Data, error) { return d.Load(ctx) })
	opts.Children = children
	g, err := graph.Load(paths, opts)
	if err != nil {
		return nil, reload.Inputs{}, err
	}
	return g, d.Inputs(paths, g), nil
}
