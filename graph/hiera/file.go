package hiera

import (
	"fmt"

	"github.com/reactive-ccm/ccm/graph/internal/yamlmerge"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/document"
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// ReadFile reads a hiera document such as a --hiera FILE: YAML or JSON
// with the keys data, hierarchy and overrides.
func ReadFile(file string) (Source, error) {
	b, err := document.Read(file)
	if err != nil {
		return Source{}, fmt.Errorf("hiera: %w", err)
	}
	return Parse(file, b)
}

// Parse parses a hiera document read from file.
func Parse(file string, b []byte) (Source, error) {
	src := Source{File: file}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return src, resources.Errorf(resources.Pos{File: file}, "invalid YAML or JSON: %v", err)
	}
	if err := yamlmerge.Expand(file, &doc); err != nil {
		return src, err
	}
	if len(doc.Content) == 0 {
		return src, nil
	}
	root := yamlnode.Deref(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		return src, resources.Errorf(pos(file, root), "a hiera file is a map with the keys data, hierarchy and overrides")
	}
	var errs resources.ErrorList
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], yamlnode.Deref(root.Content[i+1])
		section := map[string]**yaml.Node{"data": &src.Data, "hierarchy": &src.Hierarchy, "overrides": &src.Overrides}[k.Value]
		switch {
		case section == nil:
			errs.Addf(pos(file, k), "unknown hiera key %q; valid keys: data, hierarchy, overrides", k.Value)
		case *section != nil:
			errs.Addf(pos(file, k), "duplicate key %q", k.Value)
		case v.Tag == "!!null":
		case v.Kind != yaml.MappingNode:
			errs.Addf(pos(file, v), "%s: expected a map", k.Value)
		default:
			*section = v
		}
	}
	return src, errs.Err()
}
