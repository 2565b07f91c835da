package template

import (
	"bytes"
	"fmt"

	"github.com/reactive-ccm/ccm/internal/tree"
)

// kvGet implements kvGet(bucket, key[, default]): the value of a key in a
// NATS key-value bucket. A value holding a JSON object or array is
// decoded (integral numbers become ints), anything else is a string. A
// missing key gives the default, or ErrMissingKV.
func (t *Templates) kvGet(args ...any) (any, error) {
	if err := arity("kvGet(bucket, key[, default])", args, 2, 3); err != nil {
		return nil, err
	}
	strs, err := stringArgs("kvGet", args, "the bucket", "the key")
	if err != nil {
		return nil, err
	}
	bucket, key := strs[0], strs[1]
	if t.env.KV == nil {
		return nil, ErrNoKV
	}
	v, found, err := t.env.KV.Get(bucket, key)
	switch {
	case err != nil:
		return nil, fmt.Errorf("kvGet(%q, %q): %w", bucket, key, err)
	case !found && len(args) == 3:
		return args[2], nil
	case !found:
		return nil, fmt.Errorf("%w %s in bucket %s; give a default with kvGet(%q, %q, DEFAULT)", ErrMissingKV, key, bucket, bucket, key)
	}
	return kvValue(v), nil
}

// kvValue decodes a JSON object or array, and leaves anything else text.
func kvValue(v []byte) any {
	trimmed := bytes.TrimSpace(v)
	if len(trimmed) == 0 || (trimmed[0] != '{' && trimmed[0] != '[') {
		return string(v)
	}
	out, err := tree.DecodeJSON(trimmed)
	if err != nil {
		return string(v)
	}
	return out
}
