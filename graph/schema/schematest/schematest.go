// Package schematest compiles the JSON Schemas ccm generates (package
// schema's, and the ensure response's), for tests to validate documents
// against.
package schematest

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Compile compiles s, a schema as Go maps and lists, failing the test
// when it is not a schema.
func Compile(tb testing.TB, s any) *jsonschema.Schema {
	tb.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		tb.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		tb.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("schema.json", doc); err != nil {
		tb.Fatal(err)
	}
	sch, err := c.Compile("schema.json")
	if err != nil {
		tb.Fatalf("the generated schema does not compile: %v", err)
	}
	return sch
}
