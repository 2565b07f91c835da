package resources

import (
	"context"
	"fmt"
	"os/exec"
	"sort"
	"strings"
)

// Provider describes one way of managing a resource type on a host.
type Provider struct {
	Name string
	// Priority orders automatic selection; lower wins.
	Priority int
	// Usable returns nil when the provider can work on this host, or why
	// it cannot ("apt-get not found in PATH").
	Usable func() error
}

// SelectProvider picks the provider named by requested, or the usable one
// with the lowest priority when requested is empty. An unknown name is a
// manifest error; a known but unusable provider wraps ErrNoSuitableProvider,
// which the type should report when the resource runs rather than reject
// the manifest, so manifests validate on any machine.
func SelectProvider(requested string, providers []Provider) (string, error) {
	if requested != "" {
		for _, p := range providers {
			if p.Name != requested {
				continue
			}
			if err := p.Usable(); err != nil {
				return p.Name, fmt.Errorf("%w: provider %q cannot be used here: %v", ErrNoSuitableProvider, p.Name, err)
			}
			return p.Name, nil
		}
		return "", fmt.Errorf("unknown provider %q; valid providers: %s", requested, providerNames(providers))
	}
	sorted := append([]Provider(nil), providers...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Priority < sorted[j].Priority })
	var why []string
	for _, p := range sorted {
		err := p.Usable()
		if err == nil {
			return p.Name, nil
		}
		why = append(why, p.Name+": "+err.Error())
	}
	return "", fmt.Errorf("%w: %s", ErrNoSuitableProvider, strings.Join(why, "; "))
}

// KnownProvider checks requested against the provider names without
// asking whether any is usable, for validation.
func KnownProvider(requested string, providers []Provider) error {
	if requested == "" {
		return nil
	}
	for _, p := range providers {
		if p.Name == requested {
			return nil
		}
	}
	return fmt.Errorf("unknown provider %q; valid providers: %s", requested, providerNames(providers))
}

func providerNames(providers []Provider) string {
	names := make([]string, len(providers))
	for i, p := range providers {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// Always is a Usable function for providers that work everywhere.
func Always() error { return nil }

// NeedsCommands returns a Usable function that requires every named
// command to be found in PATH.
func NeedsCommands(names ...string) func() error {
	return func() error {
		for _, n := range names {
			if _, err := exec.LookPath(n); err != nil {
				return fmt.Errorf("%s not found in PATH", n)
			}
		}
		return nil
	}
}

// Unusable is a resource that cannot run on this host; every Check reports
// why, so the failure surfaces at run time with the resource's name.
func Unusable(err error) Resource { return unusable{err} }

// IfUsable is r when the provider requested (the best one when "") can
// work on this host, else Unusable with why: a known provider that cannot
// work here leaves the manifest fine and fails the run. Validation has
// checked that requested is known.
func IfUsable(r Resource, requested string, providers []Provider) Resource {
	if _, err := SelectProvider(requested, providers); err != nil {
		return Unusable(err)
	}
	return r
}

type unusable struct{ err error }

func (u unusable) Watch() WatchSpec                               { return WatchSpec{} }
func (u unusable) Check(context.Context) (Status, error)          { return Status{}, u.err }
func (u unusable) Apply(context.Context, Request) (Change, error) { return Change{}, u.err }
