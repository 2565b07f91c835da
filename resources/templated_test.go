package resources_test

import (
	"errors"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// secretSpec is a spec whose owner property and content template resolve
// to data.
func secretSpec(t *testing.T, vars resourcetest.Vars) *resources.Spec {
	t.Helper()
	return &resources.Spec{Type: "t", Name: "n", Props: resourcetest.YAMLNode(t, "owner: \"{{ token }}\"\n"), Pos: resources.Pos{File: "m.yaml", Line: 1}, Templates: vars}
}

// owned fails to build, quoting the owner it decoded.
var owned = resources.Type{Name: "t", New: func(spec *resources.Spec) (resources.Instance, error) {
	var p struct {
		Owner string `yaml:"owner"`
	}
	if err := spec.Decode(&p); err != nil {
		return resources.Instance{}, err
	}
	var errs resources.ErrorList
	errs.Addf(spec.KeyPos("owner"), "owner: no such user %q", p.Owner)
	return resources.Instance{}, errs.Err()
}}

func TestTemplated(t *testing.T) {
	t.Run("build errors leave out what templates resolved to, keeping positions", func(t *testing.T) {
		_, err := owned.Build(secretSpec(t, resourcetest.Vars{"token": "s3cr3t"}))
		var list resources.ErrorList
		if want := "m.yaml:1:8: owner: no such user the templated value"; !errors.As(err, &list) || err.Error() != want {
			t.Fatalf("got %v, want %s", err, want)
		}
	})
	t.Run("a deferred value is remembered as it resolves, the last one only", func(t *testing.T) {
		vars := resourcetest.Vars{"token": "first-value"}
		spec := secretSpec(t, vars)
		spec.Templated = &resources.Templated{}
		d := spec.Defer("content", "{{ token }}")
		for _, v := range []string{"first-value", "second-value"} {
			vars["token"] = v
			if _, err := d.Resolve(); err != nil {
				t.Fatal(err)
			}
		}
		if got := spec.Templated.Redact("first-value second-value"); got != "first-value the templated value" {
			t.Fatalf("redacted %q", got)
		}
	})
	t.Run("an error without them is kept as it is", func(t *testing.T) {
		var tv resources.Templated
		sentinel := errors.New("plain")
		if err := tv.RedactErr(sentinel); err != sentinel {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("a nil Templated redacts nothing", func(t *testing.T) {
		var tv *resources.Templated
		if got := tv.Redact("s3cr3t"); got != "s3cr3t" {
			t.Fatalf("redacted %q", got)
		}
	})
}
