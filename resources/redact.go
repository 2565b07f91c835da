package resources

import "slices"

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
	return mapErr(err, scrubber(slices.Clone(values)))
}
