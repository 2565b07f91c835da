package hiera_test

import (
	"fmt"

	"github.com/reactive-ccm/ccm/graph/hiera"
	"github.com/reactive-ccm/ccm/resources/template"
)

// ExampleResolve resolves a hiera document as a manifest's data is: the
// hierarchy's entries are templates over the facts, and with deep merge
// every matching override is merged over the data in order, lists
// concatenated; an entry whose fact is missing is skipped.
func ExampleResolve() {
	src, err := hiera.Parse("site.yaml", []byte(`
hierarchy:
  order: ["env:{{ lookup('facts.env') }}", "role:{{ lookup('facts.role') }}", "dc:{{ lookup('facts.dc') }}"]
  merge: deep
data:
  log_level: INFO
  packages: [ca-certificates]
  web: {port: 80}
overrides:
  env:prod: {log_level: WARN}
  role:web: {packages: [nginx], web: {tls: true}}
  "dc:": {log_level: DEBUG}
`))
	if err != nil {
		panic(err)
	}
	facts := map[string]any{"env": "prod", "role": "web"}
	data, err := hiera.Resolve(template.NewData(template.Env{Facts: facts}), src)
	if err != nil {
		panic(err)
	}
	fmt.Println(data["log_level"], data["packages"], data["web"])
	// Output:
	// WARN [ca-certificates nginx] map[port:80 tls:true]
}
