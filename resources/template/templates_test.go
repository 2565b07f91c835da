package template

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	gotemplate "text/template"
)

func testEnv(dir string) Env {
	return Env{
		Facts: map[string]any{
			"os":       "linux",
			"hostname": "test-server",
			"host":     map[string]any{"info": map[string]any{"platformFamily": "debian", "procs": 212}},
		},
		Data: map[string]any{
			"app_name":    "myapp",
			"app_version": "1.2.3",
			"port":        8080,
			"pi":          3.14159,
			"enabled":     true,
			"disabled":    false,
			"nothing":     nil,
			"items":       []any{"first", "second", "third"},
			"users":       []any{map[string]any{"name": "ann"}, map[string]any{"name": "bob"}, map[string]any{"uid": 3}},
			"nested":      map[string]any{"level2": map[string]any{"level3": "deep value"}},
			"dotted.key":  "escaped",
			"braces":      "closing braces: }}",
		},
		Environ: map[string]string{"HOME": "/home/test"},
		Dir:     dir,
	}
}

func TestStringResolves(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "", ""},
		{"plain", "plain text", "plain text"},
		{"braces", "{{ Data.app_name }}", "myapp"},
		{"two expressions", "App: {{ Data.app_name }} v{{ Data.app_version }}", "App: myapp v1.2.3"},
		{"facts", "OS: {{ Facts.os }}", "OS: linux"},
		{"lower-case variables", "{{ facts.os }}/{{ data.app_name }}/{{ environ.HOME }}", "linux/myapp//home/test"},
		{"facts by json name", "${ Facts.host.info.platformFamily }", "debian"},
		{"number", "Port: {{ Data.port }}", "Port: 8080"},
		{"bool", "Enabled: {{ Data.enabled }}", "Enabled: true"},
		{"false", "{{ Data.disabled }}", "false"},
		{"nil prints empty", "[{{ Data.nothing }}]", "[]"},
		{"extra whitespace", "{{   Data.app_name   }}", "myapp"},
		{"arithmetic", "{{ Data.port + 1 }}", "8081"},
		{"concatenation", "{{ Data.app_name + '-' + Data.app_version }}", "myapp-1.2.3"},
		{"conditional", "{{ Data.enabled ? 'yes' : 'no' }}", "yes"},
		{"adjacent", "{{ Data.app_name }}{{ Data.app_version }}", "myapp1.2.3"},
		{"dollar", "app: ${ Data.app_name } v${ Data.app_version }", "app: myapp v1.2.3"},
		{"mixed syntaxes", "{{ Data.app_name }} on ${ Facts.hostname }", "myapp on test-server"},
		{"dollar then braces", "${{ Data.app_name }}", "$myapp"},
		{"dollar without brace", "costs $5", "costs $5"},
		{"value with closer is not re-read", "{{ Data.braces }}", "closing braces: }}"},
		{"closer in a string literal", `{{ Data.app_name + "}}" }}`, "myapp}}"},
		{"lambda", "${ join(map(Data.items, { upper(#) }), ',') }", "FIRST,SECOND,THIRD"},
		{"escaped shell variable", "echo $${HOME} ${ Environ.HOME }", "echo ${HOME} /home/test"},
		{"escaped braces", "{{{ literal }} {{ Data.port }}", "{{ literal }} 8080"},
		{"builtin", "{{ upper(Facts.os) }}", "LINUX"},
	}
	tm := New(testEnv(""))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tm.String(tt.in)
			if err != nil {
				t.Fatalf("String(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Fatalf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestValueKeepsTheTypeOfOneExpression(t *testing.T) {
	tests := []valueCase{
		{"int", "{{ Data.port }}", 8080},
		{"int with whitespace", "  ${ Data.port }  ", 8080},
		{"computed int", "${ Data.port + 100 }", 8180},
		{"bool", "${ Data.enabled }", true},
		{"float", "${ Data.pi }", 3.14159},
		{"list", "{{ Data.items }}", []any{"first", "second", "third"}},
		{"nil", "${ Data.nothing }", nil},
		{"string", "{{ Data.app_name }}", "myapp"},
		{"text around makes a string", "Port: {{ Data.port }}", "Port: 8080"},
		{"two expressions make a string", "${ Data.port }${ Data.port }", "80808080"},
		{"plain", "plain", "plain"},
		{"escape only", "$${X}", "${X}"},
	}
	checkValues(t, New(testEnv("")), tests)
}

func TestLookup(t *testing.T) {
	tests := []valueCase{
		{"nested key", "${ lookup('data.nested.level2.level3') }", "deep value"},
		{"fact", "${ lookup('facts.host.info.platformFamily') }", "debian"},
		{"number keeps its type", "${ lookup('data.port') }", 8080},
		{"float", "${ lookup('data.pi') }", 3.14159},
		{"list index", "${ lookup('data.items.1') }", "second"},
		{"list length", "${ lookup('data.items.#') }", 3},
		{"list projection", "${ lookup('data.users.#.name') }", []any{"ann", "bob"}},
		{"escaped dot", `${ lookup('data.dotted\\.key') }`, "escaped"},
		{"environment", "${ lookup('environ.HOME') }", "/home/test"},
		{"default for missing key", "${ lookup('data.nonexistent', 'default') }", "default"},
		{"default for index out of range", "${ lookup('data.items.9', 0) }", 0},
		{"found value wins over default", "${ lookup('data.port', 1) }", 8080},
		{"present nil is found", "${ lookup('data.nothing', 'x') }", nil},
		{"gjson query", `${ lookup('data.users.#(name=="bob").name') }`, "bob"},
		{"gjson query of every match", `${ lookup('data.users.#(uid>2)#.uid') }`, []any{3}},
		{"gjson wildcard", "${ lookup('data.nested.lev*.level3') }", "deep value"},
		{"gjson modifier", "${ lookup('data.items|@reverse|0') }", "third"},
		{"a map", "${ lookup('data.nested.level2') }", map[string]any{"level3": "deep value"}},
	}
	checkValues(t, New(testEnv("")), tests)
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, in string
		is       error
		contains string
	}{
		{"missing key", "{{ lookup('data.nonexistent') }}", ErrMissingKey, "lookup('data.nonexistent') }}: lookup: no value for key; give a default"},
		{"query finding nothing", "{{ lookup('data.users.#(name==\"x\").uid') }}", ErrMissingKey, "give a default"},
		{"lookup arity", "{{ lookup() }}", ErrArgs, "1 or 2 arguments"},
		{"lookup key type", "{{ lookup(1) }}", ErrArgs, "must be a string"},
		{"empty expression", "a {{  }} b", ErrEmptyExpr, "{{  }}"},
		{"unknown shell variable hints at the escape", "echo ${HOME}", nil, "write $${"},
		{"syntax error names the expression", "{{ invalid syntax }}", nil, "template {{ invalid syntax }}:"},
		{"jet arity", "{{ jet('a', 'b') }}", ErrArgs, "1 or 3 arguments"},
		{"jet body type", "{{ jet(123) }}", ErrArgs, "body must be a string"},
		{"jet delimiter type", "{{ jet('b', 1, '>>') }}", ErrArgs, "left delimiter"},
		{"jet syntax", "{{ jet('[[ if ]]') }}", nil, "jet: template: /inline:1"},
		{"template arity", "{{ template() }}", ErrArgs, "takes 1 argument"},
		{"template type", "{{ template(1) }}", ErrArgs, "must be a string"},
		{"missing file", "{{ readFile('nonexistent.txt') }}", os.ErrNotExist, "nonexistent.txt"},
		{"missing templ file", "{{ template('nonexistent.templ') }}", os.ErrNotExist, "nonexistent.templ"},
	}
	tm := New(testEnv(t.TempDir()))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tm.String(tt.in)
			if err == nil {
				t.Fatalf("String(%q) succeeded, want an error", tt.in)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("String(%q) error %q is not %v", tt.in, err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("String(%q) error %q does not contain %q", tt.in, err, tt.contains)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("String(%q) error spans lines: %q", tt.in, err)
			}
		})
	}
}

