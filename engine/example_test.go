package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/graph"
	_ "github.com/reactive-ccm/ccm/resources/all"
)

// ExampleNew converges a graph once, as `ccm run` does: every vertex is
// checked, what differs is applied, and each run that changed something
// (and each vertex's first) is an event. A second engine on the same
// graph finds everything in order. With Options.Watch, Run would keep
// repairing drift until its context ends.
func ExampleNew() {
	dir, err := os.MkdirTemp("", "ccm-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	manifest := filepath.Join(dir, "manifest.yaml")
	src := fmt.Sprintf(`
- file:
    - %[1]s/conf.d: {ensure: directory, owner: root, group: root, mode: "0755"}
    - %[1]s/conf.d/app.conf: {ensure: present, owner: root, group: root, mode: "0644", content: "port: 8080\n"}
`, dir)
	if err := os.WriteFile(manifest, []byte(src), 0o644); err != nil {
		panic(err)
	}
	g, err := graph.Load([]string{manifest}, graph.Options{})
	if err != nil {
		panic(err)
	}
	show := func(ev *engine.Event) {
		fmt.Printf("%s#%s changed=%v %s\n", ev.Type, strings.TrimPrefix(ev.Name, dir), ev.Changed, ev.Standing)
	}
	for range 2 {
		sum, err := engine.New(g, engine.Options{Events: show}).Run(context.Background())
		fmt.Printf("ok=%v changed=%d err=%v\n", sum.OK(), sum.Changed, err)
	}
	// Output:
	// file#/conf.d changed=true converged
	// file#/conf.d/app.conf changed=true converged
	// ok=true changed=2 err=<nil>
	// file#/conf.d changed=false converged
	// file#/conf.d/app.conf changed=false converged
	// ok=true changed=0 err=<nil>
}
