package resources

import "slices"

// Named returns the registered type called name, or the one that takes
// name as an alias (Type.Aliases: pkg, svc), as the command line accepts
// either.
func Named(name string) (Type, bool) {
	if t, ok := Lookup(name); ok {
		return t, true
	}
	for _, n := range TypeNames() {
		if t, _ := Lookup(n); slices.Contains(t.Aliases, name) {
			return t, true
		}
	}
	return Type{}, false
}

// Inspectable lists, sorted, the types that report the state of a thing
// (Type.Inspect), for `ccm status TYPE NAME`.
func Inspectable() []string {
	var out []string
	for _, n := range TypeNames() {
		if t, _ := Lookup(n); t.Inspect != nil {
			out = append(out, n)
		}
	}
	return out
}
