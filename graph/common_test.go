package graph_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
)

// TestCommonPropertiesAreConsumed holds the graph to resources.Common:
// every common property declared there (which the schema and `ccm ensure`
// offer) is taken by the graph, not handed to the type, whose decoder
// would reject it as unknown. The sample values need not make sense
// together (a health check with both a command and rules is refused).
func TestCommonPropertiesAreConsumed(t *testing.T) {
	typ, _ := resources.Lookup("thing")
	var props []string
	for _, p := range typ.CommonProperties() {
		props = append(props, fmt.Sprintf("%s: %s", p.Name, sample(p)))
	}
	src := "ccm:\n  resources:\n    - thing:\n        - a: {}\n        - b: {" + strings.Join(props, ", ") + "}\n"
	if _, err := graph.Load([]string{writeManifest(t, "m.yaml", src)}, graph.Data{}.Options()); err != nil && strings.Contains(err.Error(), "unknown property") {
		t.Fatalf("common properties %v not consumed: %v", props, err)
	}
}

// sample is a valid value of p in flow YAML.
func sample(p resources.Property) string {
	switch p.Kind {
	case resources.KindStrings:
		return "[thing#a]"
	case resources.KindBool:
		return "true"
	case resources.KindObject:
		var fields []string
		for _, f := range p.Fields {
			fields = append(fields, f.Name+": "+sample(f))
		}
		return "{" + strings.Join(fields, ", ") + "}"
	case resources.KindObjects:
		return "[" + sample(resources.Property{Kind: resources.KindObject, Fields: p.Fields}) + "]"
	}
	return "\"true\""
}
