package hiera

import (
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// rule is what the comments on one data key ask of its final value:
// `# @require` (or `@required`) and `# @validate EXPR`, as upstream CCM
// reads them. Other comments, `@` words included, are left alone.
type rule struct {
	// path is the key's place under data: ["web", "listen_address"].
	path     []string
	required bool
	validate string
	pos      resources.Pos
}

func (r rule) key() string { return strings.Join(r.path, ".") }

// annotations collects the rules written in the comments of data's keys,
// in nested maps too; lists are not looked into.
func (s Source) annotations() []rule {
	if s.Data == nil {
		return nil
	}
	var out []rule
	var walk func(m *yaml.Node, path []string)
	walk = func(m *yaml.Node, path []string) {
		m = yamlnode.Deref(m)
		if m.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i], m.Content[i+1]
			p := append(path[:len(path):len(path)], k.Value)
			if r, ok := parseRule(k.HeadComment + "\n" + k.LineComment + "\n" + v.LineComment); ok {
				r.path, r.pos = p, pos(s.File, k)
				out = append(out, r)
			}
			walk(v, p)
		}
	}
	walk(s.Data, nil)
	return out
}

// parseRule reads the annotations among a key's comment lines.
func parseRule(comments string) (rule, bool) {
	var r rule
	found := false
	for line := range strings.SplitSeq(comments, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#"))
		switch {
		case line == "@require" || line == "@required":
			r.required, found = true, true
		case strings.HasPrefix(line, "@validate "):
			if expr := strings.TrimSpace(strings.TrimPrefix(line, "@validate ")); expr != "" {
				r.validate, found = expr, true
			}
		}
	}
	return r, found
}

// check applies the rules to the final, merged data and reports every
// failure at the annotated key. A required value may not be missing, nil
// or ""; false and 0 are values. @validate skips nil, maps and lists, and
// sees other values as text.
func check(data map[string]any, rules []rule) error {
	var errs resources.ErrorList
	for _, r := range rules {
		v, found := At(data, r.path)
		if r.required && (v == nil || v == "") {
			errs.Addf(r.pos, "data key %q is required (@require) but has no value", r.key())
			if !found || v == nil {
				continue
			}
		}
		if r.validate == "" || v == nil {
			continue
		}
		switch v.(type) {
		case map[string]any, []any:
			continue
		}
		text, ok := v.(string)
		if !ok {
			text = fmt.Sprint(v)
		}
		ok, err := validate(r.validate, text)
		switch {
		case err != nil:
			errs.Addf(r.pos, "data key %q: @validate %s: %v", r.key(), r.validate, err)
		case !ok:
			errs.Addf(r.pos, "data key %q failed @validate %s (value %q)", r.key(), r.validate, text)
		}
	}
	return errs.Err()
}

// At returns the value at a path of keys in plain maps.
func At(v any, keys []string) (any, bool) {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}
