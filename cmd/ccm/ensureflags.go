package main

import (
	"fmt"
	"io"
	"os"
	"os/user"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/reactive-ccm/ccm/internal/ownership"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/document"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"
)

// propFlags offers a type's properties as `ccm ensure TYPE` flags and
// positional arguments, and turns what was given into the property map a
// manifest would hold: the command line has no properties of its own.
type propFlags struct {
	fs    *pflag.FlagSet
	props []resources.Property
	// args are the properties taken positionally after NAME, in order.
	args []resources.Property
}

// newPropFlags registers the flags of props on fs.
func newPropFlags(fs *pflag.FlagSet, props []resources.Property) *propFlags {
	pf := &propFlags{fs: fs, props: props}
	pf.register(props)
	sort.SliceStable(pf.args, func(i, j int) bool { return pf.args[i].CLI.Arg < pf.args[j].CLI.Arg })
	return pf
}

func (pf *propFlags) register(props []resources.Property) {
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
func (pf *propFlags) flag(p resources.Property) {
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

// usage is the placeholders of NAME and the positional arguments.
func (pf *propFlags) usage() string {
	s := "NAME"
	for _, p := range pf.args {
		s += " [" + strings.ToUpper(p.Name) + "]"
	}
	return s
}

// node builds the properties args (NAME, then the positional arguments)
// and the flags describe, with the defaults of the properties not given.
func (pf *propFlags) node(args []string) (*yaml.Node, error) {
	b := &builder{pf: pf, given: map[string]string{}}
	for i, p := range pf.args {
		if i+1 < len(args) {
			b.given[p.Name] = args[i+1]
		}
	}
	m := mapping()
	add(m, "name", scalar("!!str", args[0]))
	if err := b.fill(m, pf.props); err != nil {
		return nil, err
	}
	return m, nil
}

// builder turns flag values into property nodes.
type builder struct {
	pf *propFlags
	// given holds the positional arguments, by property name.
	given map[string]string
	// split holds values set by another property's A:B flag.
	split map[string]string
}

// fill adds to m a node for every property of props that has a value.
func (b *builder) fill(m *yaml.Node, props []resources.Property) error {
	for _, p := range props {
		n, err := b.value(p)
		if err != nil {
			return fmt.Errorf("--%s: %w", p.FlagName(), err)
		}
		if n != nil {
			add(m, p.Name, n)
		}
	}
	return nil
}

// value is p's node, or nil when p has no value.
func (b *builder) value(p resources.Property) (*yaml.Node, error) {
	switch {
	case p.CLI.Skip || p.Kind == resources.KindMap:
		return nil, nil
	case p.Kind == resources.KindObject:
		return b.object(p.Fields)
	case p.Kind == resources.KindObjects:
		item, err := b.object(p.Fields)
		if item == nil || err != nil {
			return nil, err
		}
		return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{item}}, nil
	}
	if b.pf.fs.Changed(p.FlagName()) || b.pf.fs.Changed(p.CLI.Alias) {
		if _, dup := b.given[p.Name]; dup {
			return nil, fmt.Errorf("given both as a flag and as the %s argument", strings.ToUpper(p.Name))
		}
		return b.flagValue(p)
	}
	if s, ok := b.given[p.Name]; ok {
		return b.text(p, s)
	}
	if s, ok := b.split[p.Name]; ok {
		return scalar("!!str", s), nil
	}
	if b.fileGiven(p) {
		path, _ := b.pf.fs.GetString(p.CLI.File)
		content, err := readContentFile(path)
		if err != nil {
			return nil, err
		}
		return scalar("!!str", string(content)), nil
	}
	if p.CLI.Negate != "" && b.pf.fs.Changed(p.CLI.Negate) {
		return scalar("!!bool", "false"), nil
	}
	return b.fallback(p)
}

// object is a map of the given fields, or nil when none is given; the
// defaults of the others fill it out.
func (b *builder) object(fields []resources.Property) (*yaml.Node, error) {
	m := mapping()
	given := false
	for _, f := range fields {
		if b.pf.fs.Changed(f.FlagName()) {
			given = true
		}
	}
	if !given {
		return nil, nil
	}
	if err := b.fill(m, fields); err != nil {
		return nil, err
	}
	return m, nil
}

// fileGiven says whether p's file flag, or its alias, was given.
func (b *builder) fileGiven(p resources.Property) bool {
	return p.CLI.File != "" && (b.pf.fs.Changed(p.CLI.File) || b.pf.fs.Changed(p.CLI.FileAlias))
}

// flagValue is the node of p's flag.
func (b *builder) flagValue(p resources.Property) (*yaml.Node, error) {
	f := b.pf.fs.Lookup(p.FlagName())
	if b.fileGiven(p) {
		return nil, fmt.Errorf("cannot be given with --%s", p.CLI.File)
	}
	if p.CLI.Negate != "" && b.pf.fs.Changed(p.CLI.Negate) {
		return nil, fmt.Errorf("cannot be given with --%s", p.CLI.Negate)
	}
	switch p.Kind {
	case resources.KindBool:
		return scalar("!!bool", f.Value.String()), nil
	case resources.KindInt:
		return scalar("!!int", f.Value.String()), nil
	case resources.KindInts:
		ints, _ := b.pf.fs.GetIntSlice(f.Name)
		seq := sequence()
		for _, i := range ints {
			seq.Content = append(seq.Content, scalar("!!int", strconv.Itoa(i)))
		}
		return seq, nil
	case resources.KindStrings, resources.KindStringMap, resources.KindPairs:
		list, _ := b.pf.fs.GetStringArray(f.Name)
		return listNode(p, list)
	}
	return b.text(p, f.Value.String())
}

// text is the node of a string property given as s; a USER:GROUP value
// of a splitting property also gives the other property.
func (b *builder) text(p resources.Property, s string) (*yaml.Node, error) {
	if p.CLI.Split != "" {
		if left, right, ok := strings.Cut(s, ":"); ok {
			if b.pf.fs.Changed(strings.ReplaceAll(p.CLI.Split, "_", "-")) {
				return nil, fmt.Errorf("%q sets %s, which is given too", s, p.CLI.Split)
			}
			if b.split == nil {
				b.split = map[string]string{}
			}
			b.split[p.CLI.Split] = right
			s = left
		}
	}
	return scalar("!!str", s), nil
}

// listNode is the node of a repeated string flag.
func listNode(p resources.Property, list []string) (*yaml.Node, error) {
	if p.Kind == resources.KindStrings {
		seq := sequence()
		for _, s := range list {
			seq.Content = append(seq.Content, scalar("!!str", s))
		}
		return seq, nil
	}
	m, seq := mapping(), sequence()
	for _, s := range list {
		k, v, ok := strings.Cut(s, sep(p))
		if !ok {
			return nil, fmt.Errorf("%q: want KEY%sVALUE", s, sep(p))
		}
		if p.Kind == resources.KindPairs {
			pair := mapping()
			add(pair, k, scalar("!!str", v))
			seq.Content = append(seq.Content, pair)
			continue
		}
		add(m, k, scalar("!!str", v))
	}
	if p.Kind == resources.KindPairs {
		return seq, nil
	}
	return m, nil
}

// fallback is p's default: its environment variable, else its declared
// default, else nothing.
func (b *builder) fallback(p resources.Property) (*yaml.Node, error) {
	if p.CLI.Env != "" {
		if v, ok := os.LookupEnv(p.CLI.Env); ok {
			return scalar("!!str", v), nil
		}
	}
	switch p.CLI.Default {
	case "":
		return nil, nil
	case "@user":
		u, err := user.Current()
		if err != nil {
			return scalar("!!str", strconv.Itoa(os.Getuid())), nil
		}
		return scalar("!!str", u.Username), nil
	case "@group":
		g, err := user.LookupGroupId(strconv.Itoa(os.Getgid()))
		if err != nil {
			return scalar("!!str", strconv.Itoa(os.Getgid())), nil
		}
		return scalar("!!str", g.Name), nil
	}
	return b.text(p, p.CLI.Default)
}

func scalar(tag, value string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"} }

func sequence() *yaml.Node { return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"} }

func add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, scalar("!!str", key), v)
}

// readContentFile reads the file an operator named for a property on the
// command line: a regular file of at most document.MaxSize bytes, so that
// a FIFO or /dev/zero is an error at once, not a hang or exhausted memory.
func readContentFile(path string) ([]byte, error) {
	// O_NONBLOCK: opening a FIFO must not wait for a writer.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ownership.ErrNotRegular)
	}
	b, err := io.ReadAll(io.LimitReader(f, document.MaxSize+1))
	if err == nil && len(b) > document.MaxSize {
		err = fmt.Errorf("%s: %w (at most %d bytes)", path, ownership.ErrTooLarge, document.MaxSize)
	}
	return b, err
}
