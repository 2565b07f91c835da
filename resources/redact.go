package resources

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// templatedValue stands in an error for a value a template resolved to.
const templatedValue = "the templated value"

// redact returns err with every value in values left out of its text: a
// property whose template resolved to a bad value is reported by what
// it is, not what it holds, since data, facts and the environment may
// hold secrets. A value is left out wherever it is quoted, and, when it
// is long enough not to match by chance, wherever it appears. A
// positioned error keeps its position.
func redact(err error, values []string) error {
	if err == nil || len(values) == 0 {
		return err
	}
	values = slices.Clone(values)
	// Longest first, so a value inside another is not replaced first.
	slices.SortFunc(values, func(a, b string) int { return len(b) - len(a) })
	scrub := func(msg string) string {
		for _, v := range values {
			msg = strings.ReplaceAll(msg, strconv.Quote(v), templatedValue)
			if len(v) >= 4 {
				msg = strings.ReplaceAll(msg, v, templatedValue)
			}
		}
		return msg
	}
	var pe *PosError
	if errors.As(err, &pe) {
		return &PosError{Pos: pe.Pos, Msg: scrub(pe.Msg)}
	}
	return errors.New(scrub(err.Error()))
}
