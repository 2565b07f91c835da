package template

import (
	"testing"

	"github.com/expr-lang/expr"
)

// BenchmarkString resolves a typical templated file content: two
// expressions, both served from the program cache.
func BenchmarkString(b *testing.B) {
	tm := New(testEnv(""))
	in := "Welcome to ${ lookup('facts.hostname') } running {{ Data.app_name }} on port ${ Data.port }\n"
	for b.Loop() {
		if _, err := tm.String(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileEveryTime is what upstream CCM does for each expression
// (expr.Compile then expr.Run), for comparison with BenchmarkString.
func BenchmarkCompileEveryTime(b *testing.B) {
	tm := New(testEnv("")).bound()
	for b.Loop() {
		for _, src := range []string{"lookup('facts.hostname')", "Data.app_name", "Data.port"} {
			p, err := expr.Compile(src, expr.Env(tm.vars))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := expr.Run(p, tm.vars); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkNew builds the templates of a manifest.
func BenchmarkNew(b *testing.B) {
	env := testEnv("")
	for b.Loop() {
		New(env)
	}
}
