package template

import (
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm/runtime"
)

// budgetVar is the environment variable that holds the running
// evaluation's budget, passed as the first argument of budgeted calls.
const budgetVar = "__budget"

// meter is an expr AST visitor that puts what can make large values or
// take long under the evaluation's budget:
//   - `a + b` becomes __add(budget, a, b), which refuses a string that
//     would be too large before making it;
//   - calls of the functions in budgeted get the budget first;
//   - other calls, builtins (map, filter, reduce...), list and map
//     literals and every predicate body are wrapped in __tick(budget, x),
//     which charges the size of x and checks the time: a loop is metered
//     at each turn.
//
// expr's own memory budget already bounds how many turns loops make.
type meter struct {
	// used is set when the expression needs the budget at all: one that
	// only reads variables runs without.
	used bool
}

// budgeted are the functions that take the budget as first argument:
// ours, and bounded replacements of expr's builtins that can make a
// large value from small arguments.
var budgeted = map[string]bool{
	"readFile": true, "file": true, "template": true, "jet": true, "registrations": true,
	"repeat": true, "replace": true, "join": true, "split": true, "string": true, "toJSON": true,
	"__add": true, "__tick": true,
}

func (m *meter) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.BinaryNode:
		if n.Operator == "+" {
			*node = m.call("__add", n, n.Left, n.Right)
		}
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); ok && budgeted[id.Value] {
			n.Arguments = append([]ast.Node{m.budget(n)}, n.Arguments...)
			return
		}
		*node = m.call("__tick", n, n)
	case *ast.BuiltinNode, *ast.ArrayNode, *ast.MapNode:
		*node = m.call("__tick", n, n)
	case *ast.PredicateNode:
		n.Node = m.call("__tick", n.Node, n.Node)
	}
}

// call builds fn(budget, args...) at the place of at.
func (m *meter) call(fn string, at ast.Node, args ...ast.Node) ast.Node {
	c := &ast.CallNode{Callee: &ast.IdentifierNode{Value: fn}, Arguments: append([]ast.Node{m.budget(at)}, args...)}
	c.SetLocation(at.Location())
	c.Callee.SetLocation(at.Location())
	return c
}

func (m *meter) budget(at ast.Node) ast.Node {
	m.used = true
	id := &ast.IdentifierNode{Value: budgetVar}
	id.SetLocation(at.Location())
	return id
}

// add implements __add: expr's +, with strings refused before they are
// made when too large.
func add(b *budget, args ...any) (any, error) {
	if len(args) != 2 {
		return nil, ErrArgs
	}
	x, xs := args[0].(string)
	y, ys := args[1].(string)
	if !xs || !ys {
		return runtime.Add(args[0], args[1]), nil
	}
	if err := b.allow(int64(len(x)) + int64(len(y))); err != nil {
		return nil, err
	}
	s := x + y
	return s, b.charge(int64(len(s)))
}

// tick implements __tick: it charges the size of the value just made and
// checks the time, and returns the value.
func tick(b *budget, args ...any) (any, error) {
	if len(args) != 1 {
		return nil, ErrArgs
	}
	return args[0], b.charge(sizeOf(args[0], b.lim.value+1))
}
