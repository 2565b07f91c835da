package hiera

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/template"
)

// resolveDocs parses docs, as files a.yaml and b.yaml, and resolves them
// against facts, each over the one before.
func resolveDocs(t *testing.T, facts map[string]any, docs ...string) (map[string]any, error) {
	t.Helper()
	var srcs []Source
	for i, doc := range docs {
		src, err := Parse([]string{"a.yaml", "b.yaml"}[i], []byte(doc))
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		srcs = append(srcs, src)
	}
	return Resolve(template.NewData(template.Env{Facts: facts}), srcs...)
}

func TestMerge(t *testing.T) {
	tests := []struct {
		name             string
		base, over, want map[string]any
	}{
		{"scalars replaced", map[string]any{"a": 1, "b": 2}, map[string]any{"a": 3}, map[string]any{"a": 3, "b": 2}},
		{"maps merged recursively",
			map[string]any{"web": map[string]any{"port": 80, "tls": false}},
			map[string]any{"web": map[string]any{"tls": true}},
			map[string]any{"web": map[string]any{"port": 80, "tls": true}}},
		{"lists concatenated",
			map[string]any{"packages": []any{"ca-certificates"}},
			map[string]any{"packages": []any{"nginx"}},
			map[string]any{"packages": []any{"ca-certificates", "nginx"}}},
		{"list replaces a scalar", map[string]any{"a": "x"}, map[string]any{"a": []any{1}}, map[string]any{"a": []any{1}}},
		{"map replaces a list", map[string]any{"a": []any{1}}, map[string]any{"a": map[string]any{"b": 1}}, map[string]any{"a": map[string]any{"b": 1}}},
		{"nil base", nil, map[string]any{"a": 1}, map[string]any{"a": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Merge(tt.base, tt.over); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Merge = %#v, want %#v", got, tt.want)
			}
		})
	}
	t.Run("inputs untouched", func(t *testing.T) {
		list := []any{"a"}
		base := map[string]any{"l": list, "m": map[string]any{"x": 1}}
		Merge(base, map[string]any{"l": []any{"b"}, "m": map[string]any{"y": 2}})
		if len(base["l"].([]any)) != 1 || len(base["m"].(map[string]any)) != 1 {
			t.Fatalf("Merge modified its base: %#v", base)
		}
	})
}

// upstreamDoc is the hierarchy of upstream CCM's deep-merge test.
const upstreamDoc = `
hierarchy:
  order:
    - other:{{ lookup('facts.other', 'other') }}
    - env:{{ lookup('facts.env') }}
    - role:${ lookup('facts.role') }
    - host:{{ lookup('facts.hostname') }}
    - global
  merge: MERGE
data:
  log_level: INFO
  packages:
    - ca-certificates
  web:
    listen_port: 80
    tls: false
  other: test
overrides:
  env:prod:
    log_level: WARN
  role:web:
    packages:
      - nginx
    web:
      tls: true
  host:web01:
    log_level: TRACE
  other:stuff:
    other: extra
`

