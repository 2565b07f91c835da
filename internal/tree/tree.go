// Package tree works on trees of values decoded into `any`: the maps
// (map[string]any), lists ([]any) and scalars that encoding/json and the
// YAML decoder produce, and that templates and expressions read. Facts
// and key-value data arrive as JSON; JSON, YAML and expressions agree on
// numbers only when integral ones are ints, so JSON decodes here.
package tree

import (
	"bytes"
	"encoding/json"
	"errors"
)

// errTrailing is JSON text holding more than one value.
var errTrailing = errors.New("tree: more than one JSON value")

// DecodeJSON decodes the one JSON value in b. Numbers become int when
// integral and within range, else float64, as they do in YAML.
func DecodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errTrailing
	}
	return MapLeaves(out, number), nil
}

// number turns a json.Number into an int, or a float64 when it is not
// integral or does not fit; anything else stays as it is.
func number(v any) any {
	n, ok := v.(json.Number)
	if !ok {
		return v
	}
	if i, err := n.Int64(); err == nil {
		return int(i)
	}
	f, _ := n.Float64()
	return f
}

// MapLeaves replaces every leaf of v (what is neither a map[string]any nor
// a []any) with f of it, in place, and returns v, or f(v) when v itself
// is a leaf.
func MapLeaves(v any, f func(any) any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = MapLeaves(x, f)
		}
	case []any:
		for i, x := range v {
			v[i] = MapLeaves(x, f)
		}
	default:
		return f(v)
	}
	return v
}
