package resourcetest_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"go.yaml.in/yaml/v3"
)

func TestYAMLNodeIsWhatTheDocumentHolds(t *testing.T) {
	for src, kind := range map[string]yaml.Kind{"a: 1": yaml.MappingNode, "[1, 2]": yaml.SequenceNode, "x": yaml.ScalarNode, "": yaml.MappingNode} {
		if n := resourcetest.YAMLNode(t, src); n.Kind != kind {
			t.Errorf("YAMLNode(%q) is of kind %v, want %v", src, n.Kind, kind)
		}
	}
	doc := resourcetest.YAMLDoc(t, "a: 1")
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Content[0].Value != "a" {
		t.Fatalf("YAMLDoc = %+v, want the document holding a: 1", doc)
	}
}