func TestResolve(t *testing.T) {
	allFacts := map[string]any{"env": "prod", "role": "web", "hostname": "web01", "other": "stuff"}
	tests := []struct {
		name  string
		doc   string
		facts map[string]any
		want  map[string]any
	}{
		{"deep merges every match in order", strings.Replace(upstreamDoc, "MERGE", "deep", 1), allFacts, map[string]any{
			"log_level": "TRACE",
			"packages":  []any{"ca-certificates", "nginx"},
			"other":     "extra",
			"web":       map[string]any{"listen_port": 80, "tls": true},
		}},
		{"first merges the first match shallowly", strings.Replace(upstreamDoc, "MERGE", "first", 1), allFacts, map[string]any{
			"log_level": "INFO",
			"packages":  []any{"ca-certificates"},
			"other":     "extra",
			"web":       map[string]any{"listen_port": 80, "tls": false},
		}},
		{"first replaces maps wholesale", strings.Replace(upstreamDoc, "MERGE", "first", 1),
			map[string]any{"role": "web"}, map[string]any{
				"log_level": "INFO",
				"packages":  []any{"nginx"},
				"other":     "test",
				"web":       map[string]any{"tls": true},
			}},
		{"entries resolving empty are skipped", strings.Replace(upstreamDoc, "MERGE", "deep", 1),
			map[string]any{"hostname": "web01"}, map[string]any{
				"log_level": "TRACE",
				"packages":  []any{"ca-certificates"},
				"other":     "test",
				"web":       map[string]any{"listen_port": 80, "tls": false},
			}},
		{"merge is case-insensitive and first by default", `
hierarchy: {order: ["env:${ lookup('facts.env') }", "role:${ lookup('facts.role') }"]}
data: {log_level: INFO}
overrides:
  env:stage: {log_level: DEBUG}
  role:web: {log_level: WARN}
`, map[string]any{"env": "stage", "role": "web"}, map[string]any{"log_level": "DEBUG"}},
		{"default hierarchy is the default override", `
data: {value: 1}
overrides:
  default: {value: "${ lookup('facts.value') }"}
`, map[string]any{"value": 2}, map[string]any{"value": 2}},
		{"data templates keep types and see facts", `
data:
  port: "${ lookup('facts.port') }"
  name: "web-${ Facts.role }"
  list: "{{ lookup('facts.list') }}"
  missing: "${ lookup('facts.nope') }"
  when: 2024-01-02
`, map[string]any{"port": 8080, "role": "web", "list": []any{1, 2}}, map[string]any{
			"port": 8080, "name": "web-web", "list": []any{1, 2}, "missing": "", "when": "2024-01-02",
		}},
		{"anchors and merge keys", `
data:
  base: &base {a: 1, b: 2}
  copy:
    <<: *base
    b: 3
`, nil, map[string]any{"base": map[string]any{"a": 1, "b": 2}, "copy": map[string]any{"a": 1, "b": 3}}},
		{"escapes are resolved once", `
data: {cmd: "echo $${HOME}"}
`, nil, map[string]any{"cmd": "echo ${HOME}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resolveDocs(t, tt.facts, tt.doc)
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Resolve = %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestLayers(t *testing.T) {
	manifest, err := Parse("manifest.yaml", []byte(`
data: {packages: [zsh], web: {port: 80, tls: false}, level: INFO}
`))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "extra.json")
	extra := `{"hierarchy": {"order": ["os:{{ lookup('facts.os') }}"]},
	  "data": {"level": "WARN"},
	  "overrides": {"os:linux": {"packages": ["vim"], "web": {"tls": true}}}}`
	if err := os.WriteFile(path, []byte(extra), 0o644); err != nil {
		t.Fatal(err)
	}
	layer, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Resolve(template.NewData(template.Env{Facts: map[string]any{"os": "linux"}}), manifest, layer)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"packages": []any{"zsh", "vim"}, "web": map[string]any{"port": 80, "tls": true}, "level": "WARN"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("layers = %#v\nwant %#v", got, want)
	}
}

func TestErrorsArePositioned(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"bad merge", "hierarchy: {merge: shallow}\n", []string{`h.yaml:1:20: hierarchy.merge must be first or deep, got "shallow"`}},
		{"unknown hierarchy key", "hierarchy: {orders: [a]}\n", []string{`h.yaml:1:13: unknown hierarchy key "orders"`}},
		{"order not a list", "hierarchy: {order: a}\n", []string{"h.yaml:1:20: hierarchy.order: expected a list"}},
		{"override not a map", "overrides: {default: 1}\n", []string{"h.yaml:1:22: overrides.default: expected a map"}},
		{"template error in data", "data:\n  a: ok\n  b: \"${ nosuch }\"\n", []string{"h.yaml:3:6: template ${ nosuch }: unknown name nosuch"}},
		{"template error in order", "hierarchy: {order: [\"${ 1 + }\"]}\n", []string{"h.yaml:1:21: hierarchy.order: template ${ 1 + }"}},
		{"duplicate data key", "data:\n  a: 1\n  a: 2\n", []string{`h.yaml:3:3: duplicate key "a"`}},
		{"unknown top-level key", "datum: {}\n", []string{`h.yaml:1:1: unknown hiera key "datum"`}},
		{"every problem at once", "hierarchy: {merge: x}\ndata: {b: \"${ nosuch }\"}\n", []string{"h.yaml:1:20:", "h.yaml:2:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, err := Parse("h.yaml", []byte(tt.doc))
			if err == nil {
				_, err = Resolve(template.NewData(template.Env{}), src)
			}
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}
