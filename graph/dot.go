package graph

import (
	"fmt"
	"io"
	"strconv"
)

// WriteDOT writes the graph in Graphviz DOT: one node per resource, edges
// labelled require, subscribe, auto or order (the written order, in gray).
func (g *Graph) WriteDOT(w io.Writer) error {
	if _, err := fmt.Fprintln(w, "digraph ccm {\n  rankdir=LR;\n  node [shape=box];"); err != nil {
		return err
	}
	for _, v := range g.Vertices {
		label := v.ID()
		if v.Alias != "" {
			label += "\n(" + v.Alias + ")"
		}
		if _, err := fmt.Fprintf(w, "  n%d [label=%s];\n", v.Index, strconv.Quote(label)); err != nil {
			return err
		}
	}
	for _, e := range g.Edges {
		style := ""
		switch e.Kind {
		case Subscribe:
			style = ", color=blue"
		case Auto:
			style = ", style=dashed"
		case Order:
			style = ", style=dashed, color=gray"
		}
		if _, err := fmt.Fprintf(w, "  n%d -> n%d [label=%q%s];\n", e.From, e.To, e.Kind.String(), style); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, "}")
	return err
}
