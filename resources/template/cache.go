package template

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
)

// maxCached bounds each process-wide cache. Manifests reloaded for months
// keep bringing new expressions; a full cache starts over rather than grow
// without bound.
const maxCached = 16384

// bounded is a concurrency-safe map that forgets everything when full.
type bounded[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V
}

// get returns the value for k, making it with mk on first use. Two callers
// racing on a new key may both call mk; the values are equivalent.
func (b *bounded[K, V]) get(k K, mk func() (V, error)) (V, error) {
	b.mu.RLock()
	v, ok := b.m[k]
	b.mu.RUnlock()
	if ok {
		return v, nil
	}
	v, err := mk()
	if err != nil {
		return v, err
	}
	b.mu.Lock()
	if b.m == nil || len(b.m) >= maxCached {
		b.m = make(map[K]V)
	}
	b.m[k] = v
	b.mu.Unlock()
	return v, nil
}

// programKey identifies a compiled expression: its text and the shape of
// the environment it was checked against.
type programKey struct {
	shape shape
	src   string
}

// program is a compiled expression and whether it runs under a budget.
type program struct {
	p *vm.Program
	// metered is false for an expression that only reads variables; it
	// runs in the shared environment, without copying it.
	metered bool
}

// programs caches compiled expressions for the whole process. A program
// depends only on the names and Go types in its environment, never on their
// values (functions are looked up in the environment at run time), so one
// compilation serves every manifest, reload and goroutine; a *vm.Program is
// safe for concurrent runs.
var programs bounded[programKey, program]

// checks caches what compileLoose found of each expression: a manifest
// checks the same deferred expressions for each of its resources (a
// block's defaults), and the answer depends only on the text and shape.
var checks bounded[programKey, error]

// compileLoose compiles src in shape sh as compile does, except that a
// variable the shape lacks is taken for one with no value yet: only
// syntax, wrong arguments and unknown functions fail. It is for
// validation, and keeps only its answer.
func compileLoose(sh shape, src string) error {
	found, _ := checks.get(programKey{sh, src}, func() (error, error) { return checkLoose(sh, src), nil })
	return found
}

func checkLoose(sh shape, src string) error {
	env := sh.prototype()
	_, err := expr.Compile(src, expr.Env(env), expr.Patch(&meter{}))
	if !isUnknownName(err) {
		return err
	}
	if _, err := expr.Compile(src, expr.Env(env), expr.AllowUndefinedVariables(), expr.Patch(&meter{})); err != nil {
		return err
	}
	for _, m := range callRE().FindAllStringSubmatch(src, -1) {
		name := m[2]
		if _, ok := env[name]; ok || notCalls[name] {
			continue
		}
		if _, ok := builtin.Index[name]; ok {
			continue
		}
		return fmt.Errorf("%w %s", errUnknownFunc, name)
	}
	return nil
}

// errUnknownFunc is worded as expr words an unknown function in strict
// compiles, so loose and strict checks read alike.
var errUnknownFunc = errors.New("unknown name")

// callRE finds names written as calls: name( but not .name( (a method).
// Compiled on first use, as are the package's other expressions: compiling
// them all when the program starts slows every run of ccm, and most runs
// never need them.
var callRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[^.\w])([A-Za-z_]\w*)\s*\(`) })

// notCalls are expr keywords a parenthesis may follow without a call.
var notCalls = map[string]bool{
	"not": true, "and": true, "or": true, "in": true, "matches": true, "contains": true,
	"startsWith": true, "endsWith": true, "if": true, "else": true, "let": true,
}

// isUnknownName reports whether err is expr's "unknown name" error.
func isUnknownName(err error) bool {
	var fe *file.Error
	return errors.As(err, &fe) && strings.HasPrefix(fe.Message, "unknown name ")
}

// compile returns the program for src in shape sh, metered (see meter).
func compile(sh shape, src string) (program, error) {
	return programs.get(programKey{sh, src}, func() (program, error) {
		m := &meter{}
		p, err := expr.Compile(src, expr.Env(sh.prototype()), expr.Patch(m))
		return program{p: p, metered: m.used}, err
	})
}
