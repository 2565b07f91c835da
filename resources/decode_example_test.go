package resources_test

import (
	"fmt"

	"github.com/reactive-ccm/ccm/resources"
	"go.yaml.in/yaml/v3"
)

// ExampleDecodeDocument decodes a settings document strictly, as the
// agent's configuration is: every problem at its position, at once, a
// misspelt key with a suggestion.
func ExampleDecodeDocument() {
	var settings struct {
		Interval string   `yaml:"interval"`
		Servers  []string `yaml:"servers"`
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("intervall: 5m\nservers: nats://a:4222\n"), &doc); err != nil {
		panic(err)
	}
	err := resources.DecodeDocument("agent.yaml", "the agent configuration", doc.Content[0], &settings)
	fmt.Println(err)
	// Output:
	// agent.yaml:1:1: unknown property "intervall" for the agent configuration; did you mean "interval"?
	// agent.yaml:2:10: servers: expected a list, got the string "nats://a:4222"
}
