package facts

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestSystemKeepsWhatSectionsGathered: a section that failed in part
// keeps what it gathered, one that failed whole is an empty map, and
// every failure is reported under its section's name.
func TestSystemKeepsWhatSectionsGathered(t *testing.T) {
	saved := sections
	defer func() { sections = saved }()
	sections = []section{
		{"whole", func(context.Context) (map[string]any, error) { return map[string]any{"a": 1}, nil }},
		{"partial", func(context.Context) (map[string]any, error) {
			return map[string]any{"b": 2}, errors.New("swap: permission denied")
		}},
		{"failed", func(context.Context) (map[string]any, error) { return nil, errors.New("no /proc") }},
	}
	got, err := System(t.Context(), 0)
	want := map[string]any{"whole": map[string]any{"a": 1}, "partial": map[string]any{"b": 2}, "failed": map[string]any{}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("System = %#v, want %#v", got, want)
	}
	for _, w := range []string{"facts: partial: swap: permission denied", "facts: failed: no /proc"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v does not say %q", err, w)
		}
	}
	if errors.Is(err, ErrTimeout) {
		t.Errorf("no section timed out: %v", err)
	}
}

// TestInto: a gopsutil result is stored as plain values under its key
// when there is one, whatever the call's error; the errors name the key.
func TestInto(t *testing.T) {
	type usage struct {
		Total uint64 `json:"total"`
	}
	for _, tc := range []struct {
		name string
		v    any
		err  error
		want map[string]any
		errs string
	}{
		{"a result", &usage{Total: 5}, nil, map[string]any{"virtual": map[string]any{"total": 5}}, ""},
		{"a partial result and its error", []usage{{1}}, errors.New("one device unreadable"),
			map[string]any{"virtual": []any{map[string]any{"total": 1}}}, "virtual: one device unreadable"},
		{"no result", nil, errors.New("not supported"), map[string]any{}, "virtual: not supported"},
		{"a result JSON cannot encode", map[string]any{"f": func() {}}, nil, map[string]any{}, "virtual: encoding map[string]interface {}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := map[string]any{}
			var errs []error
			into(m, "virtual", tc.v, tc.err, &errs)
			got := errors.Join(errs...)
			if !reflect.DeepEqual(m, tc.want) || (tc.errs == "") != (got == nil) || (got != nil && !strings.HasPrefix(got.Error(), tc.errs)) {
				t.Fatalf("into = %#v, %v; want %#v, %q", m, got, tc.want, tc.errs)
			}
		})
	}
}
