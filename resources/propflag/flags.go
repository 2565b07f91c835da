// Package propflag offers a resource type's properties as command-line
// flags and positional arguments (`ccm ensure TYPE NAME`), and turns what
// was given into the property map a manifest would hold: the command line
// has no properties of its own, so its flags, the JSON Schema and the
// manifest decoder all come from the same declarations (resources.Property).
package propflag

import (
	"fmt"
	"sort"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/spf13/pflag"
)

// Set is a type's properties registered as flags on a flag set.
type Set struct {
	fs    *pflag.FlagSet
	props []resources.Property
	// args are the properties taken positionally after NAME, in order.
	args []resources.Property
}

// New registers the flags of props on fs: one per property (the
// properties of an object's fields included), with its alias, its file
// flag and its negating flag. Maps of anything and properties marked
// cli:"-" get none.
func New(fs *pflag.FlagSet, props []resources.Property) *Set {
	pf := &Set{fs: fs, props: props}
	pf.register(props)
	sort.SliceStable(pf.args, func(i, j int) bool { return pf.args[i].CLI.Arg < pf.args[j].CLI.Arg })
	return pf
}

func (pf *Set) register(props []resources.Property) {
	for _, p := range props {
		switch {
		case p.CLI.Skip || p.Kind == resources.KindMap:
		case p.Kind == resources.KindObject || p.Kind == resources.KindObjects:
			pf.register(p.Fields)
		default:
			pf.flag(p)
			if p.CLI.Arg > 0 {
				pf.args = append(pf.args, p)
			}
		}
	}
}

// flag registers p's flag, its alias, and its file or negating flag.
func (pf *Set) flag(p resources.Property) {
	name, help := p.FlagName(), p.Help
	switch p.Kind {
	case resources.KindBool:
		pf.fs.BoolP(name, p.CLI.Short, false, help)
	case resources.KindInt:
		pf.fs.IntP(name, p.CLI.Short, 0, help)
	case resources.KindInts:
		pf.fs.IntSliceP(name, p.CLI.Short, nil, help+" (repeatable)")
	case resources.KindStrings, resources.KindStringMap, resources.KindPairs:
		if p.Kind != resources.KindStrings {
			help += fmt.Sprintf(" (KEY%sVALUE)", sep(p))
		}
		pf.fs.StringArrayP(name, p.CLI.Short, nil, help+" (repeatable)")
	default:
		pf.fs.StringP(name, p.CLI.Short, "", help)
	}
	f := pf.fs.Lookup(name)
	if p.CLI.Default != "" {
		// Shown in --help only: the default is applied when the property
		// is built, so an unset flag stays distinguishable.
		f.DefValue = strings.NewReplacer("@user", "the invoking user", "@group", "the invoking user's group").Replace(p.CLI.Default)
	}
	if p.CLI.Env != "" {
		f.Usage += " (default $" + p.CLI.Env + ")"
	}
	if p.CLI.Alias != "" {
		pf.fs.Var(f.Value, p.CLI.Alias, "same as --"+name)
		_ = pf.fs.MarkHidden(p.CLI.Alias)
	}
	if p.CLI.File != "" {
		pf.fs.String(p.CLI.File, "", "read --"+name+" from this file")
		if p.CLI.FileAlias != "" {
			pf.fs.Var(pf.fs.Lookup(p.CLI.File).Value, p.CLI.FileAlias, "same as --"+p.CLI.File)
			_ = pf.fs.MarkHidden(p.CLI.FileAlias)
		}
	}
	if p.CLI.Negate != "" {
		pf.fs.Bool(p.CLI.Negate, false, "the opposite of --"+name)
	}
}

func sep(p resources.Property) string {
	if p.CLI.Sep != "" {
		return p.CLI.Sep
	}
	return "="
}

// Args is how many positional arguments may follow NAME.
func (pf *Set) Args() int { return len(pf.args) }

// Usage is the placeholders of NAME and the positional arguments:
// "NAME [ENSURE]".
func (pf *Set) Usage() string {
	s := "NAME"
	for _, p := range pf.args {
		s += " [" + strings.ToUpper(p.Name) + "]"
	}
	return s
}
