package resources_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/resources"
)

func TestChecks(t *testing.T) {
	providers := []resources.Provider{{Name: "posix"}}
	tests := []struct {
		name  string
		keys  []string
		check func(*resources.Spec, *resources.ErrorList)
		want  string
	}{
		{"one of, unset", []string{"x"}, func(s *resources.Spec, e *resources.ErrorList) { s.CheckOneOf(e, "ensure", "", "a", "b") }, ""},
		{"one of, allowed", []string{"ensure"}, func(s *resources.Spec, e *resources.ErrorList) { s.CheckOneOf(e, "ensure", "b", "a", "b") }, ""},
		{"one of, other", []string{"ensure"}, func(s *resources.Spec, e *resources.ErrorList) { s.CheckOneOf(e, "ensure", "c", "b", "a") },
			`t.yaml:1:9: ensure: "c" is not one of b, a`},
		{"only with, unset", []string{"x"}, func(s *resources.Spec, e *resources.ErrorList) { s.CheckOnlyWith(e, "block", "y") }, ""},
		{"only with, set", []string{"x", "y"}, func(s *resources.Spec, e *resources.ErrorList) { s.CheckOnlyWith(e, "block", "y", "z") },
			"t.yaml:2:4: y: only valid with block"},
		{"provider, unset", []string{"x"}, func(s *resources.Spec, e *resources.ErrorList) { s.CheckProvider(e, "", providers) }, ""},
		{"provider, known", []string{"provider"}, func(s *resources.Spec, e *resources.ErrorList) { s.CheckProvider(e, "posix", providers) }, ""},
		{"provider, unknown", []string{"provider"}, func(s *resources.Spec, e *resources.ErrorList) { s.CheckProvider(e, "apt", providers) },
			`t.yaml:1:11: provider: unknown provider "apt"; valid providers: posix`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := &resources.Spec{Type: "t", Name: "n", Props: mappingOf(t, tt.keys), Pos: resources.Pos{File: "t.yaml", Line: 1, Col: 1}}
			var errs resources.ErrorList
			tt.check(spec, &errs)
			got := ""
			if err := errs.Err(); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("error %q, want %q", got, tt.want)
			}
		})
	}
}
