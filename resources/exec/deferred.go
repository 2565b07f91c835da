package exec

import (
	"fmt"

	"github.com/reactive-ccm/ccm/resources"
)

// deferred is a property kept as written and resolved with the templates
// just before each use. Its check runs once at build time on a value
// without templates, and on every resolution of a value with templates.
type deferred struct {
	// label names the property in errors: "cwd", "environment: item 2".
	label     string
	raw       string
	pos       resources.Pos
	templated bool
	check     func(string) error
}

// newDeferred builds a deferred property, checking it now when it holds
// no template.
func newDeferred(tmpl resources.Templates, label, raw string, pos resources.Pos, check func(string) error, errs *resources.ErrorList) deferred {
	d := deferred{label: label, raw: raw, pos: pos, templated: tmpl.HasExpr(raw), check: check}
	if !d.templated {
		if err := check(raw); err != nil {
			errs.Addf(pos, "%s: %v", label, err)
		}
	}
	return d
}

func (d deferred) set() bool { return d.label != "" }

func (d deferred) value(tmpl resources.Templates) (string, error) {
	if !d.templated {
		return d.raw, nil
	}
	s, err := tmpl.String(d.raw)
	if err == nil {
		err = d.check(s)
	}
	if err != nil {
		return "", fmt.Errorf("%s: %s: %w", d.pos, d.label, err)
	}
	return s, nil
}

// literal returns the value when it is known without templates, for what
// the graph needs at build time.
func (d deferred) literal() (string, bool) {
	return d.raw, d.set() && !d.templated
}

// itemPos returns the position of item i of list property key.
func itemPos(spec *resources.Spec, key string, i int) resources.Pos {
	c := spec.Props.Content
	for k := 0; k+1 < len(c); k += 2 {
		if c[k].Value == key && i < len(c[k+1].Content) {
			return spec.NodePos(c[k+1].Content[i])
		}
	}
	return spec.KeyPos(key)
}
