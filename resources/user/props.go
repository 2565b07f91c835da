package user

import (
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/accounts"
)

// Ensure and membership values, and expiry's word for none.
const (
	Present = "present"
	Absent  = "absent"
	Exact   = "exact"
	Minimum = "minimum"
	Never   = "never"
)

// props are the user resource's manifest properties.
type props struct {
	Ensure     string   `yaml:"ensure" help:"present (the default) or absent" enum:"present,absent" cli:"arg=1,default=present"`
	UID        *int     `yaml:"uid" help:"the user id; unset, useradd chooses one at creation"`
	GID        string   `yaml:"gid" help:"the primary group, a name or a number; unset, the distribution's default at creation (a group named after the user)"`
	Groups     []string `yaml:"groups" help:"supplementary groups, by name"`
	Membership string   `yaml:"membership" help:"minimum (the default): the user is in groups and may be in others; exact: in groups only" enum:"minimum,exact"`
	Home       string   `yaml:"home" help:"the home directory, an absolute path"`
	ManageHome bool     `yaml:"managehome" help:"create the home with the account, move it when home changes, remove it with the account"`
	Shell      string   `yaml:"shell" help:"the login shell, an absolute path"`
	Comment    string   `yaml:"comment" help:"the comment (GECOS) field: a full name"`
	System     bool     `yaml:"system" help:"create a system account (an id from the system range, no aging); only at creation"`
	Password   string   `yaml:"password" help:"the password hash as /etc/shadow holds it ($y$..., $6$...), or ! to lock; always shown redacted"`
	Expiry     string   `yaml:"expiry" help:"the day the account expires, YYYY-MM-DD, or never"`
	Provider   string   `yaml:"provider" help:"the provider: useradd (shadow's tools)" enum:"useradd"`
}

// redact hides the password hash in the properties reports show.
func redact(props map[string]any) {
	if _, ok := props["password"]; ok {
		props["password"] = resources.Redacted
	}
}

// validate reports every problem with the properties. The password is
// never quoted in its errors.
func validate(spec *resources.Spec, p *props, errs *resources.ErrorList) {
	accounts.CheckName(spec, errs, "user")
	spec.CheckOneOf(errs, "ensure", p.Ensure, Present, Absent)
	accounts.CheckID(spec, errs, "uid", p.UID)
	if spec.Has("gid") && !accounts.ValidName.MatchString(p.GID) {
		errs.Addf(spec.KeyPos("gid"), "gid: %q is not a group name or number", p.GID)
	}
	validateGroups(spec, p, errs)
	for _, k := range []struct{ key, path string }{{"home", p.Home}, {"shell", p.Shell}} {
		if spec.Has(k.key) && (!filepath.IsAbs(k.path) || filepath.Clean(k.path) != k.path || strings.ContainsAny(k.path, ":\n")) {
			errs.Addf(spec.KeyPos(k.key), "%s: %q is not an absolute, clean path", k.key, k.path)
		}
	}
	if strings.ContainsAny(p.Comment, ":\n") {
		errs.Addf(spec.KeyPos("comment"), "comment: must not hold a colon or a newline")
	}
	if spec.Has("password") && !validHash(p.Password) {
		errs.Addf(spec.KeyPos("password"), "password: not a password hash as /etc/shadow holds it ($y$..., $6$..., or ! to lock); never write a clear-text password")
	}
	if spec.Has("expiry") && p.Expiry != Never {
		if _, err := time.Parse(time.DateOnly, p.Expiry); err != nil {
			errs.Addf(spec.KeyPos("expiry"), "expiry: %q is not a day (YYYY-MM-DD) or never", p.Expiry)
		}
	}
	if p.Ensure == Absent {
		spec.CheckOnlyWith(errs, "ensure: present", "uid", "gid", "groups", "home", "shell", "comment", "system", "password", "expiry")
	}
	spec.CheckProvider(errs, p.Provider, providers)
}

func validateGroups(spec *resources.Spec, p *props, errs *resources.ErrorList) {
	spec.CheckOneOf(errs, "membership", p.Membership, Minimum, Exact)
	if !spec.Has("groups") {
		spec.CheckOnlyWith(errs, "groups", "membership")
	}
	accounts.CheckNames(spec, errs, "groups", p.Groups, "group")
}

// validHash accepts what the password field of /etc/shadow holds: a
// crypt hash, or a lock (! or *, before a hash or alone).
func validHash(h string) bool {
	if strings.ContainsAny(h, ":\n\r \t") {
		return false
	}
	h = strings.TrimLeft(h, "!")
	return h == "" || h == "*" || strings.HasPrefix(h, "$") && strings.Count(h, "$") >= 3
}

// expiryDays is expiry as /etc/shadow counts it: days since 1970-01-01,
// -1 for never.
func expiryDays(expiry string) int {
	if expiry == Never {
		return -1
	}
	t, _ := time.Parse(time.DateOnly, expiry)
	return int(t.Unix() / 86400)
}

// expiryDate is a count of days as a date, for messages.
func expiryDate(days int) string {
	if days < 0 {
		return Never
	}
	return time.Unix(int64(days)*86400, 0).UTC().Format(time.DateOnly)
}

// gidOf resolves a group name or number to a gid; ok is false for a
// name /etc/group does not hold.
func gidOf(group string) (gid int, ok bool, err error) {
	if n, err := strconv.Atoi(group); err == nil {
		return n, true, nil
	}
	g, err := accounts.LookupGroup(group)
	if g == nil || err != nil {
		return 0, false, err
	}
	return g.GID, true, nil
}
