package hiera

import (
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/template"
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// Source is one hiera document: its sections as written (nil when absent)
// and the file they come from.
type Source struct {
	File                       string
	Data, Hierarchy, Overrides *yaml.Node
}

// Resolve resolves each source with t (templates for data, see
// template.NewData) and deep-merges the results in order, so later sources
// win; then it checks the merged data against the annotations of every
// source's data keys (`# @require`, `# @validate EXPR`). Every problem
// found is returned together as a resources.ErrorList.
func Resolve(t *template.Templates, sources ...Source) (map[string]any, error) {
	out := map[string]any{}
	var errs resources.ErrorList
	var rules []rule
	for _, src := range sources {
		data, err := src.resolve(t)
		errs.Add(resources.Pos{File: src.File}, err)
		out = Merge(out, data)
		rules = append(rules, src.annotations()...)
	}
	if errs.Err() == nil {
		errs.Add(resources.Pos{}, check(out, rules))
	}
	return out, errs.Err()
}

// hierarchy is a parsed hierarchy section.
type hierarchy struct {
	order []*yaml.Node
	deep  bool
}

func (s Source) resolve(t *template.Templates) (map[string]any, error) {
	var errs resources.ErrorList
	h := s.hierarchy(&errs)
	overrides := s.overrides(&errs)
	base := s.mapValue(s.Data, t, &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	for _, entry := range h.order {
		name, matched, err := t.Matched(entry.Value)
		if err != nil {
			errs.Add(pos(s.File, entry), fmt.Errorf("hierarchy.order: %w", err))
			continue
		}
		over, ok := overrides[name]
		if !matched || !ok {
			continue
		}
		if !h.deep {
			return shallow(base, s.mapValue(over, t, &errs)), errs.Err()
		}
		base = Merge(base, s.mapValue(over, t, &errs))
	}
	return base, errs.Err()
}

// hierarchy reads the hierarchy section; by default the order is
// ["default"] and the merge first.
func (s Source) hierarchy(errs *resources.ErrorList) hierarchy {
	dflt := hierarchy{order: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: "default"}}}
	if s.Hierarchy == nil {
		return dflt
	}
	h := dflt
	for i := 0; i+1 < len(s.Hierarchy.Content); i += 2 {
		k, v := s.Hierarchy.Content[i], yamlnode.Deref(s.Hierarchy.Content[i+1])
		switch k.Value {
		case "order":
			h.order = s.order(v, errs)
		case "merge":
			switch strings.ToLower(v.Value) {
			case "first":
			case "deep":
				h.deep = true
			default:
				errs.Addf(pos(s.File, v), "hierarchy.merge must be first or deep, got %q", v.Value)
			}
		default:
			errs.Addf(pos(s.File, k), "unknown hierarchy key %q; valid keys: merge, order", k.Value)
		}
	}
	return h
}

func (s Source) order(n *yaml.Node, errs *resources.ErrorList) []*yaml.Node {
	if n.Kind != yaml.SequenceNode {
		errs.Addf(pos(s.File, n), "hierarchy.order: expected a list of strings")
		return nil
	}
	out := make([]*yaml.Node, 0, len(n.Content))
	for _, c := range n.Content {
		c = yamlnode.Deref(c)
		if c.Kind != yaml.ScalarNode || c.Tag == "!!null" {
			errs.Addf(pos(s.File, c), "hierarchy.order: expected a string")
			continue
		}
		out = append(out, c)
	}
	return out
}

// overrides indexes the overrides section by name, checking each is a map.
func (s Source) overrides(errs *resources.ErrorList) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	if s.Overrides == nil {
		return out
	}
	for i := 0; i+1 < len(s.Overrides.Content); i += 2 {
		k, v := s.Overrides.Content[i], yamlnode.Deref(s.Overrides.Content[i+1])
		if _, dup := out[k.Value]; dup {
			errs.Addf(pos(s.File, k), "overrides: duplicate entry %q", k.Value)
			continue
		}
		if v.Kind != yaml.MappingNode && v.Tag != "!!null" {
			errs.Addf(pos(s.File, v), "overrides.%s: expected a map of data", k.Value)
			continue
		}
		out[k.Value] = v
	}
	return out
}

// mapValue resolves a data map; nil and empty nodes are an empty map.
func (s Source) mapValue(n *yaml.Node, t *template.Templates, errs *resources.ErrorList) map[string]any {
	if n == nil || n.Tag == "!!null" {
		return map[string]any{}
	}
	if n.Kind != yaml.MappingNode {
		errs.Addf(pos(s.File, n), "expected a map of data")
		return map[string]any{}
	}
	v, err := Value(s.File, n, t.Value)
	errs.Add(pos(s.File, n), err)
	m, _ := v.(map[string]any)
	return m
}
