package template

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/tidwall/gjson"
)

// lookup implements lookup(key[, default]): the value at a gjson path
// over {facts, data, environ}, as upstream CCM's lookup() reads it.
func (t *Templates) lookup(args ...any) (any, error) {
	if err := arity("lookup(key[, default])", args, 1, 2); err != nil {
		return nil, err
	}
	key, ok := args[0].(string)
	if !ok {
		return nil, fmt.Errorf("%w: lookup: the key must be a string, got %T", ErrArgs, args[0])
	}
	doc, err := t.doc.get(t.bound().root)
	if err != nil {
		return nil, err
	}
	v, found := get(doc, key)
	switch {
	case found:
		return v, nil
	case len(args) == 2:
		return args[1], nil
	case t.shape == data:
		return "", nil
	}
	return nil, fmt.Errorf("%w %q; give a default with lookup(%q, DEFAULT)", ErrMissingKey, key, key)
}

// jsonDoc is a value encoded as JSON once, on first use, for gjson
// queries; templates nested in template() and jet() calls share it.
type jsonDoc struct {
	once sync.Once
	b    []byte
	err  error
}

func (d *jsonDoc) get(v any) ([]byte, error) {
	d.once.Do(func() {
		if d.b, d.err = json.Marshal(v); d.err != nil {
			d.err = fmt.Errorf("lookup: encoding the values to query: %w", d.err)
		}
	})
	return d.b, d.err
}

// Path returns the value at a gjson path inside v, a tree of plain maps
// and lists, as lookup() does.
func Path(v any, path string) (any, bool, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false, fmt.Errorf("encoding the values to query: %w", err)
	}
	out, found := get(b, path)
	return out, found, nil
}

// get queries doc with gjson. Every path gjson knows works: keys, `\`
// escapes, indexes, `#` and `#.key`, wildcards, queries such as
// `users.#(name=="bob").uid`, modifiers.
func get(doc []byte, path string) (any, bool) {
	r := gjson.GetBytes(doc, path)
	if !r.Exists() {
		return nil, false
	}
	return value(r), true
}

// value converts a result into plain values; a number is an int when it
// is written as one, as the YAML decoder gives data's numbers.
func value(r gjson.Result) any {
	switch r.Type {
	case gjson.Null:
		return nil
	case gjson.False:
		return false
	case gjson.True:
		return true
	case gjson.String:
		return r.Str
	case gjson.Number:
		if n, err := strconv.Atoi(r.Raw); err == nil {
			return n
		}
		return r.Num
	}
	if r.IsArray() {
		out := []any{}
		r.ForEach(func(_, v gjson.Result) bool {
			out = append(out, value(v))
			return true
		})
		return out
	}
	out := map[string]any{}
	r.ForEach(func(k, v gjson.Result) bool {
		out[k.Str] = value(v)
		return true
	})
	return out
}
