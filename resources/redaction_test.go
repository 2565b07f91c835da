package resources_test

import (
	"errors"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestTemplatedRedact: which text of an error about a templated property
// is left out: a value wherever it is quoted, and wherever it appears
// when it is too long to match by chance; a value inside another is not
// cut out of it first.
func TestTemplatedRedact(t *testing.T) {
	for _, tc := range []struct {
		name     string
		resolved []string
		text     string
		want     string
	}{
		{"a short value quoted", []string{"ab"}, `user "ab" missing, about tab`, `user the templated value missing, about tab`},
		{"a long value anywhere", []string{"hunter22"}, "bad hunter22: hunter22x", "bad the templated value: the templated valuex"},
		{"the longer value first", []string{"pass", "password1"}, `"password1" or pass`, "the templated value or the templated value"},
		{"a quote inside the value", []string{`a"b`}, `got "a\"b"`, "got the templated value"},
		{"nothing resolved", nil, `"ab" hunter22`, `"ab" hunter22`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := secretSpec(t, resourcetest.Vars{"token": "x"})
			spec.Templated = &resources.Templated{}
			for i, v := range tc.resolved {
				d := spec.DeferAt("p", "{{ token }}", resources.Pos{File: "m.yaml", Line: i + 1})
				spec.Templates.(resourcetest.Vars)["token"] = v
				if _, err := d.Resolve(); err != nil {
					t.Fatal(err)
				}
			}
			if got := spec.Templated.Redact(tc.text); got != tc.want {
				t.Fatalf("Redact = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSecretsRedactErr: a sensitive resource's errors lose its values
// and keep their positions and their list.
func TestSecretsRedactErr(t *testing.T) {
	var s resources.Secrets
	s.Add("hunter22")
	list := resources.ErrorList{
		resources.Errorf(resources.Pos{File: "m.yaml", Line: 2, Col: 3}, "password %q refused", "hunter22"),
		resources.Errorf(resources.Pos{File: "m.yaml", Line: 5, Col: 1}, "fine"),
	}
	err := s.RedactErr(list)
	var got resources.ErrorList
	if !errors.As(err, &got) || len(got) != 2 || err.Error() != "m.yaml:2:3: password \"[redacted]\" refused\nm.yaml:5:1: fine" {
		t.Fatalf("RedactErr = %#v", err)
	}
	if list[0].Msg != `password "hunter22" refused` {
		t.Fatal("the error given was changed in place")
	}
	plain := errors.New("nothing secret")
	if s.RedactErr(plain) != plain || s.RedactErr(nil) != nil {
		t.Fatal("an error without the values was replaced")
	}
	var pe *resources.PosError
	if err := s.RedactErr(resources.Errorf(resources.Pos{File: "m.yaml", Line: 1}, "hunter22")); !errors.As(err, &pe) || pe.Msg != "[redacted]" {
		t.Fatalf("a positioned error: %#v", err)
	}
}
