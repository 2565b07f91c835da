package template

import "github.com/expr-lang/expr/ast"

// fileFunctions are the functions that read files, and registrations,
// which reads the registry: what they return changes while the manifest
// stays the same.
var fileFunctions = map[string]bool{"readFile": true, "file": true, "template": true, "jet": true, "registrations": true}

// ReadsFiles reports whether resolving s may read a file, or the
// registry: one of its expressions names readFile, file, template, jet or
// registrations. An expression that does not compile counts as reading,
// since nothing can be said of it.
func (t *Templates) ReadsFiles(s string) bool {
	for _, sg := range lex(s).segs {
		if !sg.expr {
			continue
		}
		p, err := t.compile(sg)
		if err != nil {
			return true
		}
		v := &fileReads{}
		node := p.p.Node()
		ast.Walk(&node, v)
		if v.found {
			return true
		}
	}
	return false
}

// fileReads is an ast.Visitor that finds a file function's name.
type fileReads struct{ found bool }

func (v *fileReads) Visit(n *ast.Node) {
	if id, ok := (*n).(*ast.IdentifierNode); ok && fileFunctions[id.Value] {
		v.found = true
	}
}
