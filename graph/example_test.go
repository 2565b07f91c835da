package graph_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/reactive-ccm/ccm/graph"
	_ "github.com/reactive-ccm/ccm/resources/all"
)

// ExampleLoad compiles a manifest into its graph: one vertex per
// resource, in written order, and the edges that order them. Nothing on
// the host is touched.
func ExampleLoad() {
	dir, err := os.MkdirTemp("", "ccm-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	manifest := filepath.Join(dir, "manifest.yaml")
	src := `
ccm:
  resources:
    - package:
        - nginx: {ensure: present}
    - file:
        - /etc/nginx/nginx.conf:
            ensure: present
            owner: root
            group: root
            mode: "0644"
            content: "worker_processes 4;\n"
    - service:
        - nginx: {ensure: running, enable: true, subscribe: [file#/etc/nginx/nginx.conf]}
`
	if err := os.WriteFile(manifest, []byte(src), 0o644); err != nil {
		panic(err)
	}
	g, err := graph.Load([]string{manifest}, graph.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range g.Vertices {
		fmt.Println(v.ID())
	}
	for _, e := range g.Edges {
		fmt.Printf("%s -> %s (%s)\n", g.Vertices[e.From].ID(), g.Vertices[e.To].ID(), e.Kind)
	}
	// Output:
	// package#nginx
	// file#/etc/nginx/nginx.conf
	// service#nginx
	// file#/etc/nginx/nginx.conf -> service#nginx (subscribe)
	// package#nginx -> file#/etc/nginx/nginx.conf (order)
}
