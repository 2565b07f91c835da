package resources

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Kind is the shape of a property's value.
type Kind int

const (
	KindString Kind = iota
	KindBool
	KindInt
	// KindStrings is a list of strings.
	KindStrings
	// KindInts is a list of integers.
	KindInts
	// KindStringMap is a map of strings to strings.
	KindStringMap
	// KindPairs is a list of single-key maps of string to string, kept in
	// order (scaffold's post).
	KindPairs
	// KindMap is a map of anything (scaffold's and apply's data).
	KindMap
	// KindObject is a map with the keys of Fields.
	KindObject
	// KindObjects is a list of KindObject.
	KindObjects
)

// Property describes one property a resource takes. The decoder matches
// manifest keys against these; the JSON Schema, `ccm ensure`'s flags and
// the ensure request are generated from them, so all of them agree with
// what a manifest may say.
//
// A type declares its properties as the fields of its property struct,
// with tags:
//
//	yaml:"name"       the manifest key
//	ccm:"deferred"    a string resolved just before use (see Deferred)
//	help:"..."        one line for --help and the schema's description
//	enum:"a,b"        the only values a string takes
//	cli:"..."         how `ccm ensure` offers it, comma-separated options:
//	                  -         not offered
//	                  arg=N     also the Nth positional argument after NAME
//	                  flag=N    the flag's name (default: the key, _ as -)
//	                  alias=N   another name for the flag
//	                  short=X   a one-letter alias
//	                  default=V the value when neither flag nor argument is
//	                            given; @user and @group stand for the
//	                            invoking user's and group's names
//	                  env=E     the environment variable E, when set, is the
//	                            default
//	                  file=N    a second flag, N, whose value is a file whose
//	                            content becomes this property
//	                  filealias=N another name for the file flag
//	                  negate=N  (*bool) a flag N that sets false
//	                  split=P   a value A:B sets this property to A and P to B
//	                  sep=X     (string maps) the separator of KEY X VALUE
//	                  one       (object lists) the fields' flags build one item
//
// A field whose type decodes itself (a yaml.Unmarshaler) says what it
// accepts by implementing Kinded, and may give its own schema with Schemed.
type Property struct {
	Name string
	Kind Kind
	Help string
	// Enum lists the only values of a string property; nil when open.
	Enum []string
	// Deferred properties keep their templates until just before use.
	Deferred bool
	// Fields are the keys of a KindObject, or of each item of KindObjects.
	Fields []Property
	// Schema, when set, replaces the JSON Schema the kind implies.
	Schema map[string]any
	CLI    CLI
}

// CLI says how `ccm ensure` offers a property. The zero value is a flag
// named after the property, without default.
type CLI struct {
	Skip bool
	// Arg is the property's position among the arguments after NAME,
	// from 1; 0 when it is a flag only.
	Arg     int
	Flag    string
	Alias   string
	Short   string
	Default string
	Env     string
	File    string
	// FileAlias is another name for the File flag.
	FileAlias string
	Negate    string
	Split     string
	Sep       string
	One       bool
}

// FlagName is the name of the property's flag.
func (p Property) FlagName() string {
	if p.CLI.Flag != "" {
		return p.CLI.Flag
	}
	return strings.ReplaceAll(p.Name, "_", "-")
}

// Kinded is implemented by property types that decode themselves, to say
// what shape of value they accept.
type Kinded interface {
	PropertyKind() Kind
}

// Schemed is implemented by property types whose JSON Schema is narrower
// than their kind's (an octal mode).
type Schemed interface {
	JSONSchema() map[string]any
}

var propCache sync.Map

// PropertiesOf lists the properties declared by the fields of the struct
// v (or v points to), in field order; `yaml:",inline"` fields contribute
// theirs. It panics on a field whose Go type has no Kind, a programming
// error every test of the type finds.
func PropertiesOf(v any) []Property {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if p, ok := propCache.Load(t); ok {
		return p.([]Property)
	}
	props := structProperties(t)
	propCache.Store(t, props)
	return props
}

func structProperties(t reflect.Type) []Property {
	var out []Property
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name, opts, _ := strings.Cut(sf.Tag.Get("yaml"), ",")
		switch {
		case name == "-":
			continue
		case opts == "inline":
			out = append(out, structProperties(sf.Type)...)
			continue
		case name == "":
			continue
		}
		out = append(out, fieldProperty(name, sf))
	}
	return out
}

func fieldProperty(name string, sf reflect.StructField) Property {
	p := Property{
		Name:     name,
		Help:     sf.Tag.Get("help"),
		Deferred: sf.Tag.Get("ccm") == "deferred",
		CLI:      parseCLI(sf.Tag.Get("cli")),
	}
	if e := sf.Tag.Get("enum"); e != "" {
		p.Enum = strings.Split(e, ",")
	}
	p.Kind, p.Fields = kindOf(sf.Type)
	if s, ok := reflect.New(sf.Type).Interface().(Schemed); ok {
		p.Schema = s.JSONSchema()
	}
	return p
}

var (
	kindedType    = reflect.TypeFor[Kinded]()
	stringMapType = reflect.TypeFor[map[string]string]()
	anyMapType    = reflect.TypeFor[map[string]any]()
)

// kindOf maps a field's Go type to its Kind, and a struct to its fields.
func kindOf(t reflect.Type) (Kind, []Property) {
	if reflect.PointerTo(t).Implements(kindedType) {
		return reflect.New(t).Interface().(Kinded).PropertyKind(), nil
	}
	switch {
	case t == stringMapType:
		return KindStringMap, nil
	case t == anyMapType:
		return KindMap, nil
	}
	switch t.Kind() {
	case reflect.String:
		return KindString, nil
	case reflect.Bool:
		return KindBool, nil
	case reflect.Int, reflect.Int64, reflect.Int32:
		return KindInt, nil
	case reflect.Pointer:
		return kindOf(t.Elem())
	case reflect.Struct:
		return KindObject, structProperties(t)
	case reflect.Slice:
		switch e := t.Elem(); e.Kind() {
		case reflect.String:
			return KindStrings, nil
		case reflect.Int:
			return KindInts, nil
		case reflect.Struct:
			return KindObjects, structProperties(e)
		}
	}
	panic(fmt.Sprintf("resources: property type %s has no Kind", t))
}

func parseCLI(tag string) CLI {
	var c CLI
	if tag == "" {
		return c
	}
	for opt := range strings.SplitSeq(tag, ",") {
		key, val, _ := strings.Cut(opt, "=")
		switch key {
		case "-":
			c.Skip = true
		case "arg":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 {
				panic(fmt.Sprintf("resources: cli tag option %q: want arg=N, N from 1", opt))
			}
			c.Arg = n
		case "one":
			c.One = true
		case "flag":
			c.Flag = val
		case "alias":
			c.Alias = val
		case "env":
			c.Env = val
		case "short":
			c.Short = val
		case "default":
			c.Default = val
		case "file":
			c.File = val
		case "filealias":
			c.FileAlias = val
		case "negate":
			c.Negate = val
		case "split":
			c.Split = val
		case "sep":
			c.Sep = val
		default:
			panic(fmt.Sprintf("resources: unknown cli tag option %q", opt))
		}
	}
	return c
}
