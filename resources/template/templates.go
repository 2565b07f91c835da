package template

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/registration"
)

// Env is what templates see.
type Env struct {
	// Facts are the host's facts as plain maps and lists.
	Facts map[string]any
	// LoadFacts, when Facts is nil, returns the facts the first time an
	// evaluation, lookup(), Vars or Fingerprint needs them: gathering the
	// host's facts costs more than loading most manifests, and a manifest
	// without templates never needs them.
	LoadFacts func() map[string]any
	// Data is the manifest's resolved hiera data.
	Data map[string]any
	// Environ is the process environment.
	Environ map[string]string
	// Dir is the manifest's directory: readFile, file, template and jet
	// resolve relative paths against it.
	Dir string
	// KV answers kvGet(); nil makes kvGet an error.
	KV KV
	// Registry answers registrations(); nil makes registrations an error.
	Registry Registry
}

// Registry answers registrations(): the entries of the service registry
// that f selects, sorted by address, then port.
type Registry interface {
	Lookup(f registration.Filter) (registration.Entries, error)
}

// KV reads NATS key-value entries for kvGet().
type KV interface {
	// Get returns the value of key in bucket; found is false when the key
	// does not exist.
	Get(bucket, key string) (value []byte, found bool, err error)
	// Fingerprint changes whenever a value Get returned may have changed.
	Fingerprint() string
}

// Templates resolves `{{ }}` and `${ }` expressions against one Env. It is
// immutable and safe for concurrent use.
type Templates struct {
	env   Env
	shape shape
	// vars is the expression environment: variables and bound functions;
	// root is what lookup() paths start from. Both are made on first use,
	// by bound, which loads the facts (see Env.LoadFacts); read them
	// through it.
	vars, root map[string]any
	bindOnce   sync.Once
	// depth counts nested template() and jet() calls, to stop a template
	// that includes itself before it exhausts the stack.
	depth int
	// lim bounds each evaluation; tests shrink it.
	lim limits
	// envs holds copies of vars for metered evaluations, each with its
	// own budget (see meteredEnv).
	envs sync.Pool
	// doc is root as JSON, for lookup().
	doc *jsonDoc

	fpOnce sync.Once
	fp     string
}

var (
	_ resources.Templates = (*Templates)(nil)
	_ resources.Compiler  = (*Templates)(nil)
	_ resources.Scoper    = (*Templates)(nil)
)

// New returns the templates of a manifest: every function is available and
// lookup() of a missing key without a default is an error.
func New(env Env) *Templates { return build(env, full, 0) }

// NewData returns the templates that resolve hiera data sections, as
// upstream CCM does: only lookup() is available and a missing key without a
// default resolves to "", so a hierarchy entry naming an absent fact is
// skipped rather than failing.
func NewData(env Env) *Templates { return build(env, data, 0) }

func build(env Env, sh shape, depth int) *Templates {
	return buildWith(env, sh, depth, &jsonDoc{})
}

func buildWith(env Env, sh shape, depth int, doc *jsonDoc) *Templates {
	if env.Data == nil {
		env.Data = map[string]any{}
	}
	if env.Environ == nil {
		env.Environ = map[string]string{}
	}
	return &Templates{env: env, shape: sh, depth: depth, doc: doc, lim: defaultLimits}
}

// bound returns t with its facts loaded and its variables made.
func (t *Templates) bound() *Templates {
	t.bindOnce.Do(func() {
		if t.env.Facts == nil && t.env.LoadFacts != nil {
			t.env.Facts = t.env.LoadFacts()
		}
		if t.env.Facts == nil {
			t.env.Facts = map[string]any{}
		}
		t.root = map[string]any{"facts": t.env.Facts, "data": t.env.Data, "environ": t.env.Environ}
		t.vars = t.shape.bind(t)
	})
	return t
}

// Value resolves s. A string that is exactly one expression (surrounding
// whitespace aside) keeps the expression's type; anything else is a string.
func (t *Templates) Value(s string) (any, error) { return t.value(newBudget(t.lim), s) }

func (t *Templates) value(b *budget, s string) (any, error) {
	l := lex(s)
	switch {
	case l.plain:
		return s, nil
	case l.single:
		for _, sg := range l.segs {
			if sg.expr {
				return t.eval(b, sg)
			}
		}
	}
	out, _, err := t.join(b, l)
	return out, err
}

// String resolves every expression in s and returns the text.
func (t *Templates) String(s string) (string, error) { return t.string(newBudget(t.lim), s) }

func (t *Templates) string(b *budget, s string) (string, error) {
	l := lex(s)
	if l.plain {
		return s, nil
	}
	out, _, err := t.join(b, l)
	return out, err
}

// Matched resolves s like String and reports whether it counts as matched
// for a hierarchy entry: it has no expression, or at least one expression
// produced a value other than "" and nil.
func (t *Templates) Matched(s string) (string, bool, error) {
	l := lex(s)
	if l.plain {
		return s, true, nil
	}
	return t.join(newBudget(t.lim), l)
}

// HasExpr reports whether s needs resolving: it holds an expression or an
// escaped `$${` or `{{{`.
func (t *Templates) HasExpr(s string) bool { return resolvable(s) }

// Vars returns the variables templates see, under both spellings: Facts
// and facts, Data and data, Environ and environ.
func (t *Templates) Vars() map[string]any {
	out := make(map[string]any, len(variableNames))
	for _, n := range variableNames {
		out[n] = t.bound().vars[n]
	}
	return out
}

