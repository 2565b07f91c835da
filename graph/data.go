package graph

import (
	"fmt"
	"sync"

	"github.com/reactive-ccm/ccm/graph/hiera"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/document"
	"github.com/reactive-ccm/ccm/resources/template"
	"go.yaml.in/yaml/v3"
)

// Data is what a manifest's templates see besides the manifest itself:
// the host's facts, the environment and extra hiera layers.
type Data struct {
	// Facts are the host's facts as plain maps (see package facts).
	Facts map[string]any
	// LoadFacts, when Facts is nil, returns the facts when a template
	// first needs them (see template.Env.LoadFacts).
	LoadFacts func() map[string]any
	// Environ is the environment templates see as environ.
	Environ map[string]string
	// Layers are extra hiera documents (--hiera FILE), deep-merged over
	// each manifest's own data, in order.
	Layers []hiera.Source
	// KV answers kvGet() in templates; nil makes kvGet an error.
	KV template.KV
	// Registry answers registrations() in templates; nil makes
	// registrations an error.
	Registry template.Registry
}

// Options returns load options that give each manifest templates over d
// and its resolved hiera data, and expand resources_jet_file.
func (d Data) Options() Options {
	return Options{Templates: d.Templates, JetResources: JetResources}
}

// LazyOptions is Options of the data load returns, read once, when the
// first manifest is prepared, so a bad overlay or layer is an error of
// this load. The facts are gathered (Data.LoadFacts, in the background)
// as soon as a manifest holds templates or data layers may use them,
// while the rest of the load goes on; else when a resource renders
// templates of its own, if it does.
func LazyOptions(load func() (Data, error)) Options {
	data := sync.OnceValues(load)
	return Options{
		Templates: func(m *Manifest) (resources.Templates, error) {
			d, err := data()
			if err != nil {
				return nil, err
			}
			t, err := d.Templates(m)
			if err == nil && d.LoadFacts != nil && (len(d.Layers) > 0 || m.Templated(t)) {
				go d.LoadFacts()
			}
			return t, err
		},
		JetResources: JetResources,
	}
}

// Templates resolves m's data, hierarchy and overrides against the facts,
// merges the extra layers over them and returns m's templates.
func (d Data) Templates(m *Manifest) (resources.Templates, error) {
	data, err := d.resolve(m)
	if err != nil {
		return nil, err
	}
	return template.New(template.Env{Facts: d.Facts, LoadFacts: d.LoadFacts, Data: data, Environ: d.Environ, Dir: m.Dir, KV: d.KV, Registry: d.Registry}), nil
}

// resolve returns m's hiera data with, merged over it, the data of the
// apply resource that included m, then the extra layers.
func (d Data) resolve(m *Manifest) (map[string]any, error) {
	own := m.Hiera()
	env := template.Env{Facts: d.Facts, LoadFacts: d.LoadFacts, Environ: d.Environ, Dir: m.Dir}
	t := template.NewData(env)
	if m.incl == nil || m.incl.data == nil {
		return hiera.Resolve(t, append([]hiera.Source{own}, d.Layers...)...)
	}
	data, err := hiera.Resolve(t, own)
	if err != nil {
		return nil, err
	}
	layers, err := hiera.Resolve(t, d.Layers...)
	if err != nil {
		return nil, err
	}
	return hiera.Merge(hiera.Merge(data, m.incl.data), layers), nil
}

// Hiera is m's data sections (data, hierarchy, overrides) as a hiera
// document.
func (m *Manifest) Hiera() hiera.Source {
	return hiera.Source{File: m.File, Data: m.Data, Hierarchy: m.Hierarchy, Overrides: m.Overrides}
}

// ManifestData is the data sections of the manifest in file, for
// `ccm hiera parse MANIFEST`; ok is false, and nothing parsed, when file
// holds no ccm section: it is a hiera document of its own.
func ManifestData(file string) (src hiera.Source, ok bool, err error) {
	b, err := document.Read(file)
	if err != nil {
		return hiera.Source{}, false, fmt.Errorf("hiera: %w", err)
	}
	var top map[string]any
	if yaml.Unmarshal(b, &top) != nil || top["ccm"] == nil {
		return hiera.Source{}, false, nil
	}
	m, err := ParseManifest(file)
	if err != nil {
		return hiera.Source{}, false, err
	}
	return m.Hiera(), true, nil
}
