package template

import (
	"errors"
	"io/fs"
	"regexp"
	"sync"

	"github.com/expr-lang/expr/file"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
)

// describe says what failed in err without any value it may quote. Our
// own errors are recognised by their sentinels, whose texts hold no
// values; expr's run-time messages are rewritten to drop theirs.
func describe(err error) string {
	if msg, ok := ownMessage(err); ok {
		return msg
	}
	var inner *ExprError
	if errors.As(err, &inner) {
		// template() or jet() of a text that may come from data.
		return "in a nested template: " + describe(inner.Err)
	}
	var fe *file.Error
	if errors.As(err, &fe) {
		return runtimeMessage(fe.Message)
	}
	return scrubQuotes(err.Error())
}

// ownMessage describes the errors of this package's functions.
func ownMessage(err error) (string, bool) {
	var be *budgetError
	switch {
	case errors.As(err, &be):
		return be.Error(), true
	case errors.Is(err, ErrMissingKey):
		return ErrMissingKey.Error() + "; give a default: lookup(KEY, DEFAULT)", true
	case errors.Is(err, ErrMissingKV):
		return ErrMissingKV.Error() + "; give a default: kvGet(BUCKET, KEY, DEFAULT)", true
	case errors.Is(err, ErrNoKV), errors.Is(err, ErrTooDeep), errors.Is(err, ErrEmptyExpr), errors.Is(err, ErrFunctionValue):
		return sentinelOf(err, ErrNoKV, ErrTooDeep, ErrEmptyExpr, ErrFunctionValue), true
	case errors.Is(err, ErrArgs):
		return wrapperOf(err, ErrArgs), true
	case errors.Is(err, safepath.ErrSymlink):
		return "reading a file: " + safepath.ErrSymlink.Error() + " someone other than root controls", true
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return "reading a file: " + scrubQuotes(pe.Err.Error()), true
	}
	return "", false
}

// sentinelOf returns the text of the first of sentinels err matches.
func sentinelOf(err error, sentinels ...error) string {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return s.Error()
		}
	}
	return ""
}

// wrapperOf returns the text of the error in err's chain that wraps
// sentinel directly: "bad arguments: lookup(key[, default]) takes 1 or 2
// arguments", written without values.
func wrapperOf(err, sentinel error) string {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if errors.Unwrap(e) == sentinel {
			return e.Error()
		}
	}
	return sentinel.Error()
}

// runtimeRewrites turn expr's run-time messages that quote a value into
// ones that do not; the others name types and counts only.
var runtimeRewrites = sync.OnceValue(func() []rewrite {
	return []rewrite{
		{regexp.MustCompile(`^cannot fetch .* from (\S+)$`), "cannot fetch a key or an index from a $1"},
		{regexp.MustCompile(`^cannot get .*$`), "cannot get a field of the value"},
		{regexp.MustCompile(`^index out of range: .*$`), "index out of range"},
		{regexp.MustCompile(`^cannot slice .*$`), "cannot slice the value"},
		{regexp.MustCompile(`^invalid operation: (int|int64|float|bool)\(.*\)$`), "invalid operation: $1() of a value that is not one"},
		// expr's date(), timezone() and fromPairs() print their argument
		// bare.
		{regexp.MustCompile(`^invalid date .*$`), "invalid date"},
		{regexp.MustCompile(`^unknown time zone .*$`), "unknown time zone"},
		{regexp.MustCompile(`^invalid pair .*$`), "invalid pair: fromPairs takes a list of [key, value] lists"},
	}
})

// rewrite replaces a message re matches with repl.
type rewrite struct {
	re   *regexp.Regexp
	repl string
}

func runtimeMessage(msg string) string {
	for _, r := range runtimeRewrites() {
		if r.re.MatchString(msg) {
			return r.re.ReplaceAllString(msg, r.repl)
		}
	}
	return scrubQuotes(msg)
}

// quoted matches a quoted string in a message and a map or list dump.
var quoted = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|` + "`[^`]*`" + `|map\[.*\]`)
})

// scrubQuotes replaces what a message quotes with an ellipsis.
func scrubQuotes(msg string) string {
	return quoted().ReplaceAllString(msg, "…")
}
