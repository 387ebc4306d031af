package ir

import (
	"io"
	"strconv"
	"strings"
)

// String prints the graph as PyTorch's print(m.graph) (Graph::print with
// source locations): the inputs with their types, one line per node with
// its attributes, inputs, scope and "# file:line:col", nested blocks as
// "block0(...):" ... "-> (...)", the return, and the subgraphs of nodes
// with a Subgraph attribute (fusion groups) as "with KIND_N = graph(...)".
func (g *Graph) String() string {
	var b strings.Builder
	g.print(&b)
	return b.String()
}

// WriteTo writes the graph's String to w.
func (g *Graph) WriteTo(w io.Writer) (int64, error) {
	n, err := io.WriteString(w, g.String())
	return int64(n), err
}

func (g *Graph) print(b *strings.Builder) {
	b.WriteString("graph(")
	writeTyped(b, g.top.Params, ",\n      ")
	b.WriteString("):\n")
	var groups []*Node
	for _, n := range g.top.Nodes {
		n.print(b, 1, &groups)
	}
	b.WriteString("  return (")
	writeRefs(b, g.top.Outputs)
	b.WriteString(")\n")
	for i, fg := range groups {
		a, _ := fg.Attr("Subgraph")
		sub, _ := a.Value.(*Graph)
		b.WriteString("with " + fg.Kind + "_" + strconv.Itoa(i) + " = ")
		if sub != nil {
			sub.print(b)
		}
	}
}

// String prints the node as PyTorch's operator<< for a Node: its line and
// its blocks.
func (n *Node) String() string {
	var b strings.Builder
	n.print(&b, 0, nil)
	return b.String()
}

func indent(b *strings.Builder, level int) {
	for i := 0; i < level; i++ {
		b.WriteString("  ")
	}
}

func writeRefs(b *strings.Builder, vs []*Value) {
	for i, v := range vs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('%')
		if v == nil {
			b.WriteString("<nil>")
			continue
		}
		b.WriteString(v.Name())
	}
}

func writeTyped(b *strings.Builder, vs []*Value, delim string) {
	for i, v := range vs {
		if i > 0 {
			b.WriteString(delim)
		}
		b.WriteByte('%')
		if v == nil {
			b.WriteString("<nil>")
			continue
		}
		b.WriteString(v.Name())
		b.WriteString(" : ")
		if v.Type == nil {
			b.WriteString("<no type>")
		} else {
			b.WriteString(v.Type.String())
		}
	}
}

func (n *Node) hasSubgraph() bool {
	a, ok := n.Attr("Subgraph")
	return ok && a.Kind == AttrGraph
}

func (n *Node) print(b *strings.Builder, level int, groups *[]*Node) {
	indent(b, level)
	writeTyped(b, n.Outputs, ", ")
	b.WriteString(" = ")
	if groups != nil && n.hasSubgraph() {
		b.WriteString(n.Kind + "_" + strconv.Itoa(len(*groups)))
		if len(n.Attrs) > 1 && n.Kind != "prim::DifferentiableGraph" {
			n.printAttrs(b, true)
		}
		*groups = append(*groups, n)
	} else {
		b.WriteString(n.Kind)
		if len(n.Attrs) > 0 {
			n.printAttrs(b, false)
		}
	}
	b.WriteByte('(')
	writeRefs(b, n.Inputs)
	b.WriteByte(')')
	if n.Scope != "" {
		b.WriteString(", scope: ")
		b.WriteString(n.Scope)
	}
	if n.Source != nil {
		b.WriteString(" # ")
		b.WriteString(n.Source.String())
	}
	b.WriteByte('\n')
	for i, blk := range n.Blocks {
		indent(b, level+1)
		b.WriteString("block" + strconv.Itoa(i) + "(")
		writeTyped(b, blk.Params, ", ")
		b.WriteString("):\n")
		for _, m := range blk.Nodes {
			m.print(b, level+2, groups)
		}
		indent(b, level+2)
		b.WriteString("-> (")
		writeRefs(b, blk.Outputs)
		b.WriteString(")\n")
	}
}

func (n *Node) printAttrs(b *strings.Builder, skipSubgraph bool) {
	b.WriteByte('[')
	i := 0
	for _, a := range n.Attrs {
		if skipSubgraph && a.Name == "Subgraph" {
			continue
		}
		if i > 0 {
			b.WriteString(", ")
		}
		i++
		b.WriteString(a.Name)
		b.WriteByte('=')
		b.WriteString(a.String())
	}
	b.WriteByte(']')
}
