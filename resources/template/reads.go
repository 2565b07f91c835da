package template

import (
	"path/filepath"
	"slices"

	"github.com/expr-lang/expr/ast"
)

// fileFunctions are the functions that read files, and registrations,
// which reads the registry: what they return changes while the manifest
// stays the same.
var fileFunctions = map[string]bool{"readFile": true, "file": true, "template": true, "jet": true, "registrations": true}

// ReadsFiles reports whether resolving s may read a file, or the
// registry: one of its expressions names readFile, file, template, jet or
// registrations. An expression that does not compile counts as reading,
// since nothing can be said of it.
func (t *Templates) ReadsFiles(s string) bool {
	v := &fileReads{}
	compiled := t.walkExprs(s, v)
	return !compiled || v.found
}

// walkExprs walks the syntax tree of each of s's expressions with v, and
// reports whether every one compiled; one that does not is passed over.
func (t *Templates) walkExprs(s string, v ast.Visitor) (compiled bool) {
	compiled = true
	for _, sg := range lex(s).segs {
		if !sg.expr {
			continue
		}
		p, err := t.compile(sg)
		if err != nil {
			compiled = false
			continue
		}
		node := p.p.Node()
		ast.Walk(&node, v)
	}
	return compiled
}

// fileReads is an ast.Visitor that finds a file function's name.
type fileReads struct{ found bool }

func (v *fileReads) Visit(n *ast.Node) {
	if id, ok := (*n).(*ast.IdentifierNode); ok && fileFunctions[id.Value] {
		v.found = true
	}
}

// FilesRead returns the files resolving s reads that can be named before
// it is resolved: the literal path of each readFile and file call, and of
// each template and jet call that names a .templ or .jet file, resolved
// against the manifest's directory. A watching daemon watches them, so an
// edit there is a new desired state at once rather than at the next
// re-check. A path built by an expression cannot be named, and is left
// to the re-check.
func (t *Templates) FilesRead(s string) []string {
	v := &fileNames{}
	t.walkExprs(s, v)
	var out []string
	for _, name := range v.names {
		out = append(out, t.path(name))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// fileNames is an ast.Visitor that collects the literal file names given
// to the file functions.
type fileNames struct{ names []string }

func (v *fileNames) Visit(n *ast.Node) {
	call, ok := (*n).(*ast.CallNode)
	if !ok {
		return
	}
	id, ok := call.Callee.(*ast.IdentifierNode)
	if !ok {
		return
	}
	args := call.Arguments
	// Compiling passes the evaluation's budget first (meter.go).
	if len(args) > 0 {
		if b, ok := args[0].(*ast.IdentifierNode); ok && b.Value == budgetVar {
			args = args[1:]
		}
	}
	if len(args) == 0 {
		return
	}
	arg, ok := args[0].(*ast.StringNode)
	if !ok || arg.Value == "" {
		return
	}
	ext := filepath.Ext(arg.Value)
	switch {
	case id.Value == "readFile" || id.Value == "file",
		id.Value == "template" && (ext == ".templ" || ext == ".jet"),
		id.Value == "jet" && ext == ".jet":
		v.names = append(v.names, arg.Value)
	}
}
