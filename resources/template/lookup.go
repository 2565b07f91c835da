package template

import (
	"fmt"
	"strconv"
	"strings"
)

// lookup implements lookup(key[, default]): the value at a gjson-style
// path over {facts, data, environ}.
func (t *Templates) lookup(args ...any) (any, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, fmt.Errorf("%w: lookup(key[, default]) takes 1 or 2 arguments, got %d", ErrArgs, len(args))
	}
	key, ok := args[0].(string)
	if !ok {
		return nil, fmt.Errorf("%w: lookup: the key must be a string, got %T", ErrArgs, args[0])
	}
	v, found, err := Path(t.root, key)
	switch {
	case err != nil:
		return nil, err
	case found:
		return v, nil
	case len(args) == 2:
		return args[1], nil
	case t.shape == data:
		return "", nil
	}
	return nil, fmt.Errorf("%w %q; give a default with lookup(%q, DEFAULT)", ErrMissingKey, key, key)
}

// Path returns the value at path inside v, a tree of plain maps and lists.
// It accepts the common subset of gjson paths: keys separated by dots,
// `\` escaping a dot or other special character, a number indexing a list,
// `#` for a list's length and `#.rest` applying rest to every item of a
// list. Wildcards, queries and modifiers are rejected with ErrPathSyntax.
func Path(v any, path string) (any, bool, error) {
	parts, err := splitPath(path)
	if err != nil {
		return nil, false, err
	}
	out, found := walk(v, parts)
	return out, found, nil
}

func walk(v any, parts []string) (any, bool) {
	for i, p := range parts {
		switch cur := v.(type) {
		case map[string]any:
			next, ok := cur[p]
			if !ok {
				return nil, false
			}
			v = next
		case map[string]string:
			next, ok := cur[p]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			if p == "#" {
				return listRest(cur, parts[i+1:])
			}
			n, err := strconv.Atoi(p)
			if err != nil || n < 0 || n >= len(cur) {
				return nil, false
			}
			v = cur[n]
		default:
			return nil, false
		}
	}
	return v, true
}

// listRest answers `#` (the length) or `#.rest` (rest applied to every
// item, keeping the items where it is found), as gjson does.
func listRest(list []any, rest []string) (any, bool) {
	if len(rest) == 0 {
		return len(list), true
	}
	out := make([]any, 0, len(list))
	for _, item := range list {
		if v, ok := walk(item, rest); ok {
			out = append(out, v)
		}
	}
	return out, true
}

// splitPath splits a path on unescaped dots.
func splitPath(path string) ([]string, error) {
	if path == "" {
		return nil, fmt.Errorf("%w: the path is empty", ErrPathSyntax)
	}
	var parts []string
	var cur strings.Builder
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case c == '\\' && i+1 < len(path):
			i++
			cur.WriteByte(path[i])
		case c == '.':
			parts = append(parts, cur.String())
			cur.Reset()
		case c == '*' || c == '?' || c == '|' || (c == '@' && cur.Len() == 0) || (c == '#' && i+1 < len(path) && path[i+1] == '('):
			return nil, fmt.Errorf("%w: %q in %q; supported: a.b.c, list.0, list.#, list.#.key, and \\ before a special character", ErrPathSyntax, string(c), path)
		default:
			cur.WriteByte(c)
		}
	}
	return append(parts, cur.String()), nil
}
