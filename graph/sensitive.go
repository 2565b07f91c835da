package graph

import (
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// SecretKeys lists the properties of props, those of a resource of type
// typ marked `sensitive: true`, whose whole value reports hide: the
// type's deferred properties (resolved at run time: a file's content, an
// exec's command) and every property holding a template of t anywhere in
// its value. Hiding the whole value, not only what its templates resolve
// to, keeps the literal text written beside a template
// (`api_key = AKIA…` next to `{{ lookup('host') }}`) out of reports too.
// The name, the common properties that only link resources (alias,
// require, subscribe, sensitive) and literal values of other properties
// (owner, mode, ensure) stay shown.
func SecretKeys(typ resources.Type, props *yaml.Node, t resources.Templates) []string {
	props = yamlnode.Deref(props)
	if props == nil || props.Kind != yaml.MappingNode {
		return nil
	}
	deferred := map[string]bool{}
	for _, p := range typ.Properties() {
		deferred[p.Name] = p.Deferred
	}
	var keys []string
	for i := 0; i+1 < len(props.Content); i += 2 {
		k := props.Content[i].Value
		if shownLinks[k] {
			continue
		}
		if deferred[k] || holdsExpr(props.Content[i+1], t) {
			keys = append(keys, k)
		}
	}
	return keys
}

// shownLinks are the common properties a sensitive resource still shows:
// they name resources, not values. A template in them is resolved when
// the manifest loads, into names every event shows anyway.
var shownLinks = map[string]bool{"name": true, "alias": true, "require": true, "subscribe": true, "sensitive": true}
