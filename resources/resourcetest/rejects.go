package resourcetest

import (
	"strings"
	"testing"
)

// Rejected is one manifest snippet a resource type must refuse.
type Rejected struct {
	// Case names the subtest.
	Case string
	// Name is the resource's name and Props its properties (YAML).
	Name, Props string
	// Want is a part of the error.
	Want string
	// Secret, when set, is a value the error must not hold.
	Secret string
}

// Rejects builds each case as a resource of type typ, in a subtest of
// its own, and fails it when the build succeeds, when the error does not
// hold Want, or when it holds Secret.
func Rejects(t *testing.T, typ string, cases []Rejected) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Case, func(t *testing.T) {
			got := BuildError(t, typ, c.Name, c.Props, t.TempDir())
			if !strings.Contains(got, c.Want) {
				t.Errorf("error %q, want it to contain %q", got, c.Want)
			}
			if !strings.HasPrefix(got, "test.yaml:") {
				t.Errorf("error %q names no position", got)
			}
			if c.Secret != "" && strings.Contains(got, c.Secret) {
				t.Errorf("error %q holds the secret %q", got, c.Secret)
			}
		})
	}
}

// ReportsAll builds a resource of type typ named name from props and
// fails the test unless the build fails with an error holding every one
// of wants: a type reports all of a resource's problems at once.
func ReportsAll(t testing.TB, typ, name, props string, wants ...string) {
	t.Helper()
	got := BuildError(t, typ, name, props, t.TempDir())
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("the errors do not say %q:\n%s", w, got)
		}
	}
}
