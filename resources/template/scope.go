package template

import (
	"github.com/CloudyKit/jet/v6"
	"github.com/reactive-ccm/ccm/resources"
)

// scoped is the templates of one resource: t's, with the registry
// queries its evaluations make (registrations(), also from template()
// and jet() files and scaffold templates) recorded in l. Every
// evaluation carries l in its budget, so it costs the resource one small
// value, not an environment of its own.
type scoped struct {
	*Templates
	l *resources.Lookups
}

var _ resources.Templates = scoped{}

// Scope returns the templates of the resource whose queries l records.
func (t *Templates) Scope(l *resources.Lookups) resources.Templates { return scoped{t, l} }

func (s scoped) budget() *budget {
	b := newBudget(s.lim)
	b.lookups = s.l
	return b
}

// Value is Templates.Value, recording the resource's queries.
func (s scoped) Value(str string) (any, error) { return s.value(s.budget(), str) }

// String is Templates.String, recording the resource's queries.
func (s scoped) String(str string) (string, error) { return s.string(s.budget(), str) }

// Jet is Templates.Jet, recording the resource's queries.
func (s scoped) Jet(name, body, left, right string) (string, error) {
	return s.render(s.budget(), name, body, left, right)
}

// Functions are Templates.Functions, recording the resource's queries.
func (s scoped) Functions() map[string]func(args ...any) (any, error) {
	return s.functionsWith(s.budget)
}

// JetFunctions are Templates.JetFunctions, recording the resource's
// queries.
func (s scoped) JetFunctions() map[string]jet.Func { return jetFuncs(s.Functions()) }
