package registration

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Never is the TTL of an entry that does not expire by itself.
const Never = "never"

// TTL is how long an entry lives unless published again: a duration, or
// never. It is sent as the Nats-TTL header and kept in the payload as
// upstream writes it ("10m0s", "never").
type TTL struct {
	d     time.Duration
	never bool
}

// ParseTTL reads "never" or a duration: Go's ("90s", "10m", "1h30m"), or
// a whole number of days or weeks ("2d", "1w") as upstream's parser
// allows.
func ParseTTL(s string) (*TTL, error) {
	s = strings.TrimSpace(s)
	if s == Never {
		return &TTL{never: true}, nil
	}
	d, err := parseDuration(s)
	if err != nil || d < time.Second {
		return nil, fmt.Errorf("%w: ttl %q is not never or a duration of at least 1s such as 30s, 10m or 1d", ErrInvalid, s)
	}
	return &TTL{d: d}, nil
}

func parseDuration(s string) (time.Duration, error) {
	for suffix, unit := range map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour} {
		if n, ok := strings.CutSuffix(s, suffix); ok {
			v, err := strconv.Atoi(n)
			if err != nil {
				return 0, err
			}
			return time.Duration(v) * unit, nil
		}
	}
	return time.ParseDuration(s)
}

// NewTTL returns a TTL of d.
func NewTTL(d time.Duration) *TTL { return &TTL{d: d} }

// IsNever reports whether the entry never expires by itself.
func (t *TTL) IsNever() bool { return t != nil && t.never }

// Duration is the TTL's length; 0 for never or none.
func (t *TTL) Duration() time.Duration {
	if t == nil || t.never {
		return 0
	}
	return t.d
}

// String is the Nats-TTL header's value: "never" or a Go duration.
func (t *TTL) String() string {
	switch {
	case t == nil:
		return ""
	case t.never:
		return Never
	}
	return t.d.String()
}

// MarshalJSON writes the TTL as upstream does.
func (t TTL) MarshalJSON() ([]byte, error) {
	if !t.never && t.d <= 0 {
		return []byte("null"), nil
	}
	return json.Marshal(t.String())
}

// MarshalYAML writes the TTL as MarshalJSON does.
func (t TTL) MarshalYAML() (any, error) { return t.String(), nil }

// UnmarshalJSON reads a TTL string, or a number of nanoseconds as
// upstream's older entries hold it.
func (t *TTL) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var ns float64
		if nerr := json.Unmarshal(b, &ns); nerr != nil {
			return fmt.Errorf("%w: ttl: %w", ErrInvalid, err)
		}
		*t = TTL{d: time.Duration(ns)}
		return nil
	}
	v, err := ParseTTL(s)
	if err != nil {
		return err
	}
	*t = *v
	return nil
}
