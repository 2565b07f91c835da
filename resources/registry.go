package resources

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"time"
)

// Type describes one resource type.
type Type struct {
	// Name is the manifest key of the type ("file", "exec").
	Name string
	// Subscribes is true when resources of this type accept `subscribe`
	// and consume refreshes in Apply.
	Subscribes bool
	// Undoable is true when resources of this type implement Undoable,
	// so a change that breaks a subscriber can be rolled back.
	Undoable bool
	// Redact, when set, removes secrets from the properties a report
	// shows (graph.Vertex.Properties): passwords, header values, the
	// credentials in a URL.
	Redact func(props map[string]any)
	// New decodes and validates spec and builds the resource. Problems with
	// the properties are returned as an ErrorList of positioned errors so
	// the graph can report all of them at once. New must not touch the host.
	// Callers go through Build.
	New func(spec *Spec) (Instance, error)
	// Props is a zero value of the type's property struct: its fields and
	// tags declare the properties (see Property), and New decodes into it.
	Props any
	// Help says in one line what the type manages, for `ccm ensure`.
	Help string
	// NameHelp says what the resource's name is ("absolute path of the file").
	NameHelp string
	// Aliases are other names `ccm ensure` accepts for the type (pkg).
	Aliases []string
	// ManifestOnly types have no `ccm ensure` command and no ensure request.
	ManifestOnly bool
	// Timeout bounds one Check or one Apply of the type, unless the
	// resource is Bounded; zero leaves the engine's default.
	Timeout time.Duration
	// Inspect, when set, reports the current state of the thing called
	// name as the type's provider sees it, for `ccm status`. It never
	// changes the host.
	Inspect func(ctx context.Context, name string) (any, error)
}

// Build builds the resource spec describes through t.New; Spec.Decode
// then insists on t's property struct, so the properties the schema and
// the command line offer are the ones decoded. What the spec's templates
// resolve, now and when the resource runs, is remembered in
// spec.Templated and left out of the errors Build returns.
func (t Type) Build(spec *Spec) (Instance, error) {
	if t.Props != nil {
		spec.props = reflect.TypeOf(t.Props)
	}
	spec.common = commonKeys{built: true, subscribes: t.Subscribes, undoable: t.Undoable}
	if spec.Templated == nil {
		spec.Templated = &Templated{}
	}
	inst, err := t.New(spec)
	return inst, spec.Templated.RedactErr(err)
}

// Properties lists the type's own properties, in declaration order.
func (t Type) Properties() []Property {
	if t.Props == nil {
		return nil
	}
	return PropertiesOf(t.Props)
}

var (
	registryMu sync.RWMutex
	registry   = map[string]Type{}
)

// Register makes a type available to manifests. It is called from the
// type's package init and panics on a duplicate name, which is a
// programming error.
func Register(t Type) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[t.Name]; dup {
		panic(fmt.Sprintf("resources: type %q registered twice", t.Name))
	}
	registry[t.Name] = t
}

// Lookup returns the registered type with this name.
func Lookup(name string) (Type, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	t, ok := registry[name]
	return t, ok
}

// TypeNames lists the registered type names in sorted order.
func TypeNames() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
