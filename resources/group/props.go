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
	if !accounts.ValidName.MatchString(spec.Name) {
		errs.Addf(spec.Pos, "%s: %q is not a group name (letters, digits, _ . -, at most 32)", spec.ID(), spec.Name)
	}
	if spec.Has("ensure") && p.Ensure != Present && p.Ensure != Absent {
		errs.Addf(spec.KeyPos("ensure"), "ensure: %q is not one of present, absent", p.Ensure)
	}
	if p.GID != nil && (*p.GID < 0 || int64(*p.GID) >= 1<<32-1) {
		errs.Addf(spec.KeyPos("gid"), "gid: %d is out of range", *p.GID)
	}
	if spec.Has("membership") && p.Membership != Exact && p.Membership != Minimum {
		errs.Addf(spec.KeyPos("membership"), "membership: %q is not one of exact, minimum", p.Membership)
	}
	if spec.Has("membership") && !spec.Has("members") {
		errs.Addf(spec.KeyPos("membership"), "membership: only valid with members")
	}
	seen := map[string]bool{}
	for i, m := range p.Members {
		switch {
		case !accounts.ValidName.MatchString(m):
			errs.Addf(spec.KeyPos("members"), "members: item %d, %q, is not a user name", i+1, m)
		case seen[m]:
			errs.Addf(spec.KeyPos("members"), "members: %q is listed twice", m)
		}
		seen[m] = true
	}
	if p.Ensure == Absent {
		for _, key := range []string{"gid", "system", "members"} {
			if spec.Has(key) {
				errs.Addf(spec.KeyPos(key), "%s: only valid with ensure: present", key)
			}
		}
	}
	if err := resources.KnownProvider(p.Provider, providers); err != nil {
		errs.Addf(spec.KeyPos("provider"), "provider: %v", err)
	}
}
