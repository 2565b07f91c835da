package resources_test

import (
	"fmt"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
)

// upper is a template environment resolving "{{x}}" to "TOP-SECRET".
type upper struct{ resources.Literal }

func (upper) String(string) (string, error) { return "TOP-SECRET", nil }
func (upper) Value(string) (any, error) {
	return map[string]any{"list": []any{"inner-secret", 1234}}, nil
}

func TestSecrets(t *testing.T) {
	t.Run("values are cut out longest first", func(t *testing.T) {
		var s resources.Secrets
		s.Add("hunter2")
		s.Add("hunter2-long")
		if got := s.Redact("a hunter2-long and a hunter2"); got != "a [redacted] and a [redacted]" {
			t.Fatalf("redacted %q", got)
		}
	})
	t.Run("short values are not recorded", func(t *testing.T) {
		var s resources.Secrets
		s.Add("abc")
		if got := s.Redact("abc"); got != "abc" {
			t.Fatalf("redacted %q", got)
		}
	})
	t.Run("values resolved at run time are kept while recent", func(t *testing.T) {
		var s resources.Secrets
		s.Add("built-in-secret")
		s.Seal()
		// A template resolving to a new value at every run, as now() does.
		for i := range resources.MaxRecentSecrets + 10 {
			s.Add(fmt.Sprintf("run-value-%04d", i))
		}
		last := fmt.Sprintf("run-value-%04d", resources.MaxRecentSecrets+9)
		text := "built-in-secret run-value-0000 " + last
		if got := s.Redact(text); got != "[redacted] run-value-0000 [redacted]" {
			t.Fatalf("redacted %q: the value recorded at build and the recent ones are hidden, the oldest run's forgotten", got)
		}
	})
	t.Run("a nil Secrets redacts nothing", func(t *testing.T) {
		var s *resources.Secrets
		s.Add("hunter2")
		if got := s.Redact("hunter2"); got != "hunter2" {
			t.Fatalf("redacted %q", got)
		}
	})
	t.Run("recording templates record what they resolve", func(t *testing.T) {
		var s resources.Secrets
		tmpl := resources.Recording(upper{}, &s)
		if _, err := tmpl.String("{{x}}"); err != nil {
			t.Fatal(err)
		}
		if _, err := tmpl.Value("{{x}}"); err != nil {
			t.Fatal(err)
		}
		if got := s.Redact("TOP-SECRET inner-secret 1234"); got != "[redacted] [redacted] [redacted]" {
			t.Fatalf("redacted %q", got)
		}
	})
}
