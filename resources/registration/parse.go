package registration

import (
	"fmt"

	"github.com/reactive-ccm/ccm/resources"
	"go.yaml.in/yaml/v3"
)

// Parse reads the register_when_stable list n of the resource spec
// describes, its templates resolved through the spec's. Every problem is
// reported with its position, all together.
func Parse(spec *resources.Spec, n *yaml.Node) ([]Entry, error) {
	return resources.ParseList(spec, n, "register_when_stable", "entries", parseOne)
}

// parseOne decodes and validates one entry through the strict decoder
// resources use for their own properties.
func parseOne(spec *resources.Spec, item *yaml.Node) (Entry, error) {
	if item.Kind != yaml.MappingNode {
		return Entry{}, fmt.Errorf("%w: expected a map with cluster, service, protocol, address, port and priority", ErrInvalid)
	}
	sub := &resources.Spec{Type: spec.Type, Name: spec.Name, Props: item, Pos: spec.Pos, Dir: spec.Dir, Templates: spec.Templates, Templated: spec.Templated}
	var p resources.RegistrationProps
	if err := sub.Decode(&p); err != nil {
		return Entry{}, err
	}
	e := Entry{Cluster: p.Cluster, Service: p.Service, Protocol: p.Protocol, Address: p.Address, Annotations: p.Annotations}
	if p.Port != nil {
		e.Port = int64(*p.Port)
	}
	if p.Priority != nil {
		e.Priority = int64(*p.Priority)
	}
	if sub.Has("ttl") {
		ttl, err := ParseTTL(p.TTL)
		if err != nil {
			return Entry{}, err
		}
		e.TTL = ttl
	}
	return e, e.Validate()
}
