package hiera

import "maps"

// Merge returns base with over deep-merged on top: maps merge recursively,
// lists concatenate, any other value of over replaces base's. Neither input
// is modified.
func Merge(base, over map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(over))
	maps.Copy(out, base)
	for k, v := range over {
		out[k] = mergeValue(out[k], v)
	}
	return out
}

func mergeValue(base, over any) any {
	switch o := over.(type) {
	case map[string]any:
		if b, ok := base.(map[string]any); ok {
			return Merge(b, o)
		}
	case []any:
		if b, ok := base.([]any); ok {
			return append(append(make([]any, 0, len(b)+len(o)), b...), o...)
		}
	}
	return over
}

// shallow returns base with over's top-level keys replacing base's.
func shallow(base, over map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(over))
	maps.Copy(out, base)
	maps.Copy(out, over)
	return out
}
