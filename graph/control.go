package graph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// control is a resource's `control: {if, unless}`: expressions deciding
// before each run whether the resource is managed on this host.
type control struct {
	// cond holds the if and unless conditions, nil when unset.
	cond [2]*condition
}

const (
	ctlIf = iota
	ctlUnless
)

var controlKeys = [2]string{"if", "unless"}

// condition is one of if and unless: a YAML boolean, or an expression
// (bare, like upstream's, or in {{ }} or ${ }) that must give a boolean.
type condition struct {
	src   string
	value *bool // set for a YAML boolean
	pos   resources.Pos
}

// evaluator is what control needs from a manifest's templates.
type evaluator interface {
	Eval(expr string) (any, error)
	Check(expr string) error
}

// parseControl reads a control map.
func (m *Manifest) parseControl(id string, n *yaml.Node, errs *resources.ErrorList) *control {
	if yamlnode.IsNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		errs.Addf(pos(m.File, n), "%s: control: expected a map with if and unless, got %s", id, yamlnode.Describe(n))
		return nil
	}
	c := &control{}
	for _, p := range pairs(m.File, n, errs) {
		var i int
		switch p.key.Value {
		case "if":
			i = ctlIf
		case "unless":
			i = ctlUnless
		default:
			errs.Addf(pos(m.File, p.key), "%s: unknown control key %q; valid keys: if, unless", id, p.key.Value)
			continue
		}
		if p.val.Kind != yaml.ScalarNode || yamlnode.IsNull(p.val) {
			errs.Addf(pos(m.File, p.val), "%s: control.%s: expected an expression or true/false, got %s", id, p.key.Value, yamlnode.Describe(p.val))
			continue
		}
		cond := &condition{src: p.val.Value, pos: pos(m.File, p.val)}
		if p.val.Tag == "!!bool" {
			b := p.val.Value == "true"
			cond.value = &b
		}
		c.cond[i] = cond
	}
	return c
}

// attach gives v its Control hook, evaluated against t just before each
// run. Expressions are compiled now so syntax errors stop the load. The
// fingerprint takes in t's, since the answer depends on facts and data.
func (c *control) attach(v *Vertex, t resources.Templates, errs *resources.ErrorList) {
	if c == nil || (c.cond[ctlIf] == nil && c.cond[ctlUnless] == nil) {
		return
	}
	ev, _ := t.(evaluator)
	for i, cond := range c.cond {
		if cond == nil || cond.value != nil {
			continue
		}
		if ev == nil {
			errs.Addf(cond.pos, "%s: control.%s: expressions need templates, which this command does not load", v.ID(), controlKeys[i])
			return
		}
		if err := ev.Check(cond.src); err != nil {
			errs.Addf(cond.pos, "%s: control.%s: %v", v.ID(), controlKeys[i], err)
		}
	}
	v.Control = func(context.Context) (bool, error) { return c.managed(v.ID(), ev) }
	h := sha256.Sum256([]byte(v.Fingerprint + "\x00" + t.Fingerprint()))
	v.Fingerprint = hex.EncodeToString(h[:])
}

// managed applies the user guide's table: managed when if is unset or
// true, and unless is unset or false.
func (c *control) managed(id string, ev evaluator) (bool, error) {
	for i, want := range [2]bool{true, false} {
		if c.cond[i] == nil {
			continue
		}
		got, err := c.cond[i].eval(ev)
		if err != nil {
			return false, fmt.Errorf("%s: %s: control.%s: %w", c.cond[i].pos, id, controlKeys[i], err)
		}
		if got != want {
			return false, nil
		}
	}
	return true, nil
}

func (cond *condition) eval(ev evaluator) (bool, error) {
	if cond.value != nil {
		return *cond.value, nil
	}
	v, err := ev.Eval(cond.src)
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("%q gave a %T, want true or false", cond.src, v)
	}
	return b, nil
}
