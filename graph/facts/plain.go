package facts

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// plain turns a gopsutil result into plain maps, lists and scalars under
// its JSON names, with integral numbers as int so `Facts.host.info.procs + 1`
// stays an integer.
func plain(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding %T: %w", v, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("decoding %T: %w", v, err)
	}
	return numbers(out), nil
}

// numbers replaces every json.Number in v with an int, or a float64 when
// it is not integral or does not fit.
func numbers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, item := range v {
			v[k] = numbers(item)
		}
	case []any:
		for i, item := range v {
			v[i] = numbers(item)
		}
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return int(i)
		}
		if f, err := v.Float64(); err == nil {
			return f
		}
		return v.String()
	}
	return v
}
