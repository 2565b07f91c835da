package template

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/CloudyKit/jet/v6"
)

// jetKey identifies a parsed Jet template.
type jetKey struct{ name, body, left, right string }

var (
	// jetSets holds one Jet set per delimiter pair.
	jetSets bounded[[2]string, *jet.Set]
	// jetTemplates caches parsed and checked templates; a *jet.Template is
	// safe for concurrent execution.
	jetTemplates bounded[jetKey, *jet.Template]
)

// Jet renders body, a Jet template named name (in errors) with the given
// delimiters. It sees the variables facts, data and environ (and their
// capitalised spellings), the same map as its context (`.Data.x`), and the
// functions lookup, readFile, file and template. Unlike upstream CCM, the
// output is not HTML-escaped: it is configuration, not a web page.
//
// A render has the budget of one evaluation: its output, what the
// functions it calls make, and ints() loops are metered. Templates that
// yield blocks recursively or use try are refused when parsed: recursion
// would exhaust the stack, and try would catch a budget error.
func (t *Templates) Jet(name, body, left, right string) (string, error) {
	return t.render(newBudget(t.lim), name, body, left, right)
}

func (t *Templates) render(b *budget, name, body, left, right string) (string, error) {
	tpl, err := jetTemplates.get(jetKey{name, body, left, right}, func() (*jet.Template, error) {
		set, err := jetSets.get([2]string{left, right}, func() (*jet.Set, error) {
			return jet.NewSet(jet.NewInMemLoader(), jet.WithDelims(left, right), jet.WithSafeWriter(nil)), nil
		})
		if err != nil {
			return nil, err
		}
		tpl, err := set.Parse(name, body)
		if err != nil {
			return nil, err
		}
		return tpl, checkJet(tpl)
	})
	if err != nil {
		return "", fmt.Errorf("jet: %w", err)
	}
	out := &jetWriter{b: b}
	if err := tpl.Execute(out, t.jetVars(b), t.Vars()); err != nil {
		// Errors raised by functions carry no template name.
		return "", &jetError{name: name, err: err}
	}
	return out.sb.String(), nil
}

// jetError is a render that failed while running: described without the
// values Jet's messages may quote, as ExprError is.
type jetError struct {
	name string
	err  error
}

func (e *jetError) Error() string { return "jet " + e.name + ": " + describe(e.err) }

func (e *jetError) Unwrap() error { return e.err }

// jetWriter collects a render's output under its budget. Jet ignores
// what Write returns, so the budget error is raised as a panic, which
// Execute turns into its error.
type jetWriter struct {
	b  *budget
	sb strings.Builder
}

func (w *jetWriter) Write(p []byte) (int, error) {
	err := w.b.allow(int64(w.sb.Len() + len(p)))
	if err == nil {
		err = w.b.charge(int64(len(p)))
	}
	if err != nil {
		panic(err)
	}
	return w.sb.Write(p)
}

// jetVars are the variables and functions a Jet render sees: ours, and
// bounded replacements of Jet's repeat, replace, split and ints, all
// spending b.
func (t *Templates) jetVars(b *budget) jet.VarMap {
	vars := jet.VarMap{}
	for _, n := range variableNames {
		vars.Set(n, t.bound().vars[n])
	}
	for name, fn := range t.jetFunctions(b) {
		vars.SetFunc(name, fn)
	}
	for _, name := range []string{"repeat", "replace", "split"} {
		vars.SetFunc(name, jetFunc(bind(b, builtins[name])))
	}
	vars.SetFunc("ints", jetInts(b))
	return vars
}

// Functions are the template functions for other engines, such as
// scaffold's Go templates: lookup, readFile, file, template and jet. Each
// returns a value and an error, which Go templates accept as they are;
// each call has the budget of one evaluation.
func (t *Templates) Functions() map[string]func(args ...any) (any, error) {
	return t.functionsWith(func() *budget { return newBudget(t.lim) })
}

// functionsWith is Functions, each call with the budget newB makes.
func (t *Templates) functionsWith(newB func() *budget) map[string]func(args ...any) (any, error) {
	plain, fns := full.functions(t)
	out := make(map[string]func(args ...any) (any, error), len(plain)+len(fns))
	for name, fn := range plain {
		out[name] = fn
	}
	for name, fn := range fns {
		out[name] = func(args ...any) (any, error) { return fn(newB(), args...) }
	}
	return out
}

// JetFunctions are Functions for Jet templates, without jet itself.
func (t *Templates) JetFunctions() map[string]jet.Func { return jetFuncs(t.Functions()) }

func jetFuncs(fns map[string]func(args ...any) (any, error)) map[string]jet.Func {
	out := map[string]jet.Func{}
	for name, fn := range fns {
		if name != "jet" {
			out[name] = jetFunc(fn)
		}
	}
	return out
}

// jetFunctions are JetFunctions spending b.
func (t *Templates) jetFunctions(b *budget) map[string]jet.Func {
	plain, fns := full.functions(t)
	out := map[string]jet.Func{}
	for name, fn := range plain {
		out[name] = jetFunc(fn)
	}
	for name, fn := range fns {
		if name != "jet" {
			out[name] = jetFunc(bind(b, fn))
		}
	}
	return out
}

// bind gives a metered function its budget.
func bind(b *budget, fn metered) function {
	return func(args ...any) (any, error) { return fn(b, args...) }
}

// jetFunc adapts a template function to Jet's calling convention.
func jetFunc(fn function) jet.Func {
	return func(a jet.Arguments) reflect.Value {
		args := make([]any, a.NumOfArguments())
		for i := range args {
			if v := a.Get(i); v.IsValid() {
				args[i] = v.Interface()
			}
		}
		out, err := fn(args...)
		if err != nil {
			// Jet's Execute returns a panicked error as it is, so its
			// sentinels still match.
			panic(err)
		}
		return reflect.ValueOf(out)
	}
}

// jetInts replaces Jet's ints(from, to): the same loop over from..to-1,
// each turn charged to b, so a loop of a billion turns stops at the
// budget.
func jetInts(b *budget) jet.Func {
	return func(a jet.Arguments) reflect.Value {
		var from, to int64
		// Jet's parse error prints the argument, a value: not shown.
		if err := a.ParseInto(&from, &to); err != nil {
			a.Panicf("ints: takes two integers, from and to")
		}
		if to <= from {
			a.Panicf("ints: from must be smaller than to")
		}
		return reflect.ValueOf(&meteredInts{b: b, i: -1, val: from - 1, to: to})
	}
}

// meteredInts is the loop of jetInts.
type meteredInts struct {
	b          *budget
	i, val, to int64
}

func (r *meteredInts) Range() (reflect.Value, reflect.Value, bool) {
	if err := r.b.charge(8); err != nil {
		panic(err)
	}
	r.i++
	r.val++
	return reflect.ValueOf(r.i), reflect.ValueOf(r.val), r.val == r.to
}

func (r *meteredInts) ProvidesIndex() bool { return true }
