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
	// jetTemplates caches parsed templates; a *jet.Template is safe for
	// concurrent execution.
	jetTemplates bounded[jetKey, *jet.Template]
)

// Jet renders body, a Jet template named name (in errors) with the given
// delimiters. It sees the variables facts, data and environ (and their
// capitalised spellings), the same map as its context (`.Data.x`), and the
// functions lookup, readFile, file and template. Unlike upstream CCM, the
// output is not HTML-escaped: it is configuration, not a web page.
func (t *Templates) Jet(name, body, left, right string) (string, error) {
	tpl, err := jetTemplates.get(jetKey{name, body, left, right}, func() (*jet.Template, error) {
		set, err := jetSets.get([2]string{left, right}, func() (*jet.Set, error) {
			return jet.NewSet(jet.NewInMemLoader(), jet.WithDelims(left, right), jet.WithSafeWriter(nil)), nil
		})
		if err != nil {
			return nil, err
		}
		return set.Parse(name, body)
	})
	if err != nil {
		return "", fmt.Errorf("jet: %w", err)
	}
	var out strings.Builder
	if err := tpl.Execute(&out, t.jetVars(), t.Vars()); err != nil {
		// Errors raised by functions carry no template name.
		return "", fmt.Errorf("jet %s: %w", name, err)
	}
	return out.String(), nil
}

// jetVars are the variables and functions a Jet template sees.
func (t *Templates) jetVars() jet.VarMap {
	vars := jet.VarMap{}
	for _, n := range variableNames {
		vars.Set(n, t.vars[n])
	}
	for name, fn := range t.JetFunctions() {
		vars.SetFunc(name, fn)
	}
	return vars
}

// Functions are the template functions for other engines, such as
// scaffold's Go templates: lookup, readFile, file, template and jet. Each
// returns a value and an error, which Go templates accept as they are.
func (t *Templates) Functions() map[string]func(args ...any) (any, error) {
	return full.functions(t)
}

// JetFunctions are Functions for Jet templates, without jet itself.
func (t *Templates) JetFunctions() map[string]jet.Func {
	out := map[string]jet.Func{}
	for name, fn := range t.Functions() {
		if name != "jet" {
			out[name] = jetFunc(fn)
		}
	}
	return out
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
			a.Panicf("%v", err)
		}
		return reflect.ValueOf(out)
	}
}
