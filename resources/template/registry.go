package template

import (
	"fmt"

	"github.com/reactive-ccm/ccm/resources/registration"
)

// registrations implements registrations(cluster, protocol, service,
// address): the registry's entries those select, "*" matching anything,
// sorted by address, then port. The query is recorded first, for the
// resource the evaluation renders for (see Scope).
func (t *Templates) registrations(b *budget, args ...any) (any, error) {
	if err := arity("registrations(cluster, protocol, service, address)", args, 4); err != nil {
		return nil, err
	}
	s, err := stringArgs("registrations", args, "the cluster", "the protocol", "the service", "the address")
	if err != nil {
		return nil, err
	}
	if t.env.Registry == nil {
		return nil, fmt.Errorf("%w: run with --registration STREAM (ccm apply -R), or the agent's registration setting", ErrNoRegistry)
	}
	f := registration.Filter{Cluster: s[0], Protocol: s[1], Service: s[2], Address: s[3]}
	if b.lookups != nil {
		b.lookups.Add(f.Subject(), f.Matches)
	}
	es, err := t.env.Registry.Lookup(f)
	if err != nil {
		return nil, fmt.Errorf("registrations(%s): %w", f, err)
	}
	if b.lookups != nil {
		b.lookups.Found(f.Subject(), es.Digest())
	}
	return es, b.charge(sizeOf(es, b.lim.value+1))
}
