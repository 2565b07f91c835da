package resources

import (
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// Compiler is a Templates that can compile the expressions in a string
// without running them: syntax and unknown functions are found when the
// manifest is loaded, values only when it runs.
type Compiler interface {
	Compile(s string) error
}

// compileDeferred compiles the expressions of a deferred property, a
// string or a list of strings, so `ccm validate` reports a broken
// template there before anything runs.
func (s *Spec) compileDeferred(n *yaml.Node) error {
	c, ok := s.Templates.(Compiler)
	if !ok {
		return nil
	}
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	for _, item := range items {
		item = yamlnode.Deref(item)
		if !s.Templates.HasExpr(item.Value) {
			continue
		}
		if err := c.Compile(item.Value); err != nil {
			p := s.NodePos(item)
			return &PosError{Pos: Pos{Line: p.Line, Col: p.Col}, Msg: err.Error()}
		}
	}
	return nil
}
