// Package inputs is what a load of the manifests reads besides them: the
// host's facts with their overlays, hiera layers, the environment, kv://
// data and registrations; and what a watching daemon watches to reload
// when they change.
package inputs

import (
	"context"
	"log/slog"
	"sync"

	"github.com/reactive-ccm/ccm/engine/daemon/reload"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/graph/facts"
	"github.com/reactive-ccm/ccm/graph/hiera"
	"github.com/reactive-ccm/ccm/resources/template"
)

// Data says where a load's data comes from.
type Data struct {
	// Facts are the overlays over the host's facts (--fact, --facts).
	Facts facts.Options
	// System holds the host's facts, gathered once; nil gathers them
	// at every load.
	System *facts.Cache
	// Hiera are the --hiera layers: files, kv://, https:// addresses.
	Hiera []string
	// ReadEnv adds ./.env's variables to the environment.
	ReadEnv bool
	// Sources fetch remote layers and answer kvGet(); nil reads layers
	// as files and leaves kvGet an error.
	Sources *source.Set
	// Registry answers registrations(); nil leaves it an error.
	Registry template.Registry
	Logger   *slog.Logger
}

// Load reads the data of one load: the overlays now, so a bad one is an
// error of this load whether or not a template needs the facts; the
// host's facts when a template first needs them.
func (d Data) Load(ctx context.Context) (graph.Data, error) {
	over, err := facts.ReadOverlays(d.Facts)
	if err != nil {
		return graph.Data{}, err
	}
	sys := d.System
	if sys == nil {
		sys = new(facts.Cache)
	}
	out := graph.Data{LoadFacts: sync.OnceValue(func() map[string]any {
		all, warn := sys.System(ctx)
		if warn != nil {
			d.logger().Warn("some facts could not be gathered; their sections are empty", "error", warn)
		}
		return over.Over(all)
	}), Registry: d.Registry}
	if d.Sources != nil {
		out.KV = d.Sources
	}
	for _, file := range d.Hiera {
		src, err := ReadLayer(d.Sources, file)
		if err != nil {
			return graph.Data{}, err
		}
		out.Layers = append(out.Layers, src)
	}
	out.Environ, err = graph.Environ(d.ReadEnv)
	return out, err
}

// ReadLayer reads a --hiera layer: a file, or remote data from s as
// fetched (or cached); without s, only a file.
func ReadLayer(s *source.Set, file string) (hiera.Source, error) {
	if s == nil {
		return hiera.ReadFile(file)
	}
	data, local, err := s.Data(file)
	switch {
	case err != nil:
		return hiera.Source{}, err
	case local != "":
		return hiera.ReadFile(local)
	}
	loc, _ := source.Parse(file, true)
	return hiera.Parse(loc.String(), data)
}

// Inputs is what g, compiled from manifests with d, was compiled from: a
// watching daemon reloads when their content changes. Besides the
// manifests, the local --hiera and --facts files, the facts overlay
// files, the facts.d directories (trees, whose files come and go) and
// the revisions of the remote sources.
func (d Data) Inputs(manifests []string, g *graph.Graph) reload.Inputs {
	files, trees := d.Facts.WatchPaths()
	files = append(files, source.LocalPaths(d.Hiera)...)
	in := reload.Inputs{Files: files, Trees: trees}
	if d.Sources != nil {
		in.Remote = d.Sources.Sum
	}
	return reload.CompiledFrom(manifests, g, in)
}

func (d Data) logger() *slog.Logger {
	if d.Logger != nil {
		return d.Logger
	}
	return slog.Default()
}
