package graph_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
)

// BenchmarkLoadTemplated loads 10,000 resources whose properties all hold
// templates, with hiera data and facts: the cost templates add to parsing.
func BenchmarkLoadTemplated(b *testing.B) {
	var m strings.Builder
	m.WriteString("data: {port: 80, name: web}\nhierarchy: {order: [\"role:${ lookup('facts.role') }\"], merge: deep}\n")
	m.WriteString("overrides: {role:web: {port: 8080}}\nccm:\n  resources:\n    - probe:\n")
	m.WriteString("        - defaults: {port: \"${ Data.port }\", later: \"${ Data.name }\"}\n")
	for i := range 10000 {
		fmt.Fprintf(&m, "        - r%d: {text: \"${ Facts.hostname }-%d {{ lookup('data.name') }}\"}\n", i, i)
	}
	dir := b.TempDir()
	file := dir + "/m.yaml"
	writeFile(b, file, m.String())
	for b.Loop() {
		if _, err := graph.Load([]string{file}, linuxWeb.Options()); err != nil {
			b.Fatal(err)
		}
	}
}
