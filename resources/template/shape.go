package template

// shape is the set of names an expression environment offers. Programs
// are compiled once per shape and expression text.
type shape uint8

const (
	// full offers every variable and function.
	full shape = iota
	// data offers the variables and lookup() only, for hiera data.
	data
)

// function is the Go type of every template function.
type function = func(args ...any) (any, error)

// variableNames are the variables every shape offers.
var variableNames = []string{"Facts", "facts", "Data", "data", "Environ", "environ"}

// functions returns the functions of this shape bound to t.
func (sh shape) functions(t *Templates) map[string]function {
	fns := map[string]function{"lookup": t.lookup}
	if sh == full {
		fns["readFile"] = t.readFile
		fns["file"] = t.readFile
		fns["template"] = t.template
		fns["jet"] = t.jet
		fns["kvGet"] = t.kvGet
	}
	return fns
}

// bind builds the expression environment of t.
func (sh shape) bind(t *Templates) map[string]any {
	vars := map[string]any{
		"Facts": t.env.Facts, "facts": t.env.Facts,
		"Data": t.env.Data, "data": t.env.Data,
		"Environ": t.env.Environ, "environ": t.env.Environ,
	}
	for name, fn := range sh.functions(t) {
		vars[name] = fn
	}
	return vars
}

// prototype is an environment with this shape's names and Go types, to
// compile against. Only types matter to the compiler, so any Templates of
// the shape serves.
func (sh shape) prototype() map[string]any {
	return build(Env{}, sh, 0).vars
}
