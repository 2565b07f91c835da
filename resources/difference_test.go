package resources_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/resources"
)

// TestDifferenceText: how a difference reads in events and errors.
func TestDifferenceText(t *testing.T) {
	for _, tc := range []struct {
		d    resources.Difference
		want string
	}{
		{resources.Differs("mode", "0600", "0644"), "mode 0600 → 0644"},
		{resources.Differs("ensure", "absent", "present"), "absent → present"},
		{resources.Differs("owner", "", "root"), `owner "" → root`},
		{resources.Differs("content", "x", ""), `content x → ""`},
		{resources.Difference{Property: "content", Observed: "sha256:1a", Desired: "sha256:9f", Note: "+3 −1 lines"}, "content sha256:1a → sha256:9f (+3 −1 lines)"},
		{resources.Difference{Property: "line", Observed: "a", Desired: "b", Text: "the line is missing"}, "the line is missing"},
	} {
		if got := tc.d.String(); got != tc.want {
			t.Errorf("%+v reads %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestStatusReason: the differences of a check in one line, as
// ErrDesiredStateFailed says them.
func TestStatusReason(t *testing.T) {
	for _, tc := range []struct {
		diffs []resources.Difference
		want  string
	}{
		{nil, ""},
		{[]resources.Difference{resources.Differs("mode", "0600", "0644")}, "mode 0600 → 0644"},
		{[]resources.Difference{resources.Differs("mode", "0600", "0644"), resources.Differs("owner", "www", "root")}, "mode 0600 → 0644; owner www → root"},
	} {
		if got := (resources.Status{Differences: tc.diffs}).Reason(); got != tc.want {
			t.Errorf("Reason = %q, want %q", got, tc.want)
		}
	}
}
