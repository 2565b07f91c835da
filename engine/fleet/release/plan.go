package release

import (
	"strings"
	"time"
)

// Plan is how a push goes out: to every host at once (Percent 0), or
// staged to Percent of the hosts, then widened by Auto when set.
type Plan struct {
	Percent float64
	Auto    *Auto
}

// ParsePlan reads push's --canary SHARE and --auto STEP,WAIT; keyed says
// whether --key was given, which only goes with them. Its errors are
// ErrRefused. The plan's Auto has no Signer yet.
func ParsePlan(canary, auto string, keyed bool) (Plan, error) {
	var p Plan
	if canary == "" {
		if auto != "" || keyed {
			return p, refuse("--auto and --key go with --canary")
		}
		return p, nil
	}
	var err error
	if p.Percent, err = ParseShare(canary); err != nil {
		return p, refused{err}
	}
	if p.Percent >= 100 {
		return p, refuse("--canary: a share below 100%%; a push without --canary goes to every host")
	}
	if auto != "" {
		a, err := ParseAuto(auto)
		if err != nil {
			return p, err
		}
		p.Auto = &a
	}
	return p, nil
}

// ParseAuto reads push --auto STEP,WAIT ("20%,5m"); its errors are
// ErrRefused.
func ParseAuto(s string) (Auto, error) {
	step, wait, ok := strings.Cut(s, ",")
	p, err := ParseShare(step)
	d, derr := time.ParseDuration(wait)
	if err != nil || !ok || derr != nil || d < 0 {
		return Auto{}, refuse("--auto %q: want STEP,WAIT such as 20%%,5m", s)
	}
	return Auto{Step: p, Wait: d}, nil
}
