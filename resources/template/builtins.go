package template

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr/vm/runtime"
)

// The builtins below replace expr's own of the same names (the
// environment wins over builtins): each works out the size of its result
// from its arguments and refuses it before making it when too large.

// repeat implements repeat(s, n).
func repeat(b *budget, args ...any) (any, error) {
	if err := arity("repeat(text, count)", args, 2); err != nil {
		return nil, err
	}
	s, err := stringArg("repeat", "the text", args, 0)
	if err != nil {
		return nil, err
	}
	n := runtime.ToInt(args[1])
	if n < 0 {
		return nil, fmt.Errorf("%w: repeat: the count must not be negative", ErrArgs)
	}
	if n > 0 && int64(len(s)) > b.lim.value/int64(n) {
		return nil, b.allow(b.lim.value + 1)
	}
	out := strings.Repeat(s, n)
	return out, b.charge(int64(len(out)))
}

// replace implements replace(s, old, new[, n]).
func replace(b *budget, args ...any) (any, error) {
	if err := arity("replace(text, old, new[, count])", args, 3, 4); err != nil {
		return nil, err
	}
	strs, err := stringArgs("replace", args, "the text", "the old text", "the new text")
	if err != nil {
		return nil, err
	}
	s, old, repl := strs[0], strs[1], strs[2]
	n := strings.Count(s, old)
	if old == "" {
		n = utf8.RuneCountInString(s) + 1
	}
	if len(args) == 4 {
		if limit := runtime.ToInt(args[3]); limit >= 0 {
			n = min(n, limit)
		}
	}
	if err := b.allow(int64(len(s)) + int64(n)*(int64(len(repl))-int64(len(old)))); err != nil {
		return nil, err
	}
	out := strings.Replace(s, old, repl, n)
	return out, b.charge(int64(len(out)))
}

// join implements join(list[, separator]).
func join(b *budget, args ...any) (any, error) {
	if err := arity("join(list[, separator])", args, 1, 2); err != nil {
		return nil, err
	}
	sep := ""
	if len(args) == 2 {
		var err error
		if sep, err = stringArg("join", "the separator", args, 1); err != nil {
			return nil, err
		}
	}
	items, err := stringList("join", args[0])
	if err != nil {
		return nil, err
	}
	n := int64(len(sep)) * int64(max(len(items)-1, 0))
	for _, s := range items {
		n += int64(len(s))
	}
	if err := b.allow(n); err != nil {
		return nil, err
	}
	out := strings.Join(items, sep)
	return out, b.charge(int64(len(out)))
}

// stringList accepts a list of strings.
func stringList(fn string, v any) ([]string, error) {
	switch v := v.(type) {
	case []string:
		return v, nil
	case []any:
		out := make([]string, len(v))
		for i, x := range v {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("%w: %s: item %d is a %T, not a string", ErrArgs, fn, i, x)
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: %s: expected a list of strings, got %T", ErrArgs, fn, v)
}

// split implements split(s, separator[, n]); each piece costs a string
// header besides its bytes.
func split(b *budget, args ...any) (any, error) {
	if err := arity("split(text, separator[, count])", args, 2, 3); err != nil {
		return nil, err
	}
	strs, err := stringArgs("split", args, "the text", "the separator")
	if err != nil {
		return nil, err
	}
	s, sep := strs[0], strs[1]
	n := -1
	if len(args) == 3 {
		n = runtime.ToInt(args[2])
	}
	pieces := strings.Count(s, sep) + 1
	if sep == "" {
		pieces = utf8.RuneCountInString(s)
	}
	if n >= 0 {
		pieces = min(pieces, n)
	}
	if err := b.allow(int64(len(s)) + 16*int64(pieces)); err != nil {
		return nil, err
	}
	out := strings.SplitN(s, sep, n)
	return out, b.charge(int64(len(s)) + 16*int64(len(out)))
}

// toString implements string(v).
func toString(b *budget, args ...any) (any, error) {
	if err := arity("string(value)", args, 1); err != nil {
		return nil, err
	}
	if err := b.allow(2 * sizeOf(args[0], b.lim.value)); err != nil {
		return nil, err
	}
	out := fmt.Sprintf("%v", args[0])
	return out, b.charge(int64(len(out)))
}

// toJSON implements toJSON(v), indented by two spaces as expr's is.
func toJSON(b *budget, args ...any) (any, error) {
	if err := arity("toJSON(value)", args, 1); err != nil {
		return nil, err
	}
	if err := b.allow(4 * sizeOf(args[0], b.lim.value)); err != nil {
		return nil, err
	}
	out, err := json.MarshalIndent(args[0], "", "  ")
	if err != nil {
		return nil, fmt.Errorf("toJSON: %w", err)
	}
	return string(out), b.charge(int64(len(out)))
}
