package schema_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/graph/schema"
	"github.com/reactive-ccm/ccm/graph/schema/schematest"
	_ "github.com/reactive-ccm/ccm/resources/all"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// corpus is upstream CCM's material, beside the repository as CI has it.
const corpus = "../../../shared/upstream-corpus/manifests"

// instance converts YAML to the JSON value a validator (or an editor)
// checks; ok is false for YAML JSON cannot hold (non-string keys).
func instance(t *testing.T, src []byte) (any, bool) {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		t.Fatalf("bad YAML: %v", err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return doc, true
}

// accepted lists the manifests ccm loads: the examples and every corpus
// manifest that compiles with its case's facts.
func accepted(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	examples, _ := filepath.Glob("../../examples/*.yaml")
	cases, _ := filepath.Glob(filepath.Join(corpus, "*", "manifest.yaml"))
	if len(cases) == 0 {
		t.Logf("no upstream corpus at %s: checking the examples only", corpus)
	}
	for _, f := range append(examples, cases...) {
		var c struct{ Facts map[string]any }
		if b, err := os.ReadFile(filepath.Join(filepath.Dir(f), "case.json")); err == nil {
			if err := json.Unmarshal(b, &c); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := graph.Load([]string{f}, graph.Data{Facts: c.Facts}.Options()); err != nil {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = src
	}
	return out
}

func TestManifestSchemaAcceptsWhatCCMAccepts(t *testing.T) {
	sch := schematest.Compile(t, schema.Manifest())
	all := accepted(t)
	if len(all) == 0 {
		t.Fatal("no manifest to check")
	}
	t.Logf("%d manifests ccm accepts", len(all))
	for f, src := range all {
		doc, ok := instance(t, src)
		if !ok {
			continue
		}
		if err := sch.Validate(doc); err != nil {
			t.Errorf("%s: ccm accepts it, the schema does not: %v", f, err)
		}
	}
}

func TestManifestSchemaRejects(t *testing.T) {
	sch := schematest.Compile(t, schema.Manifest())
	tests := []struct{ name, src string }{
		{"unknown property", "ccm: {resources: [{exec: [{/bin/true: {refresh_only: true}}]}]}"},
		{"unknown type", "ccm: {resources: [{nosuch: [{x: {}}]}]}"},
		{"unknown top-level key", "ccm: {resources: [{exec: [{/bin/true: {}}]}]}\nfoo: 1"},
		{"unknown ccm key", "ccm: {bogus: 1, resources: [{exec: [{/bin/true: {}}]}]}"},
		{"two types in one block", "ccm: {resources: [{exec: [{/bin/true: {}}], file: [{/tmp/x: {ensure: absent}}]}]}"},
		{"bad ensure", "ccm: {resources: [{file: [{/tmp/x: {ensure: sideways}}]}]}"},
		{"wrong kind", "ccm: {resources: [{exec: [{/bin/true: {refreshonly: [1]}}]}]}"},
		{"subscribe on a type without refreshes", "ccm: {resources: [{file: [{/tmp/x: {ensure: absent, subscribe: [exec#a]}}]}]}"},
		{"single map without name", "ccm: {resources: [{package: {ensure: present}}]}"},
		{"no resources", "ccm: {pre_message: hi}"},
		{"unknown control key", "ccm: {resources: [{exec: [{/bin/true: {control: {when: x}}}]}]}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, _ := instance(t, []byte(tt.src))
			if err := sch.Validate(doc); err == nil {
				t.Fatalf("the schema accepts %s", tt.src)
			}
		})
	}
}

func TestManifestSchemaTemplates(t *testing.T) {
	sch := schematest.Compile(t, schema.Manifest())
	src := `ccm:
  resources:
    - service:
        - "{{ Data.name }}":
            enable: "{{ Data.enable }}"
            ensure: "${ Data.ensure }"
    - file:
        - /tmp/x:
            ensure: present
            owner: root
            group: root
            mode: "{{ Data.mode }}"
`
	doc, _ := instance(t, []byte(src))
	if err := sch.Validate(doc); err != nil {
		t.Fatalf("templated values rejected: %v", err)
	}
}

func TestRequestSchema(t *testing.T) {
	sch := schematest.Compile(t, schema.Request())
	tests := []struct {
		name, src string
		ok        bool
	}{
		{"upstream's package example", `{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "package", "properties": {"name": "nginx", "ensure": "present"}}`, true},
		{"upstream's file example", `{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "file", "properties": {"name": "/etc/motd", "ensure": "present", "content": "Welcome\n", "owner": "root", "group": "root", "mode": "0644"}}`, true},
		{"yaml service", "protocol: io.choria.ccm.v1.resource.ensure.request\ntype: service\nproperties:\n  name: nginx\n  ensure: running\n", true},
		{"wrong protocol", `{"protocol": "wrong.protocol", "type": "package", "properties": {"name": "nginx"}}`, false},
		{"missing type", `{"protocol": "io.choria.ccm.v1.resource.ensure.request", "properties": {"name": "nginx"}}`, false},
		{"missing name", `{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "package", "properties": {"ensure": "present"}}`, false},
		{"unknown property", `{"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "package", "properties": {"name": "x", "version": "1"}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, _ := instance(t, []byte(tt.src))
			err := sch.Validate(doc)
			if (err == nil) != tt.ok {
				t.Fatalf("valid = %v, want %v (%v)", err == nil, tt.ok, err)
			}
		})
	}
}

// TestDescriptions checks every property carries its help, which editors
// show on hover.
func TestDescriptions(t *testing.T) {
	b, err := json.Marshal(schema.Manifest())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"description":""`) {
		t.Fatal("a property has an empty description")
	}
}
