package hiera

import (
	"strings"
	"testing"
)

// TestValidate: the @validate functions, each under both its names, on
// the values upstream's validator library accepts and refuses.
func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		expr, value string
		ok          bool
		err         string
	}{
		{"isIP(value)", "192.0.2.1", true, ""},
		{"is_ip(value)", "2001:db8::1", true, ""},
		{"isIP(value)", "300.1.1.1", false, "300.1.1.1 is not an IP address"},
		{"isIPv4(value)", "192.0.2.1", true, ""},
		{"is_ipv4(value)", "2001:db8::1", false, "is not an IPv4 address"},
		{"isIPv6(value)", "2001:db8::1", true, ""},
		{"is_ipv6(value)", "192.0.2.1", false, "is not an IPv6 address"},
		{"isInt(value)", "-12", true, ""},
		{"is_int(value)", "1.5", false, ""},
		{"isFloat(value)", "1e3", true, ""},
		{"is_float(value)", "one", false, ""},
		{"isRegex(value, '^a+$')", "aaa", true, ""},
		{"is_regex(value, '^a+$')", "ab", false, ""},
		{"isRegex(value, '(')", "a", false, `invalid regex "("`},
		{"isShellSafe(value)", "  /usr/bin/thing --flag  ", true, ""},
		{"is_shellsafe(value)", "a && b", false, `may not contain "&"`},
		{"isShellSafe(value)", "$(id)", false, `may not contain "$"`},
		{"isShellSafe(value)", "a\nb", false, `may not contain "\n"`},
		{"Value == value", "x", true, ""},
		{"len(value) > 3", "abcd", true, ""},
		{"value", "x", false, "expected bool"},
		{"nosuch(value)", "x", false, "unknown name nosuch"},
	} {
		t.Run(tc.expr+" "+tc.value, func(t *testing.T) {
			ok, err := validate(tc.expr, tc.value)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if ok != tc.ok || (tc.err == "") != (err == nil) || !strings.Contains(got, tc.err) {
				t.Fatalf("validate = %t, %q; want %t, %q", ok, got, tc.ok, tc.err)
			}
		})
	}
}

// TestCheckDuration: Go durations plus days, weeks, months and years, as
// upstream's isDuration accepts them.
func TestCheckDuration(t *testing.T) {
	for s, ok := range map[string]bool{
		"0": true, "90m": true, "1h30m": true, "1.5h": true, "1y2w3d4h": true, "2M": true, "1W": true, "1D": true, "1Y": true,
		"300ms": true, "10us": true, "10µs": true, "5ns": true, " -1h ": true, "+2d": true,
		"": false, "soon": false, "1": false, "h": false, "1h soon": false, "1..2h": false, "1x": false, "-": false,
	} {
		if err := checkDuration(s); (err == nil) != ok {
			t.Errorf("checkDuration(%q) = %v, want ok %t", s, err, ok)
		}
	}
}
