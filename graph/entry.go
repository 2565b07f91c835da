package graph

import (
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"go.yaml.in/yaml/v3"
)

// Entry is one resource given outside a manifest file: by `ccm ensure`'s
// flags or an ensure request.
type Entry struct {
	// Type is the resource type's name.
	Type string
	// Props maps its properties as a manifest writes them, name included.
	Props *yaml.Node
	// File names where Props came from, for errors ("request");
	// relative paths resolve against Dir.
	File, Dir string
}

// LoadEntry builds the graph of the one resource e describes, as if it
// were the only resource of a manifest in e.Dir, with whatever
// opts.External resolves of its references.
func LoadEntry(e Entry, opts Options) (*Graph, error) {
	typ, ok := resources.Lookup(e.Type)
	if !ok {
		return nil, fmt.Errorf("%s: unknown resource type %q; known types: %s", e.File, e.Type, strings.Join(resources.TypeNames(), ", "))
	}
	if e.Props == nil || e.Props.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: the properties must be a map", e.File)
	}
	m := &Manifest{File: e.File, Dir: e.Dir}
	m.incl = topLevel(m)
	t, _, err := opts.prepare(m)
	if err != nil {
		return nil, err
	}
	var errs resources.ErrorList
	en := m.singleMap(&typ, e.Props, t, &errs)
	if en == nil {
		return nil, errs.Err()
	}
	g := &Graph{Manifests: []*Manifest{m}, loader: &loader{opts: opts}, external: opts.External}
	g.build(en, t, &errs)
	return g.compile(errs)
}
