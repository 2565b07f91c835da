package template

import (
	"errors"
	"fmt"
	"strings"

	"github.com/expr-lang/expr/file"
)

var (
	// ErrMissingKey is returned by lookup() for a key that has no value
	// when no default was given.
	ErrMissingKey = errors.New("lookup: no value for key")
	// ErrEmptyExpr is an expression with nothing between its delimiters.
	ErrEmptyExpr = errors.New("empty expression")
	// ErrTooDeep stops template() and jet() calls nested too deeply, such
	// as a template that includes itself.
	ErrTooDeep = errors.New("templates nested too deeply")
	// ErrNoKV is kvGet() called where no NATS key-value access is set up.
	ErrNoKV = errors.New("kvGet: no NATS key-value access here")
	// ErrMissingKV is kvGet() of a key that does not exist, without a
	// default.
	ErrMissingKV = errors.New("kvGet: no such key")
	// ErrNoRegistry is registrations() called where no registry is set
	// up.
	ErrNoRegistry = errors.New("registrations: no registration stream here")
	// ErrArgs is a template function called with the wrong arguments.
	// Every error here reaches callers inside an ExprError, whose text
	// begins "template", so none repeats the package name.
	ErrArgs = errors.New("bad arguments")
	// ErrFunctionValue is an expression whose value is, or holds, a
	// function: one named without being called (lookup for
	// lookup('key')), which no property, data or text can hold.
	ErrFunctionValue = errors.New("gives a function, not a value: call it, with its arguments in brackets (lookup('key'), not lookup)")
)

// maxDepth bounds nested template() and jet() calls.
const maxDepth = 16

// ExprError is an expression that failed to compile or to run. Its text
// shows the expression as written and what failed, never a value the
// expression computed or read: data, facts and the environment may hold
// secrets, and errors reach logs, the JSON error field and the journal.
type ExprError struct {
	// Expr is the expression's text, without delimiters.
	Expr string
	// Open is the opening delimiter, "{{" or "${"; "" for an expression
	// written bare, as control's if and unless are.
	Open string
	// Ran is true when the expression compiled and failed while running:
	// its error may then quote values, and is described without them.
	Ran bool
	Err error
}

func (e *ExprError) Error() string {
	msg := describe(e.Err)
	if !e.Ran {
		msg = compileMessage(e.Err)
	}
	var out string
	switch e.Open {
	case "{{":
		out = fmt.Sprintf("template {{ %s }}: %s", e.Expr, msg)
	case "${":
		out = fmt.Sprintf("template ${ %s }: %s", e.Expr, msg)
	default:
		out = fmt.Sprintf("expression %q: %s", e.Expr, msg)
	}
	if e.Open == "${" && strings.Contains(msg, "unknown name") {
		out += "; to pass a literal ${ on (a shell variable, say), write $${"
	}
	return out
}

func (e *ExprError) Unwrap() error { return e.Err }

// compileMessage is the text of a compilation error: it comes from the
// expression's text alone. expr's own text adds a multi-line source
// snippet; the expression is already quoted.
func compileMessage(err error) string {
	var fe *file.Error
	if errors.As(err, &fe) {
		return fe.Message
	}
	return err.Error()
}
