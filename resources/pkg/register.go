package pkg

import (
	"time"

	"fmt"
	"sync"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/pkg/apt"
	"github.com/reactive-ccm/ccm/resources/pkg/dnf"
	"github.com/reactive-ccm/ccm/resources/pkg/manager"
)

func init() {
	resources.Register(resources.Type{Name: "package", New: build, Props: properties{}, Inspect: inspect, Aliases: []string{"pkg"},
		Help: "Install, upgrade, downgrade or remove a package with apt or dnf", NameHelp: "the package's name",
		Timeout: 15 * time.Minute})
}

// provider pairs a provider's description with the one Manager every
// package resource of the process shares, made on first use.
type provider struct {
	resources.Provider
	manager func() manager.Manager
}

var providers = []provider{
	{
		Provider: resources.Provider{Name: apt.Name, Priority: 1, Usable: resources.NeedsCommands("apt-get", "apt-cache", "dpkg-query")},
		manager:  sync.OnceValue(func() manager.Manager { return apt.New(apt.Options{}) }),
	},
	{
		Provider: resources.Provider{Name: dnf.Name, Priority: 1, Usable: resources.NeedsCommands("dnf", "rpm")},
		manager:  sync.OnceValue(func() manager.Manager { return dnf.New(dnf.Options{}) }),
	},
}

func descriptors() []resources.Provider {
	out := make([]resources.Provider, len(providers))
	for i, p := range providers {
		out[i] = p.Provider
	}
	return out
}

// build decodes and validates a package resource and picks its provider:
// the one named by provider, else apt where apt-get is found, else dnf.
// On a host with neither, the resource fails when it runs, not when the
// manifest is read.
func build(spec *resources.Spec) (resources.Instance, error) {
	var p properties
	var errs resources.ErrorList
	decodeErr := spec.Decode(&p)
	errs.Add(spec.Pos, decodeErr)
	validate(spec, p, decodeErr == nil, &errs)
	if err := errs.Err(); err != nil {
		return resources.Instance{}, err
	}
	inst := resources.Instance{Ensure: p.Ensure}
	name, err := resources.SelectProvider(p.Provider, descriptors())
	inst.Provider = name
	if err != nil {
		inst.Resource = resources.Unusable(fmt.Errorf("%s: %w", spec.ID(), err))
		return inst, nil
	}
	m := managerNamed(name)
	m.Track(spec.Name)
	inst.Resource = &resource{name: spec.Name, ensure: p.Ensure, m: m}
	return inst, nil
}

func managerNamed(name string) manager.Manager {
	for _, p := range providers {
		if p.Name == name {
			return p.manager()
		}
	}
	panic("pkg: SelectProvider chose unknown provider " + name)
}
