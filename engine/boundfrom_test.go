package engine

import "testing"

// The message of an expired deadline names where its bound came from; it
// is made only then, from what each run kept.
func TestAnExpiredDeadlineSaysWhereItsBoundCameFrom(t *testing.T) {
	for _, tc := range []struct {
		from boundFrom
		want string
	}{
		{fromProperty, "its timeout property"},
		{fromFlag, "--timeout exec"},
		{fromTypeDefault, "the default for exec resources; --timeout exec=DURATION changes it"},
		{fromDefault, "the default; --timeout exec=DURATION changes it"},
	} {
		if got := tc.from.why("exec"); got != tc.want {
			t.Errorf("%d: %q, want %q", tc.from, got, tc.want)
		}
	}
}
