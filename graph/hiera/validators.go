package hiera

import (
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
)

// validate evaluates a @validate expression, as upstream's validator
// library does: value (and Value) is the value as text, the result must be
// a boolean, and the functions below are available under their camelCase
// and snake_case names. A function that finds the value wrong may say why
// in an error.
func validate(src, value string) (bool, error) {
	env := map[string]any{"value": value, "Value": value}
	opts := []expr.Option{expr.Env(env), expr.AsBool()}
	for _, f := range validators {
		for _, name := range f.names {
			opts = append(opts, expr.Function(name, f.fn, f.types...))
		}
	}
	p, err := expr.Compile(src, opts...)
	if err != nil {
		return false, err
	}
	out, err := expr.Run(p, env)
	if err != nil {
		return false, err
	}
	return out.(bool), nil
}

type validator struct {
	names []string
	fn    func(args ...any) (any, error)
	types []any
}

var (
	oneString  = []any{new(func(string) (bool, error))}
	twoStrings = []any{new(func(string, string) (bool, error))}
)

var validators = []validator{
	{[]string{"isIP", "is_ip"}, ipCheck("an IP", func(net.IP) bool { return true }), oneString},
	{[]string{"isIPv4", "is_ipv4"}, ipCheck("an IPv4", func(ip net.IP) bool { return ip.To4() != nil }), oneString},
	{[]string{"isIPv6", "is_ipv6"}, ipCheck("an IPv6", func(ip net.IP) bool { return ip.To4() == nil }), oneString},
	{[]string{"isInt", "is_int"}, parses(func(s string) error { _, err := strconv.Atoi(s); return err }), oneString},
	{[]string{"isFloat", "is_float"}, parses(func(s string) error { _, err := strconv.ParseFloat(s, 64); return err }), oneString},
	{[]string{"isDuration", "is_duration"}, parses(checkDuration), oneString},
	{[]string{"isRegex", "is_regex"}, matches, twoStrings},
	{[]string{"isShellSafe", "is_shellsafe"}, shellSafe, oneString},
}

func ipCheck(what string, kind func(net.IP) bool) func(args ...any) (any, error) {
	return func(args ...any) (any, error) {
		s := args[0].(string)
		if ip := net.ParseIP(s); ip != nil && kind(ip) {
			return true, nil
		}
		return false, fmt.Errorf("%s is not %s address", s, what)
	}
}

func parses(parse func(string) error) func(args ...any) (any, error) {
	return func(args ...any) (any, error) { return parse(args[0].(string)) == nil, nil }
}

func matches(args ...any) (any, error) {
	ok, err := regexp.MatchString(args[1].(string), args[0].(string))
	if err != nil {
		return false, fmt.Errorf("invalid regex %q: %w", args[1], err)
	}
	return ok, nil
}

// shellUnsafe are the characters isShellSafe refuses.
var shellUnsafe = []string{"`", "$", ";", "|", "&", ">", "<", "(", ")", "\n"}

func shellSafe(args ...any) (any, error) {
	s := strings.TrimSpace(args[0].(string))
	for _, c := range shellUnsafe {
		if strings.Contains(s, c) {
			return false, fmt.Errorf("may not contain %q", c)
		}
	}
	return true, nil
}

// durationPart is one number and unit of a duration.
// It is compiled on first use rather than when ccm starts.
var durationPart = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([\d.]+)(ns|us|µs|ms|s|m|h|d|D|w|W|M|y|Y)`)
})

// errDuration says a value is not a duration.
var errDuration = errors.New("not a duration")

// checkDuration accepts what upstream's isDuration does: Go durations plus
// the units d (day), w (week), M (30 days) and y (365 days), as in 1y2w.
func checkDuration(s string) error {
	s = strings.TrimLeft(strings.TrimSpace(s), "+-")
	if s == "0" {
		return nil
	}
	if s == "" {
		return errDuration
	}
	for s != "" {
		m := durationPart().FindStringSubmatch(s)
		if m == nil {
			return errDuration
		}
		if _, err := strconv.ParseFloat(m[1], 64); err != nil {
			return errDuration
		}
		s = s[len(m[0]):]
	}
	return nil
}
