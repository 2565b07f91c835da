package group

import (
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/accounts"
)

// Ensure and membership values.
const (
	Present = "present"
	Absent  = "absent"
	Exact   = "exact"
	Minimum = "minimum"
)

// props are the group resource's manifest properties.
type props struct {
	Ensure     string   `yaml:"ensure" help:"present (the default) or absent" enum:"present,absent" cli:"arg=1,default=present"`
	GID        *int     `yaml:"gid" help:"the group id; unset, the tools choose one at creation"`
	System     bool     `yaml:"system" help:"create a system group (an id from the system range); only at creation"`
	Members    []string `yaml:"members" help:"user names in the group"`
	Membership string   `yaml:"membership" help:"exact (the default): members is the whole list; minimum: members must be in, others may be too" enum:"exact,minimum"`
	Provider   string   `yaml:"provider" help:"the provider: groupadd (shadow's tools)" enum:"groupadd"`
}

// validate reports every problem with the properties.
func validate(spec *resources.Spec, p *props, errs *resources.ErrorList) {
	accounts.CheckName(spec, errs, "group")
	spec.CheckOneOf(errs, "ensure", p.Ensure, Present, Absent)
	accounts.CheckID(spec, errs, "gid", p.GID)
	spec.CheckOneOf(errs, "membership", p.Membership, Exact, Minimum)
	if !spec.Has("members") {
		spec.CheckOnlyWith(errs, "members", "membership")
	}
	accounts.CheckNames(spec, errs, "members", p.Members, "user")
	if p.Ensure == Absent {
		spec.CheckOnlyWith(errs, "ensure: present", "gid", "system", "members")
	}
	spec.CheckProvider(errs, p.Provider, providers)
}
