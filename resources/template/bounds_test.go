package template

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestFilesReadAreBounded(t *testing.T) {
	dir := t.TempDir()
	resourcetest.FIFO(t, filepath.Join(dir, "fifo.jet"))
	big, err := os.Create(filepath.Join(dir, "big.templ"))
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(big.Truncate(MaxFileSize+1), big.Close()); err != nil {
		t.Fatal(err)
	}
	tm := New(testEnv(dir))
	for _, tt := range []struct {
		in   string
		want error
	}{
		{"${ readFile('/dev/zero') }", safepath.ErrNotRegular},
		{"${ file('fifo.jet') }", safepath.ErrNotRegular},
		{"${ jet('fifo.jet') }", safepath.ErrNotRegular},
		{"${ template('big.templ') }", safepath.ErrTooLarge},
		{"${ readFile('.') }", safepath.ErrNotRegular},
	} {
		if _, err := tm.String(tt.in); !errors.Is(err, tt.want) {
			t.Errorf("%s: error %v, want %v", tt.in, err, tt.want)
		}
	}
}

// bombs are expressions that would take hours or exhaust memory without
// the budget.
var bombs = []struct{ name, src string }{
	{"string doubling in reduce", `${ reduce(1..64, #acc + #acc, "ab") }`},
	{"string doubling in a let chain", "${ let a = '" + strings.Repeat("x", 1<<10) + "'; " + letChain(40) + " }"},
	{"list doubling in reduce", `${ reduce(1..64, concat(#acc, #acc), [1]) }`},
	{"repeat", `${ repeat("x", 1000000000000) }`},
	{"replace of the empty string", `${ replace(repeat("x", 10000), "", repeat("y", 10000)) }`},
	{"join of one large string many times", `${ join(map(1..100000, repeat("x", 1000)), "") }`},
	{"split into single characters", `${ len(split(repeat("x", 16000000), "")) }`},
	{"printing a list holding one large string many times", `${ [` + strings.Repeat(`Data.big, `, 100) + `Data.big] }`},
	{"string() of such a list", `${ string([` + strings.Repeat(`Data.big, `, 100) + `Data.big]) }`},
	{"toJSON of such a list", `${ toJSON([` + strings.Repeat(`Data.big, `, 100) + `Data.big]) }`},
	{"a billion turns", `${ len(filter(1..1000000000, # > 0)) }`},
	{"jet output in a billion turns", `${ jet("[[ range ints(0, 1000000000) ]]xxxxxxxx[[ end ]]") }`},
}

// letChain doubles a into b1, b1 into b2... n times.
func letChain(n int) string {
	var b strings.Builder
	prev := "a"
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "let b%d = %s + %s; ", i, prev, prev)
		prev = fmt.Sprintf("b%d", i)
	}
	b.WriteString(prev)
	return b.String()
}

func TestTemplateBombsStopAtTheBudget(t *testing.T) {
	env := testEnv(t.TempDir())
	env.Data["big"] = strings.Repeat("x", 1<<20)
	tm := New(env)
	for _, bomb := range bombs {
		t.Run(bomb.name, func(t *testing.T) {
			_, err := tm.String(bomb.src)
			if !errors.Is(err, ErrBudget) && !strings.Contains(fmt.Sprint(err), "memory budget exceeded") {
				t.Fatalf("error %v, want %v", err, ErrBudget)
			}
		})
	}
}

func TestTimeBudget(t *testing.T) {
	tm := New(testEnv(t.TempDir()))
	tm.lim.time = 0
	for _, src := range []string{`${ upper("x") }`, `${ map([1, 2], # + 1) }`, `${ jet("[[ range ints(0, 2) ]]x[[ end ]]") }`} {
		if _, err := tm.String(src); !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "ran longer than") {
			t.Errorf("%s: error %v, want the time budget", src, err)
		}
	}
	// Reading variables is not metered at all.
	if got, err := tm.String("${ Data.app_name }"); err != nil || got != "myapp" {
		t.Errorf("%q %v", got, err)
	}
}

