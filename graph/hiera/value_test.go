package hiera

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph/internal/yamlmerge"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"go.yaml.in/yaml/v3"
)

// valueOf converts src with Value, as data from file "v.yaml", its merge
// keys resolved first as every reader does.
func valueOf(t *testing.T, src string, resolve Resolver) (any, error) {
	t.Helper()
	doc := resourcetest.YAMLDoc(t, src)
	if err := yamlmerge.Expand("v.yaml", doc); err != nil {
		return nil, err
	}
	return Value("v.yaml", doc, resolve)
}

// TestValue: what templates see of data as written.
func TestValue(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      any
	}{
		{"scalars keep their types", "{i: 7, f: 0.5, b: true, n: ~, s: text, q: '7'}",
			map[string]any{"i": 7, "f": 0.5, "b": true, "n": nil, "s": "text", "q": "7"}},
		{"a timestamp stays as written", "when: 2024-01-02", map[string]any{"when": "2024-01-02"}},
		{"a tagged scalar stays as written", "x: !custom abc", map[string]any{"x": "abc"}},
		{"a list of lists", "[[1, a], []]", []any{[]any{1, "a"}, []any{}}},
		{"an alias is its anchor's value", "a: &x {k: v}\nb: *x", map[string]any{"a": map[string]any{"k": "v"}, "b": map[string]any{"k": "v"}}},
		{"a merge key fills what the map does not set", "base: &b {a: 1, b: 2}\nx: {<<: *b, b: 3}",
			map[string]any{"base": map[string]any{"a": 1, "b": 2}, "x": map[string]any{"a": 1, "b": 3}}},
		{"a merge overrides a key written before it", "base: &b {a: 1}\nx: {a: 2, <<: *b}",
			map[string]any{"base": map[string]any{"a": 1}, "x": map[string]any{"a": 1}}},
		{"of a list of merges the later wins", "p: &p {a: 1}\nq: &q {a: 2, b: 2}\nx: {<<: [*p, *q]}",
			map[string]any{"p": map[string]any{"a": 1}, "q": map[string]any{"a": 2, "b": 2}, "x": map[string]any{"a": 2, "b": 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := valueOf(t, tc.src, nil)
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Value = %#v, %v; want %#v", got, err, tc.want)
			}
		})
	}
}

// TestValueOfAnEmptyDocument: a document without content is nothing,
// not an empty string.
func TestValueOfAnEmptyDocument(t *testing.T) {
	if v, err := Value("v.yaml", &yaml.Node{Kind: yaml.DocumentNode}, nil); v != nil || err != nil {
		t.Fatalf("Value = %#v, %v", v, err)
	}
}

// TestValueResolves: only strings go through the resolver, which may
// change their type; its errors are at the string.
func TestValueResolves(t *testing.T) {
	resolve := func(s string) (any, error) {
		switch s {
		case "{{ port }}":
			return 8080, nil
		case "{{ bad }}":
			return nil, errors.New("unknown name bad")
		}
		return strings.ToUpper(s), nil
	}
	got, err := valueOf(t, "port: '{{ port }}'\nname: web\ncount: 3\nlist: [a]", resolve)
	want := map[string]any{"port": 8080, "name": "WEB", "count": 3, "list": []any{"A"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Value = %#v, %v; want %#v", got, err, want)
	}
	_, err = valueOf(t, "ok: x\nlist:\n  - '{{ bad }}'\n", resolve)
	if err == nil || err.Error() != "v.yaml:3:5: unknown name bad" {
		t.Fatalf("error %v", err)
	}
}

func TestValueErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"a duplicate key", "a: 1\nb: 2\na: 3", `v.yaml:3:1: duplicate key "a" (first set at line 1)`},
		{"a duplicate key deep down", "a: {b: [{c: 1, c: 2}]}", `v.yaml:1:16: duplicate key "c" (first set at line 1)`},
		{"a merge of a scalar", "x: {<<: 5}", "v.yaml:1:5: <<: a merge key takes a map or a list of maps, got \"5\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := valueOf(t, tc.src, nil)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestAt(t *testing.T) {
	data := map[string]any{"web": map[string]any{"port": 80, "tls": nil, "hosts": []any{"a"}}}
	for _, tc := range []struct {
		path  string
		want  any
		found bool
	}{
		{"web.port", 80, true},
		{"web.tls", nil, true},
		{"web.missing", nil, false},
		{"web.port.deeper", nil, false},
		{"web.hosts.0", nil, false},
		{"", data, true},
	} {
		var keys []string
		if tc.path != "" {
			keys = strings.Split(tc.path, ".")
		}
		got, found := At(data, keys)
		if found != tc.found || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("At(%q) = %v, %t; want %v, %t", tc.path, got, found, tc.want, tc.found)
		}
	}
}
