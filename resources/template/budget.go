package template

import (
	"errors"
	"fmt"
	"time"

	"github.com/reactive-ccm/ccm/resources"
)

// The budget of one evaluation: a string resolved at the top level (the
// content of a file, a data value, a control condition), together with
// the template() and jet() calls it makes.
const (
	// MaxValueSize bounds every value an evaluation makes: a string, the
	// text of a collection, the output of a Jet template.
	MaxValueSize = 16 << 20
	// MaxWork bounds the bytes all metered operations of one evaluation
	// produce together, so a loop cannot make many large values.
	MaxWork = 256 << 20
	// MaxEvalTime bounds the time of one evaluation.
	MaxEvalTime = 5 * time.Second
)

// ErrBudget is returned when an evaluation goes over its budget.
var ErrBudget = errors.New("template budget exceeded")

// budgetError is an evaluation over its budget. Its text holds the
// bounds only, never a value.
type budgetError struct{ msg string }

func (e *budgetError) Error() string { return ErrBudget.Error() + ": " + e.msg }

func (e *budgetError) Is(target error) bool { return target == ErrBudget }

func overBudget(format string, args ...any) error {
	return &budgetError{msg: fmt.Sprintf(format, args...)}
}

// limits are a budget's bounds; tests shrink them.
type limits struct {
	value, work int64
	time        time.Duration
}

var defaultLimits = limits{value: MaxValueSize, work: MaxWork, time: MaxEvalTime}

// budget is what one evaluation may still spend. It is used by one
// goroutine: an evaluation and the calls it makes run in sequence.
type budget struct {
	lim      limits
	deadline time.Time
	work     int64
	// lookups, when set, records the registry queries of the resource the
	// evaluation renders for (see Scope).
	lookups *resources.Lookups
}

func newBudget(lim limits) *budget {
	return &budget{lim: lim, deadline: time.Now().Add(lim.time)}
}

// charge accounts for a value of n bytes just made, and fails when it is
// too large, when the evaluation made too much, or when time is up.
func (b *budget) charge(n int64) error {
	if n > b.lim.value {
		return overBudget("a value of more than %d bytes", b.lim.value)
	}
	b.work += n
	if b.work > b.lim.work {
		return overBudget("more than %d bytes made in one evaluation", b.lim.work)
	}
	if time.Now().After(b.deadline) {
		return overBudget("the evaluation ran longer than %s", b.lim.time)
	}
	return nil
}

// allow fails before an operation makes a value of n bytes that would be
// too large; it charges nothing.
func (b *budget) allow(n int64) error {
	if n > b.lim.value || n < 0 {
		return overBudget("a value of more than %d bytes", b.lim.value)
	}
	return nil
}

// sizeOf estimates the bytes v takes as text, stopping once it passes
// max: strings count their length, other scalars a few bytes, and
// collections their items plus separators. A list holding one large
// string many times is as large as its text would be.
func sizeOf(v any, max int64) int64 {
	switch v := v.(type) {
	case string:
		return int64(len(v))
	case []byte:
		return int64(len(v))
	case []any:
		n := int64(2)
		for _, x := range v {
			if n += 2 + sizeOf(x, max-n); n > max {
				return n
			}
		}
		return n
	case map[string]any:
		n := int64(2)
		for k, x := range v {
			if n += int64(len(k)) + 4 + sizeOf(x, max-n); n > max {
				return n
			}
		}
		return n
	case map[string]string:
		n := int64(2)
		for k, x := range v {
			if n += int64(len(k)+len(x)) + 4; n > max {
				return n
			}
		}
		return n
	}
	return 8
}
