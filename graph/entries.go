package graph

import (
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// entry is one resource as written, before its type builds it.
type entry struct {
	// typ is shared by the entries of a block: a Type is large.
	typ       *resources.Type
	name      string
	alias     string
	namePos   resources.Pos
	require   []item
	subscribe []item
	props     *yaml.Node
	// raw is every property as written (defaults merged), common keys
	// included, for the fingerprint; own, in a block with defaults, is
	// the resource's own before they were merged, defaults theirs.
	raw      *yaml.Node
	own      *yaml.Node
	defaults *blockDefaults
	m        *Manifest
	// control is the resource's control: {if, unless}, nil when unset.
	control *control
	// sensitive hides the resource's values in reports.
	sensitive bool
	// health is the health_checks list as written, nil when unset.
	health *yaml.Node
	// registrations is the register_when_stable list as written, nil when
	// unset.
	registrations *yaml.Node
	// rollback is the resource's rollback setting, nil when unset.
	rollback *bool
	// index is the entry's vertex, once built.
	index int
	// members are the vertices of the manifest an apply resource includes.
	members []int
}

func (e *entry) id() string { return e.typ.Name + "#" + e.name }

// entries flattens a manifest's resource blocks, in order, into entries.
func (m *Manifest) entries(blocks *yaml.Node, tmpl resources.Templates, errs *resources.ErrorList) []*entry {
	var out []*entry
	for _, blk := range blocks.Content {
		blk = yamlnode.Deref(blk)
		if blk.Kind != yaml.MappingNode || len(blk.Content) != 2 {
			errs.Addf(pos(m.File, blk), "each resources item is `- TYPE: [ - NAME: {properties} ]`; got %s", shape(blk))
			continue
		}
		key, body := blk.Content[0], yamlnode.Deref(blk.Content[1])
		typ, ok := resources.Lookup(key.Value)
		if !ok {
			errs.Addf(pos(m.File, key), "unknown resource type %q; known types: %s", key.Value, strings.Join(resources.TypeNames(), ", "))
			continue
		}
		switch body.Kind {
		case yaml.SequenceNode:
			out = append(out, m.namedList(&typ, body, tmpl, errs)...)
		case yaml.MappingNode:
			if e := m.singleMap(&typ, body, tmpl, errs); e != nil {
				out = append(out, e)
			}
		default:
			errs.Addf(pos(m.File, body), "%s: expected a list of `- NAME: {properties}` entries or a map with name:, got %s", typ.Name, yamlnode.Describe(body))
		}
	}
	return out
}

func shape(n *yaml.Node) string {
	if n.Kind == yaml.MappingNode {
		return fmt.Sprintf("a map with %d keys", len(n.Content)/2)
	}
	return yamlnode.Describe(n)
}

// namedList reads `- NAME: {props}` entries and applies the block's
// `defaults` entry to every other entry of the block.
func (m *Manifest) namedList(typ *resources.Type, body *yaml.Node, tmpl resources.Templates, errs *resources.ErrorList) []*entry {
	var defaults *yaml.Node
	type named struct{ key, props *yaml.Node }
	var items []named
	for _, it := range body.Content {
		it = yamlnode.Deref(it)
		if it.Kind != yaml.MappingNode || len(it.Content) != 2 {
			hint := ""
			if it.Kind == yaml.MappingNode && hasKey(it, "name") {
				hint = "; to give a single resource as a map, write `- " + typ.Name + ": {name: ..., ...}` without the list"
			}
			errs.Addf(pos(m.File, it), "%s: each entry is `- NAME: {properties}`; got %s%s", typ.Name, shape(it), hint)
			continue
		}
		k, v := it.Content[0], yamlnode.Deref(it.Content[1])
		if !yamlnode.IsNull(v) && v.Kind != yaml.MappingNode {
			errs.Addf(pos(m.File, v), "%s#%s: properties must be a map (use {} for none), got %s", typ.Name, k.Value, yamlnode.Describe(v))
			continue
		}
		if k.Value == "defaults" {
			if defaults != nil {
				errs.Addf(pos(m.File, k), "%s: only one defaults entry is allowed per block (first at line %d)", typ.Name, defaults.Line)
				continue
			}
			defaults = emptyIfNull(v, k)
			continue
		}
		items = append(items, named{k, emptyIfNull(v, k)})
	}
	out := make([]*entry, 0, len(items))
	shared := newBlockDefaults(defaults)
	for _, it := range items {
		props := withDefaults(it.props, defaults)
		if e := m.entry(typ, it.key, props, tmpl, errs); e != nil {
			e.own, e.defaults = it.props, shared
			out = append(out, e)
		}
	}
	return out
}

func hasKey(m *yaml.Node, key string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return true
		}
	}
	return false
}

func emptyIfNull(v, at *yaml.Node) *yaml.Node {
	if yamlnode.IsNull(v) {
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: at.Line, Column: at.Column}
	}
	return v
}

