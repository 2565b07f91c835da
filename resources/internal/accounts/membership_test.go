package accounts_test

import (
	"slices"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/accounts"
)

func TestMembership(t *testing.T) {
	tests := []struct {
		name       string
		have, want []string
		exact      bool
		add, extra []string
		observed   string
		desired    string
		note       string
	}{
		{"in order", []string{"a", "b"}, []string{"b", "a"}, true, nil, nil, "a,b", "a,b", ""},
		{"minimum keeps others", []string{"a", "x"}, []string{"a", "b"}, false, []string{"b"}, nil, "a,x", "a,x,b", "+b"},
		{"exact removes others", []string{"a", "x", "y"}, []string{"a", "b"}, true, []string{"b"}, []string{"x", "y"}, "a,x,y", "a,b", "+b -x,-y"},
		{"none held", nil, []string{"a"}, true, []string{"a"}, nil, "", "a", "+a"},
		{"minimum with nothing to add", []string{"a", "x"}, []string{"a"}, false, nil, nil, "a,x", "a,x", ""},
		{"exact with only removals", []string{"x", "a", "y"}, []string{"a"}, true, nil, []string{"x", "y"}, "x,a,y", "a", "-x,-y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			add, extra := accounts.Membership(tt.have, tt.want, tt.exact)
			if !slices.Equal(add, tt.add) || !slices.Equal(extra, tt.extra) {
				t.Fatalf("add %q extra %q, want %q and %q", add, extra, tt.add, tt.extra)
			}
			d := accounts.MembershipDifference("members", tt.have, add, extra)
			if d.Property != "members" || d.Observed != tt.observed || d.Desired != tt.desired || d.Note != tt.note {
				t.Errorf("difference %+v, want %q → %q noted %q", d, tt.observed, tt.desired, tt.note)
			}
		})
	}
}
