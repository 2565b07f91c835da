package template

import (
	"reflect"
	"strings"
	"testing"
)

// TestPathValues: what a gjson path finds comes back as the plain
// values data holds: integers written as such are ints, other numbers
// float64, null is nil, lists and maps are []any and map[string]any.
func TestPathValues(t *testing.T) {
	doc := map[string]any{
		"int": 8080, "float": 3.5, "exp": 1e21, "neg": -42, "null": nil, "t": true, "f": false, "s": "x",
		"list": []any{1, "two", []any{3.0}}, "map": map[string]any{"a": map[string]any{"b": 1}},
		"dotted.key": "escaped", "users": []any{map[string]any{"name": "ann", "uid": 1}, map[string]any{"name": "bob", "uid": 2}},
	}
	tests := []struct {
		path  string
		want  any
		found bool
	}{
		{"int", 8080, true},
		{"float", 3.5, true},
		{"exp", 1e21, true},
		{"neg", -42, true},
		{"null", nil, true},
		{"t", true, true},
		{"f", false, true},
		{"s", "x", true},
		{"list", []any{1, "two", []any{3}}, true},
		{"list.2.0", 3, true},
		{"map", map[string]any{"a": map[string]any{"b": 1}}, true},
		{"map.a.b", 1, true},
		{`dotted\.key`, "escaped", true},
		{"users.#.name", []any{"ann", "bob"}, true},
		{`users.#(name=="bob").uid`, 2, true},
		{"users.#", 2, true},
		{"list.9", nil, false},
		{"missing", nil, false},
		{"s.deeper", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got, found, err := Path(doc, tt.path)
			if err != nil || found != tt.found || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Path(%q) = %#v, %v, %v; want %#v, %v", tt.path, got, found, err, tt.want, tt.found)
			}
		})
	}
	if _, _, err := Path(map[string]any{"f": func() {}}, "f"); err == nil || !strings.HasPrefix(err.Error(), "encoding the values to query: ") {
		t.Fatalf("a value JSON cannot hold: %v", err)
	}
}

// TestLookupDefaults: a default is returned as given, whatever its type;
// only a found key's value comes from the document.
func TestLookupDefaults(t *testing.T) {
	tm := New(testEnv(t.TempDir()))
	tests := []struct {
		in   string
		want any
	}{
		{"${ lookup('data.missing', 7) }", 7},
		{"${ lookup('data.missing', ['a']) }", []any{"a"}},
		{"${ lookup('data.missing', nil) }", nil},
		{"${ lookup('data.port', 'unused') }", 8080},
		{"${ lookup('data.nothing', 'unused') }", nil},
		{"${ lookup('environ.HOME') }", "/home/test"},
		{"${ lookup('facts.host.info.procs') }", 212},
	}
	for _, tt := range tests {
		got, err := tm.Value(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s = %#v, %v; want %#v", tt.in, got, err, tt.want)
		}
	}
}
