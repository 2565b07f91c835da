package resources

import (
	"slices"
	"strings"
)

// CheckOneOf adds an error at key to errs when the manifest sets key to
// a value other than allowed, which the error lists in the order given.
func (s *Spec) CheckOneOf(errs *ErrorList, key, value string, allowed ...string) {
	if s.Has(key) && !slices.Contains(allowed, value) {
		errs.Addf(s.KeyPos(key), "%s: %q is not one of %s", key, value, strings.Join(allowed, ", "))
	}
}

// CheckOnlyWith adds an error to errs at each of keys the manifest sets:
// the caller found them out of place, valid only with what
// ("ensure: present", "block").
func (s *Spec) CheckOnlyWith(errs *ErrorList, what string, keys ...string) {
	for _, key := range keys {
		if s.Has(key) {
			errs.Addf(s.KeyPos(key), "%s: only valid with %s", key, what)
		}
	}
}

// CheckProvider adds an error at provider to errs when requested names
// none of providers.
func (s *Spec) CheckProvider(errs *ErrorList, requested string, providers []Provider) {
	if err := KnownProvider(requested, providers); err != nil {
		errs.Addf(s.KeyPos("provider"), "provider: %v", err)
	}
}
