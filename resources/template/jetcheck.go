package template

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/CloudyKit/jet/v6"
)

var (
	// errJetRecursion is a Jet template whose blocks yield themselves:
	// Jet would recurse until the stack is exhausted, which kills the
	// process.
	errJetRecursion = errors.New("blocks that yield themselves are not supported")
	// errJetTry is a Jet template using try, which would catch the
	// budget's errors and go on.
	errJetTry = errors.New("try is not supported")
)

// checkJet refuses a parsed template whose blocks yield one another in a
// cycle, or that uses try.
func checkJet(tpl *jet.Template) error {
	calls := map[string][]string{}
	if err := collect(tpl.Root, "", calls); err != nil {
		return err
	}
	state := map[string]int{}
	var visit func(string) error
	visit = func(name string) error {
		switch state[name] {
		case 1:
			return fmt.Errorf("%w: block %s", errJetRecursion, name)
		case 2:
			return nil
		}
		state[name] = 1
		for _, next := range calls[name] {
			if err := visit(next); err != nil {
				return err
			}
		}
		state[name] = 2
		return nil
	}
	for name := range calls {
		if err := visit(name); err != nil {
			return err
		}
	}
	return nil
}

// collect records, for each block, the blocks yielded inside it (the
// content of a yield included), starting from n inside block in ("" at
// the top).
func collect(n jet.Node, in string, calls map[string][]string) error {
	if n == nil || reflect.ValueOf(n).IsNil() {
		return nil
	}
	switch n := n.(type) {
	case *jet.TryNode:
		return errJetTry
	case *jet.ListNode:
		for _, c := range n.Nodes {
			if err := collect(c, in, calls); err != nil {
				return err
			}
		}
	case *jet.IfNode:
		return errors.Join(collect(n.List, in, calls), collect(n.ElseList, in, calls))
	case *jet.RangeNode:
		return errors.Join(collect(n.List, in, calls), collect(n.ElseList, in, calls))
	case *jet.BlockNode:
		calls[n.Name] = append(calls[n.Name], []string{}...)
		if in != "" {
			calls[in] = append(calls[in], n.Name)
		}
		return errors.Join(collect(n.List, n.Name, calls), collect(n.Content, in, calls))
	case *jet.YieldNode:
		if !n.IsContent && in != "" {
			calls[in] = append(calls[in], n.Name)
		}
		return collect(n.Content, in, calls)
	}
	return nil
}
