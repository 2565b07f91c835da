package template

import (
	"strings"
	"testing"
)

// FuzzLex feeds the lexer arbitrary strings: it must not panic, every
// expression it finds must be text of the input, a plain string must have
// none, and resolvable must agree with it. Seeds: testdata/fuzz/FuzzLex.
func FuzzLex(f *testing.F) {
	for _, s := range []string{"plain", "a {{ x }} b", "${ map(xs, { # + 1 }) }", "$${x} {{{ y }}", "{{ '}}' }}", "${{ x }}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l := lex(s)
		exprs := 0
		for _, sg := range l.segs {
			if !sg.expr {
				continue
			}
			exprs++
			if !strings.Contains(s, sg.text) {
				t.Fatalf("expression %q is not in %q", sg.text, s)
			}
			if sg.open != "{{" && sg.open != "${" {
				t.Fatalf("expression %q opened by %q", sg.text, sg.open)
			}
		}
		if resolvable(s) == l.plain {
			t.Fatalf("resolvable(%q) = %v, and lex finds it plain: %v", s, l.plain, l.plain)
		}
		if l.plain && exprs > 0 {
			t.Fatalf("%q is plain but has %d expressions", s, exprs)
		}
		if l.single && exprs != 1 {
			t.Fatalf("%q is single but has %d expressions", s, exprs)
		}
	})
}

// FuzzPath feeds lookup's path parser arbitrary paths over a small tree:
// it must not panic, and a path it accepts must find the same value
// twice. Seeds: testdata/fuzz/FuzzPath.
func FuzzPath(f *testing.F) {
	tree := map[string]any{
		"data": map[string]any{"list": []any{map[string]any{"k": 1}, "x"}, "a.b": "dotted", "n": nil},
		"env":  map[string]string{"HOME": "/root"},
	}
	for _, p := range []string{"data.list.0.k", "data.list.#", "data.list.#.k", `data.a\.b`, "env.HOME", "data.*", "data.list.-1"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, path string) {
		v1, found1, err1 := Path(tree, path)
		v2, found2, err2 := Path(tree, path)
		if (err1 == nil) != (err2 == nil) || found1 != found2 || fmtValue(v1) != fmtValue(v2) {
			t.Fatalf("%q: two lookups differ", path)
		}
	})
}

func fmtValue(v any) string {
	s, err := format(newBudget(defaultLimits), v)
	if err != nil {
		return err.Error()
	}
	return s
}
