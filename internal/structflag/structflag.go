// Package structflag declares a command's flags once, as the fields of a
// struct: Bind makes each field tagged `flag:"..."` a pflag flag stored in
// the field, so a flag's name, shorthand, help and default are one line.
//
//	Watch   bool          `flag:"watch" help:"keep running"`
//	Verbose bool          `flag:"verbose,short=v" help:"say more"`
//	Recheck time.Duration `flag:"recheck,default=30m" help:"period of the re-check"`
//
// The tag's options are those of a property's cli tag in package
// resources: short=X, and default=V (parsed as the command line would
// parse V; without it, the field's value when bound is the default, as
// for a slice or map, or a constant from another package). Fields without
// a flag tag are left alone; an embedded struct adds its fields' flags in
// place, so a group of flags is shared by embedding it.
package structflag

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Bind registers on fs a flag for each tagged field of the struct v points
// to, in field order. An untagged embedded struct contributes its tagged
// fields. An unsupported field type or tag is an error naming the field.
func Bind(fs *pflag.FlagSet, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("structflag: want a pointer to a struct, got %T", v)
	}
	return bindStruct(fs, rv.Elem())
}

func bindStruct(fs *pflag.FlagSet, s reflect.Value) error {
	for i := range s.NumField() {
		sf := s.Type().Field(i)
		tag, tagged := sf.Tag.Lookup("flag")
		var err error
		switch {
		case tagged:
			err = bindField(fs, s.Field(i), tag, sf.Tag.Get("help"))
		case sf.Anonymous && sf.Type.Kind() == reflect.Struct:
			err = bindStruct(fs, s.Field(i))
		}
		if err != nil {
			return fmt.Errorf("structflag: %s.%s: %w", s.Type(), sf.Name, err)
		}
	}
	return nil
}

// bindField registers the flag tag describes, stored in v.
func bindField(fs *pflag.FlagSet, v reflect.Value, tag, help string) error {
	name, opts, _ := strings.Cut(tag, ",")
	var short, def string
	hasDef := false
	for opt := range strings.SplitSeq(opts, ",") {
		switch key, val, _ := strings.Cut(opt, "="); key {
		case "":
		case "short":
			short = val
		case "default":
			def, hasDef = val, true
		default:
			return fmt.Errorf("unknown flag tag option %q", opt)
		}
	}
	if name == "" || !v.CanSet() {
		return fmt.Errorf("a flag needs a name and an exported field")
	}
	scalar := true
	switch p := pointer(v).(type) {
	case *bool:
		fs.BoolVarP(p, name, short, *p, help)
	case *string:
		fs.StringVarP(p, name, short, *p, help)
	case *int:
		fs.IntVarP(p, name, short, *p, help)
	case *int64:
		fs.Int64VarP(p, name, short, *p, help)
	case *time.Duration:
		fs.DurationVarP(p, name, short, *p, help)
	case *[]string:
		fs.StringArrayVarP(p, name, short, *p, help)
		scalar = false
	case *map[string]string:
		fs.StringToStringVarP(p, name, short, *p, help)
		scalar = false
	default:
		return fmt.Errorf("--%s: unsupported type %s", name, v.Type())
	}
	if !hasDef {
		return nil
	}
	// A repeatable flag's value appends after its first Set, so its
	// default is the field's value instead.
	if !scalar {
		return fmt.Errorf("--%s: default= is for single values; give a %s's default as the field's value", name, v.Type())
	}
	f := fs.Lookup(name)
	if err := f.Value.Set(def); err != nil {
		return fmt.Errorf("--%s: default: %w", name, err)
	}
	f.DefValue = f.Value.String()
	return nil
}

// pointer is v's address as the pointer type its flag stores: a named
// type (a string kind such as report.Standing) as its underlying basic
// type; a time.Duration as itself.
func pointer(v reflect.Value) any {
	p := v.Addr()
	if v.Type() == reflect.TypeFor[time.Duration]() {
		return p.Interface()
	}
	basic := map[reflect.Kind]reflect.Type{
		reflect.Bool: reflect.TypeFor[*bool](), reflect.String: reflect.TypeFor[*string](),
		reflect.Int: reflect.TypeFor[*int](), reflect.Int64: reflect.TypeFor[*int64](),
	}
	if t, ok := basic[v.Kind()]; ok {
		return p.Convert(t).Interface()
	}
	return p.Interface()
}
