// Package yamlmerge resolves YAML merge keys (`<<: *defaults`) in a parsed
// document, as upstream CCM's YAML library (goccy/go-yaml) does, so that
// every walker of the node tree sees plain mappings:
//
//   - `<<` takes a map, or a list of maps, each usually an alias; their
//     keys are set in the mapping where the `<<` stands, in order;
//   - a key set twice this way takes the value set last: a key written
//     after the `<<` overrides the merged one, and a `<<` overrides the
//     keys written before it;
//   - a key written twice by hand stays written twice, for the walker to
//     report as a duplicate, and a second `<<` in one map is an error, as
//     upstream's library has them;
//   - a quoted "<<" is an ordinary key.
//
// Expand first has the alias budget (yamlbudget) accept the document: a
// merge adds the pairs of the map it merges, which that budget counts as
// the alias's expansion, and each mapping is expanded once however many
// aliases reach it.
package yamlmerge

import (
	"github.com/reactive-ccm/ccm/graph/internal/yamlbudget"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// mergeTag is the tag yaml.v3 gives a plain `<<` key.
const mergeTag = "!!merge"

// Expand refuses doc when its aliases expand too far (yamlbudget.Check),
// then resolves its merge keys in place. A `<<` whose value is not a map
// or a list of maps is an error at its position in file.
func Expand(file string, doc *yaml.Node) error {
	if err := yamlbudget.Check(file, doc); err != nil {
		return err
	}
	x := expander{file: file, done: map[*yaml.Node]bool{}}
	x.node(doc)
	return x.errs.Err()
}

// expander walks a document once. done holds the anchored nodes already
// expanded, or being expanded: only they can be reached twice, through
// their aliases, and marking them first stops the walk of a node that
// contains itself.
type expander struct {
	file string
	done map[*yaml.Node]bool
	errs resources.ErrorList
}

func (x *expander) node(n *yaml.Node) {
	n = yamlnode.Deref(n)
	if n == nil || x.done[n] {
		return
	}
	if n.Anchor != "" {
		x.done[n] = true
	}
	for _, c := range n.Content {
		x.node(c)
	}
	if n.Kind == yaml.MappingNode && hasMerge(n) {
		n.Content = x.merged(n)
	}
}

func hasMerge(m *yaml.Node) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if isMerge(m.Content[i]) {
			return true
		}
	}
	return false
}

func isMerge(k *yaml.Node) bool { return k.Kind == yaml.ScalarNode && k.Tag == mergeTag }

// merged returns m's pairs with its merge keys resolved. The maps merged
// were expanded already, by the walk of m's content.
func (x *expander) merged(m *yaml.Node) []*yaml.Node {
	out := pairs{at: map[string]int{}, hand: map[string]bool{}}
	var first *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch {
		case !isMerge(k):
			out.write(k, v)
			continue
		case first != nil:
			x.errs.Addf(x.pos(k), "<<: a second merge key in one map (the first is at line %d); merge several maps with a list: <<: [*a, *b]", first.Line)
			continue
		}
		first = k
		for _, src := range x.sources(k, yamlnode.Deref(v)) {
			for j := 0; j+1 < len(src.Content); j += 2 {
				out.merge(src.Content[j], src.Content[j+1])
			}
		}
	}
	return out.content
}

// sources lists the maps a `<<` merges, in order.
func (x *expander) sources(k, v *yaml.Node) []*yaml.Node {
	switch v.Kind {
	case yaml.MappingNode:
		return []*yaml.Node{v}
	case yaml.SequenceNode:
		out := make([]*yaml.Node, 0, len(v.Content))
		for i, item := range v.Content {
			if item = yamlnode.Deref(item); item.Kind != yaml.MappingNode {
				x.errs.Addf(x.pos(item), "<<: a merge key takes a map or a list of maps; item %d is %s", i+1, yamlnode.Describe(item))
				continue
			}
			out = append(out, item)
		}
		return out
	}
	x.errs.Addf(x.pos(k), "<<: a merge key takes a map or a list of maps, got %s", yamlnode.Describe(v))
	return nil
}

func (x *expander) pos(n *yaml.Node) resources.Pos {
	return resources.Pos{File: x.file, Line: n.Line, Col: n.Column}
}

// pairs builds a mapping's content, remembering where each key stands and
// which keys were written by hand.
type pairs struct {
	content []*yaml.Node
	at      map[string]int
	hand    map[string]bool
}

// write adds a key written by hand: it overrides a merged one, and
// repeats one written by hand before, for the walker to report.
func (p *pairs) write(k, v *yaml.Node) {
	if i, ok := p.at[k.Value]; ok && !p.hand[k.Value] {
		p.content[i], p.content[i+1] = k, v
		p.hand[k.Value] = true
		return
	}
	if _, ok := p.at[k.Value]; !ok {
		p.at[k.Value] = len(p.content)
	}
	p.hand[k.Value] = true
	p.content = append(p.content, k, v)
}

// merge sets a merged key, overriding whatever set it before.
func (p *pairs) merge(k, v *yaml.Node) {
	if i, ok := p.at[k.Value]; ok {
		p.content[i+1] = v
		return
	}
	p.at[k.Value] = len(p.content)
	p.content = append(p.content, k, v)
}
