package health

import "errors"

// ErrBadCheck is wrapped by every problem found in a health_checks entry.
var ErrBadCheck = errors.New("invalid health check")

// ErrNoRules is returned for goss_rules that hold no rule.
var ErrNoRules = errors.New("goss_rules holds no rule")

// ErrTimeout is the cause of a Goss check abandoned because its timeout
// expired.
var ErrTimeout = errors.New("timed out")
