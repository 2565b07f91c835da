package accounts

import "github.com/reactive-ccm/ccm/resources"

// CheckName adds an error to errs when the resource's name is not a
// valid name of kind ("user", "group").
func CheckName(spec *resources.Spec, errs *resources.ErrorList, kind string) {
	if !ValidName.MatchString(spec.Name) {
		errs.Addf(spec.Pos, "%s: %q is not a %s name (letters, digits, _ . -, at most 32)", spec.ID(), spec.Name, kind)
	}
}

// CheckID adds an error at key to errs when id is set and is not a
// user or group id the databases hold (0 to 2^32-2; 2^32-1 means none).
func CheckID(spec *resources.Spec, errs *resources.ErrorList, key string, id *int) {
	if id != nil && (*id < 0 || int64(*id) >= 1<<32-1) {
		errs.Addf(spec.KeyPos(key), "%s: %d is out of range", key, *id)
	}
}

// CheckNames adds an error at key to errs for each of names that is not
// a valid name of kind ("user", "group") and for each listed twice.
func CheckNames(spec *resources.Spec, errs *resources.ErrorList, key string, names []string, kind string) {
	seen := map[string]bool{}
	for i, n := range names {
		switch {
		case !ValidName.MatchString(n):
			errs.Addf(spec.KeyPos(key), "%s: item %d, %q, is not a %s name", key, i+1, n, kind)
		case seen[n]:
			errs.Addf(spec.KeyPos(key), "%s: %q is listed twice", key, n)
		}
		seen[n] = true
	}
}