// withDefaults returns props with every defaults key it does not set.
func withDefaults(props, defaults *yaml.Node) *yaml.Node {
	if defaults == nil || len(defaults.Content) == 0 {
		return props
	}
	merged := *props
	merged.Content = append(make([]*yaml.Node, 0, len(props.Content)+len(defaults.Content)), props.Content...)
	for i := 0; i+1 < len(defaults.Content); i += 2 {
		if !hasKey(props, defaults.Content[i].Value) {
			merged.Content = append(merged.Content, defaults.Content[i], defaults.Content[i+1])
		}
	}
	return &merged
}

// singleMap reads the `TYPE: {name: NAME, ...}` form.
func (m *Manifest) singleMap(typ *resources.Type, body *yaml.Node, tmpl resources.Templates, errs *resources.ErrorList) *entry {
	var nameKey, nameNode *yaml.Node
	rest := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: body.Line, Column: body.Column}
	for i := 0; i+1 < len(body.Content); i += 2 {
		k := body.Content[i]
		switch {
		case k.Value == "name" && nameKey != nil:
			errs.Addf(pos(m.File, k), "%s: duplicate property \"name\" (first set at line %d)", typ.Name, nameKey.Line)
		case k.Value == "name":
			nameKey, nameNode = k, yamlnode.Deref(body.Content[i+1])
		default:
			rest.Content = append(rest.Content, k, body.Content[i+1])
		}
	}
	if nameNode == nil {
		errs.Addf(pos(m.File, body), "%s: a resource given as a map needs a name: key", typ.Name)
		return nil
	}
	if nameNode.Kind != yaml.ScalarNode || yamlnode.IsNull(nameNode) {
		errs.Addf(pos(m.File, nameNode), "%s: name: expected a string, got %s", typ.Name, yamlnode.Describe(nameNode))
		return nil
	}
	return m.entry(typ, nameNode, rest, tmpl, errs)
}

// entry takes the common keys (alias, require, subscribe, control,
// sensitive, health_checks, rollback, register_when_stable) out of props and keeps the rest for
// the type.
func (m *Manifest) entry(typ *resources.Type, nameNode, props *yaml.Node, tmpl resources.Templates, errs *resources.ErrorList) *entry {
	e := &entry{typ: typ, name: nameNode.Value, namePos: pos(m.File, nameNode), raw: props, m: m}
	if tmpl.HasExpr(e.name) {
		name, err := tmpl.String(e.name)
		if err != nil {
			errs.Addf(e.namePos, "%s#%s: name: %v", typ.Name, e.name, err)
			return nil
		}
		e.name = name
	}
	if e.name == "" {
		errs.Addf(e.namePos, "%s: the name is empty", typ.Name)
		return nil
	}
	e.props = m.typeProps(e, props, errs)
	return e
}

// typeProps returns the properties of props that are the type's, taking
// the common ones into e: props itself when it holds none (most
// resources), else a mapping of the rest, its aliases resolved.
func (m *Manifest) typeProps(e *entry, props *yaml.Node, errs *resources.ErrorList) *yaml.Node {
	var rest *yaml.Node
	keys := resources.KeysOf(props)
	for i := 0; i+1 < len(props.Content); i += 2 {
		k, v := props.Content[i], yamlnode.Deref(props.Content[i+1])
		taken := true
		if first, dup := keys.Earlier(i); dup {
			errs.Addf(pos(m.File, k), "%s: duplicate property %q (first set at line %d)", e.id(), k.Value, first.Line)
		} else {
			taken = m.common(e, k, v, errs)
		}
		if rest == nil && (taken || v != props.Content[i+1]) {
			rest = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: props.Line, Column: props.Column,
				Content: append(make([]*yaml.Node, 0, len(props.Content)), props.Content[:i]...)}
		}
		if rest != nil && !taken {
			rest.Content = append(rest.Content, k, v)
		}
	}
	if rest == nil {
		return props
	}
	return rest
}

// common takes property k, v into e when it is a common one (alias,
// require, subscribe, control, sensitive, health_checks, rollback,
// register_when_stable), reporting whether it was.
func (m *Manifest) common(e *entry, k, v *yaml.Node, errs *resources.ErrorList) bool {
	switch {
	case k.Value == "alias":
		if v.Kind != yaml.ScalarNode || yamlnode.IsNull(v) {
			errs.Addf(pos(m.File, v), "%s: alias: expected a string, got %s", e.id(), yamlnode.Describe(v))
			return true
		}
		e.alias = v.Value
	case k.Value == "require":
		e.require = stringList(m.File, v, errs)
	case k.Value == "subscribe" && e.typ.Subscribes:
		e.subscribe = stringList(m.File, v, errs)
	case k.Value == "control":
		e.control = m.parseControl(e.id(), v, errs)
	case k.Value == "sensitive":
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
			errs.Addf(pos(m.File, v), "%s: sensitive: expected true or false, got %s", e.id(), yamlnode.Describe(v))
			return true
		}
		e.sensitive = strings.EqualFold(v.Value, "true")
	case k.Value == "health_checks":
		e.health = v
	case k.Value == "register_when_stable":
		e.registrations = v
	case k.Value == "rollback" && e.typ.Undoable:
		e.rollback = m.parseBool(e.id(), k.Value, v, errs)
	default:
		return false
	}
	return true
}
