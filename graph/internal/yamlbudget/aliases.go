// Package yamlbudget bounds what YAML aliases make of a document. A parsed
// yaml.Node tree shares an anchored node between its aliases, so the tree
// stays as small as the text; every walker that follows aliases (hiera
// data, resource decoding, fingerprints, --render) sees the expanded tree,
// which nine nested levels of ten aliases each make a billion nodes from
// a few hundred bytes. Check refuses such a document once, when it is
// parsed, so no walker has to.
package yamlbudget

import (
	"github.com/reactive-ccm/ccm/resources"
	"go.yaml.in/yaml/v3"
)

// MaxExpansion is how many nodes aliases may add to a document: ten times
// what a manifest of 10,000 resources sharing their properties through
// anchors needs.
const MaxExpansion = 1_000_000

// Check returns a positioned error, at the alias where the budget ran
// out, when doc's aliases add more than MaxExpansion nodes. It costs one
// visit of each node in the text.
func Check(file string, doc *yaml.Node) error {
	c := counter{sizes: map[*yaml.Node]int{}, onStack: map[*yaml.Node]bool{}}
	c.size(doc)
	if c.at == nil {
		return nil
	}
	return resources.Errorf(resources.Pos{File: file, Line: c.at.Line, Col: c.at.Column},
		"YAML aliases expand the document too far: they would add more than %d nodes (an alias bomb?); use fewer or smaller anchors", MaxExpansion)
}

// counter computes expanded sizes. Only anchored nodes are remembered:
// they are the only ones aliases reach.
type counter struct {
	sizes   map[*yaml.Node]int
	onStack map[*yaml.Node]bool
	// added is what the aliases visited so far add; at is the alias that
	// took it over MaxExpansion.
	added int
	at    *yaml.Node
}

// size returns how many nodes n stands for once aliases are expanded,
// capped just above the budget so nothing overflows.
func (c *counter) size(n *yaml.Node) int {
	if c.at != nil || n == nil {
		return 0
	}
	if s, ok := c.sizes[n]; ok {
		return s
	}
	if n.Kind == yaml.AliasNode {
		return c.alias(n)
	}
	// A node that contains itself cannot be expanded at all; the parser
	// refuses that, but the check does not rely on it.
	if c.onStack[n] {
		c.at = n
		return 0
	}
	c.onStack[n] = true
	s := 1
	for _, k := range n.Content {
		s = min(s+c.size(k), MaxExpansion+1)
	}
	delete(c.onStack, n)
	if n.Anchor != "" {
		c.sizes[n] = s
	}
	return s
}

// alias counts what an alias adds: its target's expanded size.
func (c *counter) alias(n *yaml.Node) int {
	s := c.size(n.Alias)
	c.added = min(c.added+s, MaxExpansion+1)
	if c.added > MaxExpansion && c.at == nil {
		c.at = n
	}
	return s
}
