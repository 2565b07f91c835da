package template

import "fmt"

// shape is the set of names an expression environment offers. Programs
// are compiled once per shape and expression text.
type shape uint8

const (
	// full offers every variable and function.
	full shape = iota
	// data offers the variables and lookup() only, for hiera data.
	data
)

// function is the Go type of every template function as expr and other
// engines call it.
type function = func(args ...any) (any, error)

// metered is a template function that spends the budget of the
// evaluation that calls it.
type metered = func(b *budget, args ...any) (any, error)

// variableNames are the variables every shape offers.
var variableNames = []string{"Facts", "facts", "Data", "data", "Environ", "environ"}

// functions returns the functions of this shape bound to t: lookup, and
// for full the ones that read files and render.
func (sh shape) functions(t *Templates) (map[string]function, map[string]metered) {
	plain := map[string]function{"lookup": t.lookup}
	if sh != full {
		return plain, nil
	}
	plain["kvGet"] = t.kvGet
	return plain, map[string]metered{
		"readFile": t.readFile, "file": t.readFile,
		"template": t.template, "jet": t.jet,
		"registrations": t.registrations,
	}
}

// builtins are the bounded replacements of expr's builtins and the
// metering functions of the meter visitor.
var builtins = map[string]metered{
	"repeat": repeat, "replace": replace, "join": join, "split": split,
	"string": toString, "toJSON": toJSON, "__add": add, "__tick": tick,
}

// bind builds the expression environment of t. budgetVar holds a typed
// nil: an evaluation that needs a budget runs with a copy holding its own.
func (sh shape) bind(t *Templates) map[string]any {
	vars := map[string]any{
		"Facts": t.env.Facts, "facts": t.env.Facts,
		"Data": t.env.Data, "data": t.env.Data,
		"Environ": t.env.Environ, "environ": t.env.Environ,
		budgetVar: (*budget)(nil),
	}
	plain, fns := sh.functions(t)
	for name, fn := range plain {
		vars[name] = fn
	}
	for name, fn := range fns {
		vars[name] = fromExpr(fn)
	}
	for name, fn := range builtinVars {
		vars[name] = fn
	}
	return vars
}

// builtinVars are the builtins adapted to expr, made once.
var builtinVars = func() map[string]function {
	out := make(map[string]function, len(builtins))
	for name, fn := range builtins {
		out[name] = fromExpr(fn)
	}
	return out
}()

// fromExpr adapts a metered function to expr, which passes the budget as
// the first argument (see meter).
func fromExpr(fn metered) function {
	return func(args ...any) (any, error) {
		b, ok := args[0].(*budget)
		if !ok || b == nil {
			return nil, fmt.Errorf("%w: called without a budget", ErrArgs)
		}
		return fn(b, args[1:]...)
	}
}

// prototype is an environment with this shape's names and Go types, to
// compile against. Only types matter to the compiler, so any Templates of
// the shape serves: one is made per shape, on first use, and shared (the
// compiler only reads it).
func (sh shape) prototype() map[string]any {
	p, _ := prototypes.get(sh, func() (map[string]any, error) { return build(Env{}, sh, 0).bound().vars, nil })
	return p
}

var prototypes bounded[shape, map[string]any]