func TestBoundedBuiltinsBehaveAsExprs(t *testing.T) {
	tm := New(testEnv(t.TempDir()))
	for _, tt := range []struct{ src, want string }{
		{`${ repeat("ab", 3) }`, "ababab"},
		{`${ replace("a-b-c", "-", "+") }`, "a+b+c"},
		{`${ replace("a-b-c", "-", "+", 1) }`, "a+b-c"},
		{`${ join(["a", "b"], ",") }`, "a,b"},
		{`${ join(["a", "b"]) }`, "ab"},
		{`${ join(split("a,b", ","), "-") }`, "a-b"},
		{`${ split("a,b,c", ",") }`, "[a b c]"},
		{`${ split("a,b,c", ",", 2) }`, "[a b,c]"},
		{`${ string(42) }`, "42"},
		{`${ toJSON({"a": 1}) }`, "{\n  \"a\": 1\n}"},
		{`${ 1 + 2 }${ "a" + "b" }${ 1.5 + 1 }`, "3ab2.5"},
		{`${ reduce([1, 2, 3], #acc + #, 0) }`, "6"},
		{`${ jet("[[ range i := ints(0, 3) ]][[ i ]][[ end ]]") }`, "012"},
		{`${ jet('[[ repeat("x", 3) ]]') }`, "xxx"},
	} {
		if got, err := tm.String(tt.src); err != nil || got != tt.want {
			t.Errorf("%s = %q, %v; want %q", tt.src, got, err, tt.want)
		}
	}
}

func TestJetTemplatesThatCannotBeBounded(t *testing.T) {
	tm := New(testEnv(t.TempDir()))
	for _, tt := range []struct {
		body string
		want error
	}{
		{"[[ block b() ]]x[[ yield b() ]][[ end ]]", errJetRecursion},
		{"[[ block a() ]][[ yield c() ]][[ end ]][[ block c() ]][[ yield a() ]][[ end ]]", errJetRecursion},
		{"[[ try ]]x[[ end ]]", errJetTry},
		// Found wherever they hide: under if, else and range, in a
		// yield's content, through a third block.
		{"[[ block b() ]][[ if true ]][[ yield b() ]][[ end ]][[ end ]]", errJetRecursion},
		{"[[ block b() ]][[ if false ]]x[[ else ]][[ yield b() ]][[ end ]][[ end ]]", errJetRecursion},
		{"[[ block b() ]][[ range ints(0, 1) ]][[ yield b() ]][[ end ]][[ end ]]", errJetRecursion},
		{"[[ block b() ]][[ range data.items ]]x[[ else ]][[ yield b() ]][[ end ]][[ end ]]", errJetRecursion},
		{"[[ block a() ]][[ yield b() ]][[ end ]][[ block b() ]][[ yield c() ]][[ end ]][[ block c() ]][[ yield a() ]][[ end ]]", errJetRecursion},
		{"[[ block w() ]][[ yield content ]][[ end ]][[ block b() ]][[ yield w() content ]][[ yield b() ]][[ end ]][[ end ]]", errJetRecursion},
		{"[[ block b() ]][[ block w() ]][[ yield content ]][[ content ]][[ yield b() ]][[ end ]][[ end ]]", errJetRecursion},
		{"[[ if true ]][[ try ]]x[[ end ]][[ end ]]", errJetTry},
		{"[[ range data.items ]][[ try ]]x[[ catch err ]]y[[ end ]][[ end ]]", errJetTry},
		{"[[ block b() ]][[ try ]]x[[ end ]][[ end ]]", errJetTry},
	} {
		if _, err := tm.Jet("t", tt.body, "[[", "]]"); !errors.Is(err, tt.want) {
			t.Errorf("%s: error %v, want %v", tt.body, err, tt.want)
		}
	}
	for body, want := range map[string]string{
		"[[ block b(n=0) ]]<[[ n ]]>[[ end ]][[ yield b(n=1) ]]":                                   "<0><1>",
		"[[ block a() ]]a[[ end ]][[ block b() ]][[ yield a() ]][[ yield a() ]][[ end ]]":          "aaa",
		"[[ block w() ]]([[ yield content ]])[[ end ]][[ yield w() content ]]x[[ end ]]":           "()(x)",
		"[[ block a() ]][[ yield b() ]][[ end ]][[ block b() ]]b[[ end ]][[ block c() ]][[ end ]]": "bb",
	} {
		if got, err := tm.Jet("t", body, "[[", "]]"); err != nil || got != want {
			t.Errorf("%s: %q %v, want %q", body, got, err, want)
		}
	}
}
