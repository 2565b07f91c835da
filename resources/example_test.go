package resources_test

import (
	"context"
	"fmt"

	"github.com/reactive-ccm/ccm/resources"
	"go.yaml.in/yaml/v3"
)

// greeting is a resource type as a contributor writes one, in a package
// of its own under resources/: a property struct whose tags declare the
// properties, a New that decodes and validates them without touching the
// host, the Resource contract, and one registration from init.
type greetingProps struct {
	Text string `yaml:"text" help:"what the greeting says"`
}

type greeting struct {
	want string
	// said stands in for the host.
	said *string
}

func (g *greeting) Watch() resources.WatchSpec { return resources.WatchSpec{} }

func (g *greeting) Check(context.Context) (resources.Status, error) {
	return resources.Status{Ensure: *g.said, Desired: *g.said == g.want,
		Differences: []resources.Difference{resources.Differs("text", *g.said, g.want)}}, nil
}

func (g *greeting) Apply(_ context.Context, req resources.Request) (resources.Change, error) {
	if req.Noop {
		return resources.Change{Changed: true, NoopMessage: "Would have said " + g.want}, nil
	}
	*g.said = g.want
	return resources.Change{Changed: true}, nil
}

var said string

func init() {
	resources.Register(resources.Type{
		Name: "greeting", Props: greetingProps{}, Help: "says something", NameHelp: "whom to greet",
		New: func(spec *resources.Spec) (resources.Instance, error) {
			// Every problem is reported at once: the decoding's, then
			// the type's own.
			p, errs := resources.DecodeProps[greetingProps](spec)
			if !spec.Has("text") {
				errs.Addf(spec.Pos, "%s: text is required", spec.ID())
			}
			if err := errs.Err(); err != nil {
				return resources.Instance{}, err
			}
			return resources.Instance{Resource: &greeting{want: p.Text + ", " + spec.Name, said: &said}, Ensure: "present"}, nil
		},
	})
}

// build builds a greeting named name from props, a YAML mapping, as the
// graph does from a manifest.
func build(name, props string) (resources.Instance, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(props), &doc); err != nil {
		return resources.Instance{}, err
	}
	t, _ := resources.Lookup("greeting")
	return t.Build(&resources.Spec{Type: "greeting", Name: name, Props: doc.Content[0],
		Pos: resources.Pos{File: "manifest.yaml", Line: 3, Col: 7}, Templates: resources.Literal{}})
}

// ExampleRegister registers a type (above, in init) and builds and
// converges a resource of it, as the graph and the engine do.
func ExampleRegister() {
	said = ""
	t, _ := resources.Lookup("greeting")
	for _, p := range t.Properties() {
		fmt.Printf("property %s: %s\n", p.Name, p.Help)
	}
	if _, err := build("world", "txt: hello"); err != nil {
		fmt.Println(err)
	}
	inst, err := build("world", "text: hello")
	if err != nil {
		panic(err)
	}
	out, err := resources.Converge(context.Background(), inst.Resource, false, false)
	fmt.Println(out.Before.Reason(), "| changed:", out.Change.Changed, "| now:", said, "| error:", err)
	out, _ = resources.Converge(context.Background(), inst.Resource, false, false)
	fmt.Println("again, applied:", out.Applied)
	// Output:
	// property text: what the greeting says
	// manifest.yaml:1:1: unknown property "txt" for greeting#world; did you mean "text"?
	// manifest.yaml:3:7: greeting#world: text is required
	// text "" → hello, world | changed: true | now: hello, world | error: <nil>
	// again, applied: false
}
