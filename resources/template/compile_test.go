package template

import (
	"fmt"
	"strings"
	"testing"
)

// Validation compiles deferred templates without their variables: an
// unknown variable fails only when the template runs (as upstream), while
// unknown functions and syntax fail at once. The second pass is answered
// from the cache of checks, and must answer alike.
func TestCompileTakesUnknownVariablesForLater(t *testing.T) {
	for pass := 1; pass <= 2; pass++ {
		t.Run(fmt.Sprintf("pass %d", pass), checkCompile)
	}
}

func checkCompile(t *testing.T) {
	tm := New(testEnv(t.TempDir()))
	for _, src := range []string{
		"plain",
		"{{ user_provided_filename }}",
		"{{ request.path.base }}",
		"{{ upper(user_provided_filename) }}",
		"{{ not (a and b) }}",
		"{{ x | lower() }}",
		"{{ len(Facts.os) > 0 ? y : z }}",
		"{{ filter(items, # startsWith (prefix)) }}",
	} {
		if err := tm.Compile(src); err != nil {
			t.Errorf("Compile(%q) = %v, want nil", src, err)
		}
	}
	for src, want := range map[string]string{
		"{{ nosuchfn(x) }}":          "unknown name nosuchfn",
		"{{ nosuchfn(Facts.os) }}":   "unknown name nosuchfn",
		"{{ upper(x, y, z) }}":       "too many arguments",
		"{{ x + }}":                  "unexpected token",
		"{{ }}":                      "empty",
		"{{ user.name.nosuchfn() }}": "",
	} {
		err := tm.Compile(src)
		if want == "" {
			if err != nil {
				t.Errorf("Compile(%q) = %v, want nil (a method on a value with no type yet)", src, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Compile(%q) = %v, want an error containing %q", src, err, want)
		}
	}
}
