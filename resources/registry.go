package resources

import (
	"fmt"
	"sort"
	"sync"
)

// Type describes one resource type.
type Type struct {
	// Name is the manifest key of the type ("file", "exec").
	Name string
	// Subscribes is true when resources of this type accept `subscribe`
	// and consume refreshes in Apply.
	Subscribes bool
	// Redact, when set, removes secrets from the properties a report
	// shows (graph.Vertex.Properties): passwords, header values, the
	// credentials in a URL.
	Redact func(props map[string]any)
	// New decodes and validates spec and builds the resource. Problems with
	// the properties are returned as an ErrorList of positioned errors so
	// the graph can report all of them at once. New must not touch the host.
	New func(spec *Spec) (Instance, error)
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
