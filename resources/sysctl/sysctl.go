package sysctl

import (
	"context"
	"fmt"
	"time"

	"github.com/reactive-ccm/ccm/resources"
)

// providers are the ways of setting parameters; procfs is the only one.
var providers = []resources.Provider{{Name: "procfs", Priority: 1, Usable: resources.Always}}

func init() {
	resources.Register(resources.Type{Name: "sysctl", New: New, Props: props{}, Inspect: inspect,
		Help:     "Hold a kernel parameter at a value through /proc/sys, and optionally persist it for boot",
		NameHelp: "the parameter, as sysctl names it (net.ipv4.ip_forward)"})
}

// sysctl is one managed kernel parameter.
type sysctl struct {
	key string
	// value is the wanted value, normalized.
	value string
	// persist is the drop-in written, or "" when the value is not
	// persisted.
	persist string
	poll    time.Duration
}

var _ resources.Resource = (*sysctl)(nil)

// New builds a sysctl resource from its manifest properties.
func New(spec *resources.Spec) (resources.Instance, error) {
	p, errs := resources.DecodeProps[props](spec)
	poll := validate(spec, p, errs)
	if err := errs.Err(); err != nil {
		return resources.Instance{}, err
	}
	spec.Secrets.Add(p.Value)
	s := &sysctl{key: spec.Name, value: normalize(p.Value), poll: poll}
	inst := resources.Instance{Resource: s, Provider: providers[0].Name, Ensure: s.value, Independent: !p.Persist}
	if p.Persist {
		s.persist = dropIn(s.key)
		inst.Uses = []string{s.persist}
		inst.Owns = []string{s.persist}
		inst.Claims = []resources.Claim{{Path: s.persist, Whole: true, What: "persist"}}
	}
	return inst, nil
}

// Watch polls the parameter, which procfs reports no change of, and
// watches the drop-in.
func (s *sysctl) Watch() resources.WatchSpec {
	spec := resources.WatchSpec{Poll: s.poll}
	if s.persist != "" {
		spec.Paths = []string{s.persist}
	}
	return spec
}

// Check reads the parameter and, with persist, the drop-in.
func (s *sysctl) Check(context.Context) (resources.Status, error) {
	have, err := read(s.key)
	if err != nil {
		return resources.Status{}, err
	}
	st := resources.Status{Ensure: have}
	if have != s.value {
		st.Differences = append(st.Differences, resources.Differs("value", have, s.value))
	}
	if s.persist != "" {
		d, err := s.persisted()
		if err != nil {
			return resources.Status{}, err
		}
		if d != nil {
			st.Differences = append(st.Differences, *d)
		}
	}
	st.Desired = len(st.Differences) == 0
	return st, nil
}

// Apply writes the value, then the drop-in, as they differ.
func (s *sysctl) Apply(ctx context.Context, req resources.Request) (resources.Change, error) {
	have, err := read(s.key)
	if err != nil {
		return resources.Change{}, err
	}
	var d *resources.Difference
	if s.persist != "" {
		if d, err = s.persisted(); err != nil {
			return resources.Change{}, err
		}
	}
	if have == s.value && d == nil {
		return resources.Change{}, nil
	}
	if req.Noop {
		return resources.Change{Changed: true, NoopMessage: s.noopMessage(have != s.value, d != nil)}, nil
	}
	if have != s.value {
		if err := write(s.key, s.value); err != nil {
			return resources.Change{}, err
		}
	}
	if d != nil {
		if err := s.writeDropIn(ctx); err != nil {
			return resources.Change{}, err
		}
	}
	return resources.Change{Changed: true}, nil
}

// noopMessage says what an apply would have done.
func (s *sysctl) noopMessage(value, persist bool) string {
	set := fmt.Sprintf("Would have set %s to %s", s.key, s.value)
	switch {
	case value && persist:
		return set + " and written " + s.persist
	case value:
		return set
	}
	return "Would have written " + s.persist
}