func TestFilesAndNestedTemplates(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"motd.txt":     "hello\n",
		"test.templ":   "{{ Data.app_name }} v{{ Data.app_version }}",
		"test.jet":     "[[ data.app_name ]] v[[ Data.app_version ]]",
		"self.templ":   "{{ template('self.templ') }}",
		"sub/rel.txt":  "relative",
		"include.jet":  `[[ template("test.templ") ]]/[[ lookup("facts.os") ]]/[[ file("sub/rel.txt") ]]`,
		"typed.templ":  "${ Data.port }",
		"nested.templ": "<{{ template('test.jet') }}>",
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []valueCase{
		{"readFile relative to the manifest", "${ readFile('motd.txt') }", "hello\n"},
		{"file is readFile", "${ file('sub/rel.txt') }", "relative"},
		{"readFile absolute", "${ file('" + filepath.Join(dir, "motd.txt") + "') }", "hello\n"},
		{"templ file", "${ template('test.templ') }", "myapp v1.2.3"},
		{"templ keeps type", "${ template('typed.templ') }", 8080},
		{"jet file through template", "${ template('test.jet') }", "myapp v1.2.3"},
		{"jet file", "${ jet('test.jet') }", "myapp v1.2.3"},
		{"inline text through template", "${ template('prefix-' + Data.app_name) }", "prefix-myapp"},
		{"inline expression through template", "${ template('{{ Data.port + 1 }}') }", 8081},
		{"jet inline", "${ jet('[[ if data.enabled ]]on[[ else ]]off[[ end ]]') }", "on"},
		{"jet context", "${ jet('[[ .Data.app_name ]]/[[ .facts.os ]]') }", "myapp/linux"},
		{"jet custom delimiters", "${ jet('<< data.app_name >>', '<<', '>>') }", "myapp"},
		{"jet range", "${ jet('[[ range i, v := data.items ]][[ i ]]:[[ v ]] [[ end ]]') }", "0:first 1:second 2:third "},
		{"jet functions", "${ jet('include.jet') }", "myapp v1.2.3/linux/relative"},
		{"jet is not html-escaped", `${ jet('[[ "<a&b>" ]]') }`, "<a&b>"},
		{"templ including jet", "${ template('nested.templ') }", "<myapp v1.2.3>"},
	}
	tm := New(testEnv(dir))
	checkValues(t, tm, tests)
	t.Run("a template including itself stops", func(t *testing.T) {
		_, err := tm.Value("${ template('self.templ') }")
		if !errors.Is(err, ErrTooDeep) {
			t.Fatalf("self-including template: got %v, want ErrTooDeep", err)
		}
	})
}

