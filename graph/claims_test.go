package graph_test

import (
	"strings"
	"testing"
)

func TestContentClaims(t *testing.T) {
	tests := []struct {
		name, claims, want string
	}{
		{"parts share a file", "part:/f|part:/f", ""},
		{"other files", "whole:/f|part:/g", ""},
		{"whole and part", "whole:/f|part:/f", "thing#r1 conflicts with thing#r0 (m.yaml:2:7) over /f: thing#r0 decides it whole (whole) while thing#r1 edits part of it (part)"},
		{"part then whole", "part:/f|whole:/f", "thing#r1 conflicts with thing#r0 (m.yaml:2:7) over /f: thing#r1 decides it whole (whole) while thing#r0 edits part of it (part)"},
		{"two wholes", "whole:/f|whole:/f", "thing#r0 decides it whole (whole), and so does thing#r1 (whole); manage it in one resource"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "- thing:\n"
			for i, c := range strings.Split(tt.claims, "|") {
				src += "    - r" + string(rune('0'+i)) + ":\n        claim: " + c + "\n"
			}
			if tt.want == "" {
				mustLoad(t, src)
				return
			}
			if got := loadErr(t, src); !strings.Contains(got, tt.want) || !strings.HasPrefix(got, "m.yaml:4:7") {
				t.Errorf("error %q, want it at m.yaml:4:7 and containing %q", got, tt.want)
			}
		})
	}
}