// Fingerprint changes whenever the facts, data, environment, directory or
// the key-value entries kvGet() reads change. Maps print in sorted key order, so equal values give equal
// fingerprints.
func (t *Templates) Fingerprint() string {
	t.fpOnce.Do(func() {
		h := sha256.New()
		b := t.bound()
		fmt.Fprintf(h, "%d\x00%s\x00%#v\x00%#v\x00%#v", b.shape, b.env.Dir, b.env.Facts, b.env.Data, b.env.Environ)
		if t.env.KV != nil {
			fmt.Fprintf(h, "\x00%s", t.env.KV.Fingerprint())
		}
		t.fp = hex.EncodeToString(h.Sum(nil))
	})
	return t.fp
}

// join evaluates every expression of l into one string; matched reports
// whether the string had no expression or one gave a non-empty value.
func (t *Templates) join(b *budget, l lexed) (string, bool, error) {
	var sb strings.Builder
	matched, exprs := false, 0
	for _, sg := range l.segs {
		if !sg.expr {
			sb.WriteString(sg.text)
			continue
		}
		exprs++
		v, err := t.eval(b, sg)
		if err != nil {
			return "", false, err
		}
		text, err := format(b, v)
		if err != nil {
			return "", false, &ExprError{Expr: sg.text, Open: sg.open, Ran: true, Err: err}
		}
		matched = matched || text != ""
		sb.WriteString(text)
		if err := b.allow(int64(sb.Len())); err != nil {
			return "", false, &ExprError{Expr: sg.text, Open: sg.open, Ran: true, Err: err}
		}
	}
	return sb.String(), matched || exprs == 0, nil
}

// format renders an expression's value inside a string. nil is empty,
// where upstream CCM writes "<nil>"; everything else prints as upstream's
// fmt.Sprint does, once its text is known to fit the budget.
func format(b *budget, v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	}
	if err := b.allow(2 * sizeOf(v, b.lim.value)); err != nil {
		return "", err
	}
	return fmt.Sprint(v), nil
}

// eval compiles (or fetches from the cache) and runs one expression; a
// metered one runs with b in its environment.
func (t *Templates) eval(b *budget, sg segment) (any, error) {
	p, err := t.compile(sg)
	if err != nil {
		return nil, err
	}
	env := t.bound().vars
	if p.metered {
		env = t.meteredEnv(b)
		defer t.envs.Put(env)
	}
	v, err := expr.Run(p.p, env)
	if err == nil && holdsFunc(reflect.ValueOf(v)) {
		err = ErrFunctionValue
	}
	if err != nil {
		return nil, &ExprError{Expr: sg.text, Open: sg.open, Ran: true, Err: err}
	}
	return v, nil
}

// holdsFunc reports whether v is a function or a list or map holding
// one: a value no property can take, and the YAML encoder panics on.
func holdsFunc(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Func:
		return true
	case reflect.Interface, reflect.Pointer:
		return !v.IsNil() && holdsFunc(v.Elem())
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if holdsFunc(v.Index(i)) {
				return true
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if holdsFunc(it.Value()) {
				return true
			}
		}
	}
	return false
}

// meteredEnv returns a copy of the environment holding b, from a pool: a
// copy per evaluation would cost more than most evaluations. The caller
// puts it back.
func (t *Templates) meteredEnv(b *budget) map[string]any {
	env, ok := t.envs.Get().(map[string]any)
	if !ok {
		env = maps.Clone(t.bound().vars)
	}
	env[budgetVar] = b
	return env
}

// compile returns the program of one expression.
func (t *Templates) compile(sg segment) (program, error) {
	if sg.text == "" {
		return program{}, &ExprError{Expr: sg.text, Open: sg.open, Err: ErrEmptyExpr}
	}
	p, err := compile(t.shape, sg.text)
	if err != nil {
		return program{}, &ExprError{Expr: sg.text, Open: sg.open, Err: err}
	}
	return p, nil
}

// Eval evaluates src, one expression written without delimiters as
// control's if and unless are (`lookup('facts.os') == 'linux'`). A src
// with delimiters is resolved with Value instead.
func (t *Templates) Eval(src string) (any, error) {
	l := lex(src)
	if !l.plain {
		return t.Value(src)
	}
	return t.eval(newBudget(t.lim), segment{text: strings.TrimSpace(src), expr: true})
}

// Check compiles what Eval would run, without running it, so a syntax
// error is found when the manifest loads rather than when the resource
// runs.
func (t *Templates) Check(src string) error {
	l := lex(src)
	if l.plain {
		l.segs = []segment{{text: strings.TrimSpace(src), expr: true}}
	}
	for _, sg := range l.segs {
		if !sg.expr {
			continue
		}
		if _, err := t.compile(sg); err != nil {
			return err
		}
	}
	return nil
}

// Compile compiles every expression in s without running it, finding
// syntax errors, wrong arguments and unknown functions; a string without
// expressions compiles. An unknown variable is not an error here: as in
// upstream, it fails the resource only if the template runs.
func (t *Templates) Compile(s string) error {
	l := lex(s)
	if l.plain {
		return nil
	}
	for _, sg := range l.segs {
		if !sg.expr {
			continue
		}
		if sg.text == "" {
			return &ExprError{Expr: sg.text, Open: sg.open, Err: ErrEmptyExpr}
		}
		if err := compileLoose(t.shape, sg.text); err != nil {
			return &ExprError{Expr: sg.text, Open: sg.open, Err: err}
		}
	}
	return nil
}

// nested returns templates for a template() or jet() call made from t.
func (t *Templates) nested() (*Templates, error) {
	if t.depth >= maxDepth {
		return nil, fmt.Errorf("%w (%d levels)", ErrTooDeep, maxDepth)
	}
	n := buildWith(t.bound().env, t.shape, t.depth+1, t.doc)
	n.lim = t.lim
	return n, nil
}
