package hiera

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Env is v as environment lines, as upstream's `hiera parse --env`
// prints them: a map gives PREFIX_KEY=VALUE, one per key, sorted, with
// the key in upper case; any other value gives PREFIX_VALUE=VALUE.
// Strings, numbers and booleans are written as they are, anything else
// as JSON.
func Env(v any, prefix string) ([]string, error) {
	m, ok := v.(map[string]any)
	if !ok {
		line, err := envLine(prefix+"_VALUE", v)
		return []string{line}, err
	}
	lines := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		line, err := envLine(prefix+"_"+strings.ToUpper(k), m[k])
		if err != nil {
			return nil, err
		}
		lines = append(lines, line)
	}
	return lines, nil
}

func envLine(key string, v any) (string, error) {
	switch x := v.(type) {
	case string:
		return key + "=" + x, nil
	case int, int64, float64, bool:
		return fmt.Sprintf("%s=%v", key, x), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return key + "=" + string(b), nil
}
