package graph

import (
	"slices"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// SectionKey is one key of a manifest's top level or of its ccm:
// section. The loader takes the keys declared here and no others, and the
// JSON Schema (package schema) is generated from the same declarations,
// so the two cannot disagree.
type SectionKey struct {
	Name string
	Help string
	// Schema is the JSON Schema of the key's value, when Ref is empty.
	Schema map[string]any
	// Ref names the schema definition of the value instead: "ccm" (the
	// ccm: section, from CCMKeys) or "resources" (the resource blocks).
	Ref  string
	take func(m *Manifest, p pair, errs *resources.ErrorList)
}

// TopKeys lists the keys of a manifest's top level.
func TopKeys() []SectionKey { return slices.Clone(topKeys) }

// CCMKeys lists the keys of a manifest's ccm: section.
func CCMKeys() []SectionKey { return slices.Clone(ccmKeys) }

var (
	maybeMap  = map[string]any{"type": []any{"object", "null"}}
	aString   = map[string]any{"type": "string"}
	aBoolean  = map[string]any{"type": "boolean"}
	hierarchy = map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"properties": map[string]any{
			"order": map[string]any{"type": "array", "items": aString, "description": "override names, in order; templates that resolve empty skip an entry"},
			"merge": map[string]any{"type": "string", "pattern": "^([Ff][Ii][Rr][Ss][Tt]|[Dd][Ee][Ee][Pp])$", "description": "first (the default): the first match, shallowly; deep: every match, maps merged and lists concatenated"},
		},
	}
	overrides = map[string]any{"type": []any{"object", "null"}, "additionalProperties": maybeMap}
)

var topKeys = []SectionKey{
	{Name: "ccm", Ref: "ccm", Help: "the resources and how they run", take: func(m *Manifest, p pair, errs *resources.ErrorList) {
		if p.val.Kind != yaml.MappingNode {
			errs.Addf(pos(m.File, p.val), "ccm: expected a map, got %s", yamlnode.Describe(p.val))
			return
		}
		m.parseCCM(p.val, errs)
	}},
	{Name: "data", Schema: maybeMap, Help: "hiera data for templates", take: func(m *Manifest, p pair, errs *resources.ErrorList) {
		m.Data = m.mapping(p, errs)
	}},
	{Name: "hierarchy", Schema: hierarchy, Help: "the order in which overrides are merged over data", take: func(m *Manifest, p pair, errs *resources.ErrorList) {
		m.Hierarchy = m.mapping(p, errs)
	}},
	{Name: "overrides", Schema: overrides, Help: "data merged over data, keyed by hierarchy entries", take: func(m *Manifest, p pair, errs *resources.ErrorList) {
		m.Overrides = m.mapping(p, errs)
	}},
}

var ccmKeys = []SectionKey{
	{Name: "fail_on_error", Schema: aBoolean, Help: "stop the run at the first failure: nothing starts after it", take: func(m *Manifest, p pair, errs *resources.ErrorList) {
		m.FailOnError = m.boolean(p, errs)
	}},
	{Name: "parallel", Schema: aBoolean, Help: "run the resources in parallel, ordered only by require, subscribe and paths, not as written (ccm's own)", take: func(m *Manifest, p pair, errs *resources.ErrorList) {
		m.Parallel = m.boolean(p, errs)
	}},
	{Name: "post_message", Schema: aString, Help: "printed after a run without errors", take: func(m *Manifest, p pair, errs *resources.ErrorList) {
		m.PostMessage = m.str(p, errs)
	}},
	{Name: "pre_message", Schema: aString, Help: "printed before the run", take: func(m *Manifest, p pair, errs *resources.ErrorList) {
		m.PreMessage = m.str(p, errs)
	}},
	{Name: "resources", Ref: "resources", Help: "the resource blocks, in the order they run", take: func(m *Manifest, p pair, errs *resources.ErrorList) {
		if p.val.Kind != yaml.SequenceNode {
			errs.Addf(pos(m.File, p.val), "resources: expected a list of resource blocks, got %s", yamlnode.Describe(p.val))
			return
		}
		m.Resources = p.val
	}},
	{Name: "resources_jet_file", Schema: aString, Help: "a Jet template rendering the resources list, relative to the manifest", take: func(m *Manifest, p pair, errs *resources.ErrorList) {
		m.ResourcesJetFile = m.str(p, errs)
		m.JetPos = pos(m.File, p.val)
	}},
}

func findKey(keys []SectionKey, name string) *SectionKey {
	for i := range keys {
		if keys[i].Name == name {
			return &keys[i]
		}
	}
	return nil
}

// keyNames lists the keys' names, sorted, for errors.
func keyNames(keys []SectionKey) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Name
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
