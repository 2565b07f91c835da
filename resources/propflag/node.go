package propflag

import (
	"fmt"
	"os"
	"os/user"
	"strconv"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"go.yaml.in/yaml/v3"
)

// Node builds the properties args (NAME, then the positional arguments)
// and the parsed flags describe, with the defaults of the properties not
// given: a mapping node as a manifest's entry would hold, name first.
func (pf *Set) Node(args []string) (*yaml.Node, error) {
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
	pf *Set
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
