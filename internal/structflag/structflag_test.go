package structflag_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/internal/structflag"
	"github.com/spf13/pflag"
)

type standing string

// kinds holds one field of every supported kind; the initial values of
// Strings and Map are their defaults.
type kinds struct {
	Bool     bool              `flag:"bool,short=b" help:"a bool"`
	BoolOn   bool              `flag:"bool-on,default=true" help:"a bool on by default"`
	String   string            `flag:"string,default=x" help:"a string"`
	Named    standing          `flag:"named" help:"a named string type"`
	Int      int               `flag:"int,short=i,default=5" help:"an int"`
	Int64    int64             `flag:"int64,default=100000" help:"an int64"`
	Duration time.Duration     `flag:"duration,default=30m" help:"a duration"`
	Strings  []string          `flag:"strings" help:"repeatable"`
	Map      map[string]string `flag:"map,short=M" help:"KEY=VALUE"`
	Ignored  int
}

func TestBindKinds(t *testing.T) {
	tests := []struct {
		flag, short, help, def string
		args                   []string
		want                   func(k kinds) any
		wantValue              any
	}{
		{"bool", "b", "a bool", "false", []string{"-b"}, func(k kinds) any { return k.Bool }, true},
		{"bool-on", "", "a bool on by default", "true", []string{"--bool-on=false"}, func(k kinds) any { return k.BoolOn }, false},
		{"string", "", "a string", "x", []string{"--string", "y"}, func(k kinds) any { return k.String }, "y"},
		{"named", "", "a named string type", "", []string{"--named", "converged"}, func(k kinds) any { return k.Named }, standing("converged")},
		{"int", "i", "an int", "5", []string{"-i", "7"}, func(k kinds) any { return k.Int }, 7},
		{"int64", "", "an int64", "100000", []string{"--int64", "9"}, func(k kinds) any { return k.Int64 }, int64(9)},
		{"duration", "", "a duration", "30m0s", []string{"--duration", "2s"}, func(k kinds) any { return k.Duration }, 2 * time.Second},
		// A repeatable flag given replaces its default, then appends.
		{"strings", "", "repeatable", "[ccm]", []string{"--strings", "a", "--strings", "b"}, func(k kinds) any { return k.Strings }, []string{"a", "b"}},
		{"map", "M", "KEY=VALUE", "[]", []string{"-M", "a=1", "-M", "b=2"}, func(k kinds) any { return k.Map }, map[string]string{"a": "1", "b": "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.flag, func(t *testing.T) {
			k := kinds{Strings: []string{"ccm"}}
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			if err := structflag.Bind(fs, &k); err != nil {
				t.Fatal(err)
			}
			f := fs.Lookup(tt.flag)
			if f == nil {
				t.Fatalf("no flag --%s", tt.flag)
			}
			if f.Shorthand != tt.short || f.Usage != tt.help || f.DefValue != tt.def {
				t.Errorf("--%s: short %q help %q default %q, want %q %q %q", tt.flag, f.Shorthand, f.Usage, f.DefValue, tt.short, tt.help, tt.def)
			}
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			if got := tt.want(k); !reflect.DeepEqual(got, tt.wantValue) {
				t.Errorf("after %v: %#v, want %#v", tt.args, got, tt.wantValue)
			}
		})
	}
}

// defaults is a struct of tagged defaults and an initial value.
type defaults struct {
	Bundles []string      `flag:"bundles" help:"b"`
	Age     time.Duration `flag:"age,default=168h" help:"a"`
	On      bool          `flag:"on,default=true" help:"o"`
}

func TestBindDefaultsUnchangedWhenNotGiven(t *testing.T) {
	d := defaults{Bundles: []string{"ccm"}}
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	if err := structflag.Bind(fs, &d); err != nil {
		t.Fatal(err)
	}
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	want := defaults{Bundles: []string{"ccm"}, Age: 168 * time.Hour, On: true}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("got %+v, want %+v", d, want)
	}
	for _, name := range []string{"bundles", "age", "on"} {
		if fs.Changed(name) {
			t.Errorf("--%s counts as given", name)
		}
	}
}

// Shared is a group of flags embedded by several commands' structs.
type Shared struct {
	Verbose bool `flag:"verbose,short=v" help:"v"`
	Diff    bool `flag:"diff" help:"d"`
}

type shared struct {
	Noop bool `flag:"noop" help:"n"`
	Shared
	JSON bool `flag:"json" help:"j"`
	// hidden holds what the command computes; untagged, it is no flag.
	computed int
}

func TestBindEmbeddedInFieldOrder(t *testing.T) {
	var s shared
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	fs.SortFlags = false
	if err := structflag.Bind(fs, &s); err != nil {
		t.Fatal(err)
	}
	var names []string
	fs.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if got := strings.Join(names, " "); got != "noop verbose diff json" {
		t.Errorf("flags %q, want %q", got, "noop verbose diff json")
	}
	if err := fs.Parse([]string{"-v", "--diff"}); err != nil {
		t.Fatal(err)
	}
	if !s.Verbose || !s.Diff || s.Noop || s.computed != 0 {
		t.Errorf("got %+v", s)
	}
}

func TestBindErrors(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"not a pointer", kinds{}, "want a pointer to a struct, got structflag_test.kinds"},
		{"pointer to a non-struct", new(int), "want a pointer to a struct, got *int"},
		{"unsupported kind", &struct {
			F float64 `flag:"ratio" help:"r"`
		}{}, "F: --ratio: unsupported type float64"},
		{"unsupported slice", &struct {
			F []int `flag:"ports" help:"p"`
		}{}, "F: --ports: unsupported type []int"},
		{"unknown option", &struct {
			F bool `flag:"x,hiden" help:"x"`
		}{}, `F: unknown flag tag option "hiden"`},
		{"no name", &struct {
			F bool `flag:",short=x" help:"x"`
		}{}, "F: a flag needs a name and an exported field"},
		{"unexported field", &struct {
			f bool `flag:"x" help:"x"`
		}{}, "f: a flag needs a name and an exported field"},
		{"default of a repeatable flag", &struct {
			F []string `flag:"data,default=a" help:"d"`
		}{}, "F: --data: default= is for single values; give a []string's default as the field's value"},
		{"default that does not parse", &struct {
			F time.Duration `flag:"wait,default=soon" help:"w"`
		}{}, `F: --wait: default: time: invalid duration "soon"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := structflag.Bind(pflag.NewFlagSet("test", pflag.ContinueOnError), tt.v)
			if err == nil || !strings.HasSuffix(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "structflag: ") {
				t.Errorf("error %v, want one ending %q", err, tt.want)
			}
		})
	}
}
