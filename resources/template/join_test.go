package template

import (
	"errors"
	"testing"
)

// TestJoinedTextBounded: a string made of several expressions is held
// to the value bound as a whole, and a collection printed into text is
// refused by its estimate before it is printed.
func TestJoinedTextBounded(t *testing.T) {
	env := testEnv(t.TempDir())
	env.Data["s5"], env.Data["s6"] = "12345", "123456"
	env.Data["list"] = []any{"ab", "cd"}
	tm := New(env)
	tm.lim.value = 10
	const refused = "refused"
	tests := []struct{ in, want string }{
		{"{{ Data.s5 }}{{ Data.s5 }}", "1234512345"},
		{"{{ Data.s5 }}{{ Data.s6 }}", refused},
		{"a{{ Data.s5 }}{{ Data.s5 }}", refused},
		{"{{ Data.s6 }}", "123456"},
		{"[{{ Data.nothing }}]", "[]"},
		{"{{ Data.list }}", refused},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := tm.String(tt.in)
			if tt.want == refused {
				var ee *ExprError
				if !errors.Is(err, ErrBudget) || !errors.As(err, &ee) || !ee.Ran {
					t.Fatalf("got %q, %v; want a run-time budget error", got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	// One expression keeps its type, and is not printed: no estimate.
	if v, err := tm.Value("${ Data.list }"); err != nil || len(v.([]any)) != 2 {
		t.Fatalf("a list as a value: %v, %v", v, err)
	}
}
