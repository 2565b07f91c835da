package resources

import (
	"path/filepath"
	"reflect"

	"go.yaml.in/yaml/v3"
)

// Spec is what the graph hands a Type to build one resource: the name and
// the property mapping (the block's defaults already merged in, the common
// keys the graph consumes removed), with enough context to report errors at
// their position. A resource must not keep the Spec: it pins the YAML tree.
type Spec struct {
	Type string
	Name string
	// Props is a YAML mapping node, never nil.
	Props *yaml.Node
	// Pos is the position of the resource's name in the manifest.
	Pos Pos
	// Dir is the manifest's directory; relative paths resolve against it.
	Dir string
	// Templates resolves template expressions; never nil. For a sensitive
	// resource it records what it resolves in Secrets.
	Templates Templates
	// Secrets is set for a resource marked `sensitive: true`: the values
	// it must not show are recorded there as they are resolved.
	Secrets *Secrets
	// Templated remembers what the properties' templates resolve to, for
	// the resource's errors to leave out; Type.Build sets it.
	Templated *Templated
	// props is the type's declared property struct, set by Type.Build.
	props reflect.Type
	// common says which common properties the type takes, set by
	// Type.Build: the graph took them out of Props already, but a
	// misspelt one is still suggested.
	common commonKeys
}

// ID is the resource's reference, "type#name".
func (s *Spec) ID() string { return s.Type + "#" + s.Name }

// NodePos returns the position of a node of this resource's manifest.
func (s *Spec) NodePos(n *yaml.Node) Pos {
	return Pos{File: s.Pos.File, Line: n.Line, Col: n.Column}
}

// KeyPos returns the position of the value of property key, or the
// resource's position when the key is not set.
func (s *Spec) KeyPos(key string) Pos {
	for i := 0; i+1 < len(s.Props.Content); i += 2 {
		if s.Props.Content[i].Value == key {
			return s.NodePos(s.Props.Content[i+1])
		}
	}
	return s.Pos
}

// Has reports whether property key is set.
func (s *Spec) Has(key string) bool {
	for i := 0; i+1 < len(s.Props.Content); i += 2 {
		if s.Props.Content[i].Value == key {
			return true
		}
	}
	return false
}

// Path resolves p against the manifest's directory when it is relative.
func (s *Spec) Path(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(s.Dir, p)
}
