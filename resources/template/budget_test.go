package template

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSizeOf(t *testing.T) {
	tests := []struct {
		name string
		v    any
		max  int64
		want int64
	}{
		{"a string by its length", "hello", 100, 5},
		{"bytes by their length", []byte("abc"), 100, 3},
		{"another scalar", 3.5, 100, 8},
		{"nil", nil, 100, 8},
		{"a list: brackets, separators, items", []any{"ab", "c"}, 100, 2 + 2 + 2 + 2 + 1},
		{"a map: keys and separators too", map[string]any{"k": "vv"}, 100, 2 + 1 + 4 + 2},
		{"a map of strings", map[string]string{"ab": "c", "d": ""}, 100, 2 + 3 + 4 + 1 + 4},
		{"nested", []any{[]any{"x"}}, 100, 2 + 2 + (2 + 2 + 1)},
		{"a list stops once past the bound", []any{"aaaa", "bbbb", "cccc"}, 5, 2 + 2 + 4},
		{"a map stops once past the bound", map[string]any{"k": strings.Repeat("x", 50)}, 10, 2 + 1 + 4 + 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sizeOf(tt.v, tt.max); got != tt.want {
				t.Fatalf("sizeOf = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestBudgetCharges(t *testing.T) {
	b := newBudget(limits{value: 10, work: 25, time: time.Hour})
	steps := []struct {
		n    int64
		want string
	}{
		{10, ""},
		{11, "template budget exceeded: a value of more than 10 bytes"},
		{10, ""},
		{5, ""},
		{1, "template budget exceeded: more than 25 bytes made in one evaluation"},
	}
	for i, s := range steps {
		err := b.charge(s.n)
		if got := errText(err); got != s.want {
			t.Fatalf("step %d: charge(%d) = %q, want %q", i, s.n, got, s.want)
		}
		if err != nil && !errors.Is(err, ErrBudget) {
			t.Fatalf("step %d: %v is not ErrBudget", i, err)
		}
	}
	for n, ok := range map[int64]bool{10: true, 11: false, -1: false, 0: true} {
		if err := b.allow(n); (err == nil) != ok {
			t.Errorf("allow(%d) = %v", n, err)
		}
	}
	late := newBudget(limits{value: 10, work: 25, time: -time.Second})
	if got := errText(late.charge(1)); got != "template budget exceeded: the evaluation ran longer than -1s" {
		t.Errorf("a charge after the deadline: %q", got)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestBoundedBuiltinsAtTheBound: each bounded builtin makes a value of
// exactly the bound and refuses one byte more before making it.
func TestBoundedBuiltinsAtTheBound(t *testing.T) {
	env := testEnv(t.TempDir())
	env.Data["pair"] = []any{"abcde", "fghij"}
	tm := New(env)
	tm.lim.value = 12
	const refused = "refused"
	tests := []struct{ src, want string }{
		{`${ repeat("abc", 4) }`, "abcabcabcabc"},
		{`${ repeat("abc", 5) }`, refused},
		{`${ repeat("", 1000) }`, ""},
		{`${ replace("aaaa", "a", "bbb") }`, "bbbbbbbbbbbb"},
		{`${ replace("aaaaa", "a", "bbb") }`, refused},
		{`${ replace("aaaaa", "a", "bbb", 2) }`, "bbbbbbaaa"},
		{`${ replace("aaaaa", "a", "bbb", -1) }`, refused},
		{`${ replace("aaaa", "a", "bbb", -1) }`, "bbbbbbbbbbbb"},
		{`${ repeat("ab", 4611686018427387904) }`, refused},
		{`${ replace("abc", "", "--") }`, "--a--b--c--"},
		{`${ replace("abcd", "", "--") }`, refused},
		{`${ join(Data.pair, "--") }`, "abcde--fghij"},
		{`${ join(Data.pair, "---") }`, refused},
		{`${ "abcdef" + "ghijkl" }`, "abcdefghijkl"},
		{`${ "abcdef" + "ghijklm" }`, refused},
		{`${ string("abcdef") }`, "abcdef"},
		{`${ string("abcdefg") }`, refused},
		{`${ toJSON("ab") }`, `"ab"`},
		{`${ toJSON("abcd") }`, refused},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got, err := tm.String(tt.src)
			if tt.want == refused {
				if !errors.Is(err, ErrBudget) {
					t.Fatalf("got %q, %v; want the budget refused", got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestSplitCountsItsPieces: each piece of split costs a string header
// (16 bytes) besides its text, so many tiny pieces are refused.
func TestSplitCountsItsPieces(t *testing.T) {
	tm := New(testEnv(t.TempDir()))
	tm.lim.value = 3 + 16*3
	if got, err := tm.String(`${ split("a,b", ",") }`); err != nil || got != "[a b]" {
		t.Fatalf("two pieces: %q, %v", got, err)
	}
	if got, err := tm.String(`${ split("abcd", "") }`); !errors.Is(err, ErrBudget) {
		t.Fatalf("four pieces: %q, %v; want the budget refused", got, err)
	}
	if got, err := tm.String(`${ split("a,b,c,d", ",", 2) }`); err != nil || got != "[a b,c,d]" {
		t.Fatalf("at most two pieces: %q, %v", got, err)
	}
}

// TestNestedCallsShareTheBudget: the template() and jet() calls an
// evaluation makes spend its budget, not one of their own: work made in
// each adds up to one bound.
func TestNestedCallsShareTheBudget(t *testing.T) {
	tm := New(testEnv(t.TempDir()))
	tm.lim.work = 40
	tests := []struct {
		name, src string
		refused   bool
	}{
		{"one template call within the bound", `${ template('{{ repeat("x", 15) }}') }`, false},
		{"three template calls beyond it together", `${ template('{{ repeat("x", 15) }}') + template('{{ repeat("x", 15) }}') + template('{{ repeat("x", 15) }}') }`, true},
		{"one jet call within the bound", `${ jet('[[ repeat("x", 15) ]]') }`, false},
		{"work before a jet call counts", `${ repeat("x", 25) }${ jet('[[ repeat("x", 10) ]]') }`, true},
		{"jet calling template beyond it together", "${ jet('[[ template(`{{ repeat(\\'x\\', 15) }}`) ]][[ template(`{{ repeat(\\'x\\', 15) }}`) ]]') }", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tm.String(tt.src)
			if refused := errors.Is(err, ErrBudget); refused != tt.refused || !tt.refused && err != nil {
				t.Fatalf("error %v, want refused %v", err, tt.refused)
			}
			if tt.refused && !strings.Contains(err.Error(), "more than 40 bytes made in one evaluation") {
				t.Fatalf("error %v, want the work bound", err)
			}
		})
	}
}
