package resources_test

import (
	"errors"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
)

// counting resolves every expression to a new value: "value-1", "value-2"...
type counting struct {
	resources.Literal
	n *int
}

func (c counting) HasExpr(string) bool { return true }
func (c counting) String(string) (string, error) {
	*c.n++
	return "value-" + string(rune('0'+*c.n)), nil
}

func TestTemplated(t *testing.T) {
	t.Run("errors leave out what templates resolved to, keeping positions", func(t *testing.T) {
		var tv resources.Templated
		tmpl := resources.Remembering(upper{withExpr: true}, &tv)
		if _, err := tmpl.Value("{{x}}"); err != nil {
			t.Fatal(err)
		}
		if _, err := tmpl.String("{{y}}"); err != nil {
			t.Fatal(err)
		}
		var list resources.ErrorList
		list.Addf(resources.Pos{File: "m.yaml", Line: 3, Col: 5}, "owner: no such user %q", "TOP-SECRET")
		list.Addf(resources.Pos{File: "m.yaml", Line: 4, Col: 5}, "port: %d and inner-secret", 1234)
		err := tv.RedactErr(list.Err())
		want := "m.yaml:3:5: owner: no such user the templated value\nm.yaml:4:5: port: the templated value and the templated value"
		if !errors.As(err, &list) || err.Error() != want {
			t.Fatalf("got %v, want %s", err, want)
		}
	})
	t.Run("an error without them is kept as it is", func(t *testing.T) {
		var tv resources.Templated
		sentinel := errors.New("plain")
		if err := tv.RedactErr(sentinel); err != sentinel {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("one value per expression is kept", func(t *testing.T) {
		var tv resources.Templated
		n := 0
		tmpl := resources.Remembering(counting{n: &n}, &tv)
		for range 3 {
			if _, err := tmpl.String("{{ now() }}"); err != nil {
				t.Fatal(err)
			}
		}
		if got := tv.Redact("value-1 value-3"); got != "value-1 the templated value" {
			t.Fatalf("redacted %q", got)
		}
	})
	t.Run("a nil Templated redacts nothing", func(t *testing.T) {
		var tv *resources.Templated
		if got := tv.Redact("TOP-SECRET"); got != "TOP-SECRET" {
			t.Fatalf("redacted %q", got)
		}
	})
}