func TestDataTemplates(t *testing.T) {
	tm := NewData(testEnv(t.TempDir()))
	// A hierarchy entry matches when it has no expression or one of its
	// expressions gives something other than "" and nil.
	for _, tt := range []struct {
		in, want string
		matched  bool
	}{
		{"env:${ lookup('facts.env') }", "env:", false},
		{"os:{{ lookup('facts.os') }}", "os:linux", true},
		{"default", "default", true},
		{"$${literal}", "${literal}", true},
		{"{{ lookup('facts.env') }}-{{ lookup('facts.os') }}", "-linux", true},
		{"x{{ Data.nothing }}", "x", false},
		{"{{ Data.disabled }}", "false", true},
	} {
		got, matched, err := tm.Matched(tt.in)
		if err != nil || got != tt.want || matched != tt.matched {
			t.Errorf("Matched(%q) = %q, %v, %v; want %q, %v", tt.in, got, matched, err, tt.want, tt.matched)
		}
	}
	t.Run("file functions are not offered", func(t *testing.T) {
		if _, err := tm.String("${ readFile('x') }"); err == nil || !strings.Contains(err.Error(), "unknown") {
			t.Fatalf("readFile in data templates: got %v, want an unknown-name error", err)
		}
	})
}

func TestHasExpr(t *testing.T) {
	tm := New(Env{})
	for in, want := range map[string]bool{
		"plain": false, "{{ x }}": true, "${ x }": true, "$${x}": true, "{{{ x }}": true,
		"costs $5": false, "{{ open": false,
	} {
		if got := tm.HasExpr(in); got != want {
			t.Errorf("HasExpr(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestVarsAndFingerprint(t *testing.T) {
	env := testEnv("/srv")
	a, b := New(env), New(testEnv("/srv"))
	vars := a.Vars()
	for _, n := range []string{"Facts", "facts", "Data", "data", "Environ", "environ"} {
		if _, ok := vars[n]; !ok {
			t.Errorf("Vars() lacks %q", n)
		}
	}
	if a.Fingerprint() != b.Fingerprint() {
		t.Errorf("equal environments have different fingerprints")
	}
	env2 := testEnv("/srv")
	env2.Data["port"] = 8081
	if New(env2).Fingerprint() == a.Fingerprint() {
		t.Errorf("changed data kept the fingerprint")
	}
	env3 := testEnv("/srv")
	env3.Environ["HOME"] = "/root"
	for name, other := range map[string]*Templates{
		"the shape":       NewData(testEnv("/srv")),
		"the directory":   New(testEnv("/opt")),
		"the environment": New(env3),
	} {
		if other.Fingerprint() == a.Fingerprint() {
			t.Errorf("another %s kept the fingerprint", name)
		}
	}
}

func TestFactsLoadedOnFirstNeed(t *testing.T) {
	// lazyEnv is testEnv whose facts come from LoadFacts, counting calls.
	lazyEnv := func(calls *atomic.Int32) Env {
		env := testEnv("")
		facts := env.Facts
		env.Facts, env.LoadFacts = nil, func() map[string]any {
			calls.Add(1)
			return facts
		}
		return env
	}
	t.Run("plain strings, compiles and checks leave them unloaded", func(t *testing.T) {
		var calls atomic.Int32
		tm := New(lazyEnv(&calls))
		if tm.HasExpr("plain") || tm.Compile("{{ Facts.os }}") != nil || tm.Check("Facts.os == 'linux'") != nil {
			t.Fatal("unexpected answer")
		}
		if got, err := tm.String("plain text"); err != nil || got != "plain text" {
			t.Fatalf("String: %q, %v", got, err)
		}
		if n := calls.Load(); n != 0 {
			t.Errorf("facts loaded %d times", n)
		}
	})
	for name, use := range map[string]func(*Templates) (any, error){
		"an expression": func(tm *Templates) (any, error) { return tm.Value("${ Facts.os }") },
		"lookup()":      func(tm *Templates) (any, error) { return tm.Value("{{ lookup('facts.os') }}") },
		"Vars":          func(tm *Templates) (any, error) { return tm.Vars()["facts"].(map[string]any)["os"], nil },
		"a Jet render":  func(tm *Templates) (any, error) { return tm.Value("${ jet('[[ facts.os ]]') }") },
	} {
		t.Run(name+" loads them once, for every concurrent use", func(t *testing.T) {
			var calls atomic.Int32
			tm := New(lazyEnv(&calls))
			var wg sync.WaitGroup
			for range 8 {
				wg.Go(func() {
					if got, err := use(tm); err != nil || got != "linux" {
						t.Errorf("got %v, %v", got, err)
					}
				})
			}
			wg.Wait()
			if n := calls.Load(); n != 1 {
				t.Errorf("facts loaded %d times, want once", n)
			}
		})
	}
	t.Run("the fingerprint covers them", func(t *testing.T) {
		var calls atomic.Int32
		if New(lazyEnv(&calls)).Fingerprint() != New(testEnv("")).Fingerprint() {
			t.Error("loaded facts fingerprint differently from the same facts given")
		}
	})
}

func TestConcurrentResolution(t *testing.T) {
	tm := New(testEnv(""))
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := tm.String("{{ lookup('data.app_name') }}-${ Data.port } ${ jet('[[ data.app_name ]]') }")
			if err == nil && got != "myapp-8080 myapp" {
				err = errors.New("got " + got)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// valueCase is a string to resolve with Value and the value expected.
type valueCase struct {
	name string
	in   string
	want any
}

func checkValues(t *testing.T, tm *Templates, tests []valueCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tm.Value(tt.in)
			if err != nil {
				t.Fatalf("Value(%q): %v", tt.in, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Value(%q) = %#v, want %#v", tt.in, got, tt.want)
			}
		})
	}
}

func TestEvalAndCheck(t *testing.T) {
	tm := New(testEnv(""))
	tests := []struct {
		name string
		in   string
		want any
	}{
		{"bare expression", `lookup("facts.os") == "linux"`, true},
		{"bare expression with spaces", `  Facts.hostname != "test-server" `, false},
		{"delimited expression", "${ Data.enabled }", true},
		{"number", "Data.port", 8080},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tm.Check(tt.in); err != nil {
				t.Fatalf("Check(%q): %v", tt.in, err)
			}
			got, err := tm.Eval(tt.in)
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Eval(%q) = %#v, %v; want %#v", tt.in, got, err, tt.want)
			}
		})
	}
	for _, bad := range []string{"Facts.os ==", "", "${ 1 + }", "nosuch == 1"} {
		if err := tm.Check(bad); err == nil {
			t.Errorf("Check(%q) accepted a broken expression", bad)
		}
	}
	if err := tm.Check(`lookup("facts.nosuch") == "x"`); err != nil {
		t.Errorf("Check ran the expression: %v", err)
	}
	if _, err := tm.Eval(`lookup("facts.nosuch") == "x"`); !errors.Is(err, ErrMissingKey) || !strings.HasPrefix(err.Error(), "expression ") {
		t.Errorf("Eval of a missing key: %v, want ErrMissingKey in an expression error", err)
	}
}

func TestFunctionsForOtherEngines(t *testing.T) {
	tm := New(testEnv(""))
	var out strings.Builder
	gt := gotemplate.Must(gotemplate.New("x").Funcs(gotemplate.FuncMap(toFuncMap(tm.Functions()))).Parse(`{{ lookup "facts.os" }}/{{ .data.app_name }}`))
	if err := gt.Execute(&out, tm.Vars()); err != nil || out.String() != "linux/myapp" {
		t.Errorf("Go template with Functions = %q, %v; want linux/myapp", out.String(), err)
	}
	if _, ok := tm.JetFunctions()["lookup"]; !ok {
		t.Errorf("JetFunctions lacks lookup")
	}
	if _, ok := tm.JetFunctions()["jet"]; ok {
		t.Errorf("JetFunctions offers jet inside Jet")
	}
}

func toFuncMap(fns map[string]func(...any) (any, error)) map[string]any {
	out := map[string]any{}
	for k, v := range fns {
		out[k] = v
	}
	return out
}
