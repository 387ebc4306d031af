package dot

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
)

// ErrNoGraphviz is wrapped by the error of SVG and Render when Graphviz's
// dot program is not on the PATH.
var ErrNoGraphviz = errors.New("graphviz's dot program is not on PATH (install Graphviz, or write DOT and render it elsewhere)")

// Options changes how WriteDOT draws a graph.
type Options struct {
	// Name is the digraph's name ("" means "graph").
	Name string
	// Root, if set, is the module the graph's call_module targets resolve
	// in: a call_module node then shows its module's type (Linear).
	Root nn.Module
	// Cluster draws the nodes of each module on the nodes' nn_module_stack
	// in a box (a Graphviz cluster) labeled with the module's path and
	// type, nested as the modules are. A call_module node goes in its
	// parent module's box.
	Cluster bool
	// MaxArgLen shortens each node's argument text to this many
	// characters, ending it with "..." (0 means 120; negative, no limit).
	MaxArgLen int
	// Subgraphs are the graphs the graph's higher-order calls name (a
	// cond's branches, a while_loop's cond and body, a map's body; an
	// ExportedProgram's Subgraphs, an fx.GraphModule's Subgraphs), each
	// drawn in a box labeled with its name, nested as they nest, with a
	// dashed edge from the get_attr node that reads it to its box. Their
	// nodes' IDs are their dotted path and name (true_graph_0.x).
	Subgraphs []graph.Subgraph
}

// dotFill is the fill color of each opcode's records.
var dotFill = map[node.Opcode]string{
	node.Placeholder:  "#cfe8ff",
	node.GetAttr:      "#fff3b0",
	node.CallFunction: "#e8f5e9",
	node.CallMethod:   "#f3e5f5",
	node.CallModule:   "#ffe0cc",
	node.Output:       "#cfe8ff",
}

// DOT returns g drawn in Graphviz's DOT language; see WriteDOT.
func DOT(g *graph.Graph, opts Options) (string, error) {
	var b strings.Builder
	if err := WriteDOT(&b, g, opts); err != nil {
		return "", err
	}
	return b.String(), nil
}

// WriteDOT writes g to w in Graphviz's DOT language: a digraph with one
// record per node (its name; its opcode and target, with the module type
// for call_module when opts.Root is set; its arguments, node references
// written %name and literals as in the graph's text form; its keyword
// arguments; and its val metadata, dtype and shape, when it has one) and
// an edge from each node to each node that uses its value. Every name,
// target and literal is escaped, so that quotes, braces, angle brackets,
// bars and backslashes in them show as themselves.
func WriteDOT(w io.Writer, g *graph.Graph, opts Options) error {
	if g == nil {
		return errors.New("dot: WriteDOT: nil graph")
	}
	if w == nil {
		return errors.New("dot: WriteDOT: nil writer")
	}
	if opts.MaxArgLen == 0 {
		opts.MaxArgLen = 120
	}
	name := opts.Name
	if name == "" {
		name = "graph"
	}
	var idx *modIndex
	if opts.Root != nil && len(g.FindNodes(node.CallModule, nil)) > 0 {
		idx = &modIndex{root: opts.Root, mods: map[string]nn.Module{}}
		for path, m := range nn.NamedModules(opts.Root) {
			idx.mods[path] = m
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "digraph %s {\n", dotID(name))
	bw.WriteString("\trankdir=TB;\n")
	bw.WriteString("\tnode [shape=record, style=\"rounded,filled\", fontname=\"Courier\", fontsize=10];\n")
	bw.WriteString("\tedge [arrowsize=0.7];\n")
	if len(opts.Subgraphs) > 0 {
		bw.WriteString("\tcompound=true;\n")
	}
	if opts.Cluster {
		root := clusterTree(g)
		count := 0
		writeCluster(bw, root, "\t", &count, opts, idx)
	} else {
		for n := range g.Nodes() {
			writeDOTNode(bw, "", n, "\t", opts, idx)
		}
	}
	writeEdges(bw, "", g, "\t")
	writeSubgraphs(bw, "", g, opts.Subgraphs, "\t", opts)
	bw.WriteString("}\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("dot: WriteDOT: %w", err)
	}
	return nil
}

// writeEdges writes an edge from each of g's nodes to each of its users;
// prefix is the dotted path of g's box ("" for the top graph).
func writeEdges(w *bufio.Writer, prefix string, g *graph.Graph, indent string) {
	for n := range g.Nodes() {
		for _, in := range n.AllInputNodes() {
			fmt.Fprintf(w, "%s%s -> %s;\n", indent, dotID(prefix+in.Name()), dotID(prefix+n.Name()))
		}
	}
}

// writeSubgraphs writes the boxes of g's subgraphs and the dashed edges
// from the get_attr nodes of g that read them; prefix is g's path.
func writeSubgraphs(w *bufio.Writer, prefix string, g *graph.Graph, subs []graph.Subgraph, indent string, opts Options) {
	for _, sg := range subs {
		if sg.Graph == nil {
			continue
		}
		path := prefix + sg.Name + "."
		cluster := dotID("cluster_subgraph_" + prefix + sg.Name)
		fmt.Fprintf(w, "%ssubgraph %s {\n", indent, cluster)
		in := indent + "\t"
		fmt.Fprintf(w, "%slabel=%s;\n%sstyle=\"rounded,filled\";\n%sfillcolor=\"#f5f5f5\";\n%sfontname=\"Courier\";\n%sfontsize=10;\n", in, dotID(prefix+sg.Name), in, in, in, in)
		for n := range sg.Graph.Nodes() {
			writeDOTNode(w, path, n, in, opts, nil)
		}
		writeEdges(w, path, sg.Graph, in)
		writeSubgraphs(w, path, sg.Graph, sg.Subgraphs, in, opts)
		fmt.Fprintf(w, "%s}\n", indent)
		first := sg.Graph.First()
		if first == nil {
			continue
		}
		for _, ga := range g.FindNodes(node.GetAttr, node.Path(sg.Name)) {
			fmt.Fprintf(w, "%s%s -> %s [style=dashed, lhead=%s];\n", indent, dotID(prefix+ga.Name()), dotID(path+first.Name()), cluster)
		}
	}
}

// writeDOTNode writes n's record; prefix is the dotted path of its
// graph's box ("" for the top graph).
func writeDOTNode(w *bufio.Writer, prefix string, n *node.Node, indent string, opts Options, idx *modIndex) {
	fields := []string{"%" + n.Name()}
	head := n.Op().String() + " " + n.Target().String()
	if n.Op() == node.CallModule && idx != nil {
		if m, err := idx.module(n.Target().String()); err == nil {
			head += " (" + m.ModuleBase().TypeName() + ")"
		}
	}
	fields = append(fields, head)
	switch n.Op() {
	case node.Placeholder:
		if n.NumArgs() > 0 {
			fields = append(fields, "default: "+shorten(dotArg(n.Arg(0)), opts.MaxArgLen))
		}
	case node.GetAttr:
	case node.Output:
		fields = append(fields, "returns: "+shorten(dotArg(n.Arg(0)), opts.MaxArgLen))
	default:
		if n.NumArgs() > 0 {
			fields = append(fields, "args: "+shorten(dotArg(node.Tuple(n.Args())), opts.MaxArgLen))
		}
		if kw := n.Kwargs(); len(kw) > 0 {
			fields = append(fields, "kwargs: "+shorten(dotArg(node.Dict(kw)), opts.MaxArgLen))
		}
	}
	if v, ok := node.Val.Get(&n.Meta); ok && v != nil {
		fields = append(fields, "val: "+v.String())
	}
	for i, f := range fields {
		fields[i] = recordEscape(f)
	}
	fmt.Fprintf(w, "%s%s [label=\"{%s}\", fillcolor=%q];\n", indent, dotID(prefix+n.Name()), strings.Join(fields, "|"), dotFill[n.Op()])
}

// dotCluster is one module's box: the nodes directly in it and the boxes
// of its submodules, in order of first appearance.
type dotCluster struct {
	frame    node.ModuleFrame
	nodes    []*node.Node
	children []*dotCluster
	byPath   map[string]*dotCluster
}

// clusterTree groups g's nodes by their module stacks.
func clusterTree(g *graph.Graph) *dotCluster {
	root := &dotCluster{byPath: map[string]*dotCluster{}}
	for n := range g.Nodes() {
		st, _ := node.ModuleStack.Get(&n.Meta)
		if n.Op() == node.CallModule && len(st) > 0 && st[len(st)-1].Path == n.Target().String() {
			st = st[:len(st)-1]
		}
		c := root
		for _, f := range st {
			next := c.byPath[f.Path]
			if next == nil {
				next = &dotCluster{frame: f, byPath: map[string]*dotCluster{}}
				c.byPath[f.Path] = next
				c.children = append(c.children, next)
			}
			c = next
		}
		c.nodes = append(c.nodes, n)
	}
	return root
}

// writeCluster writes c's nodes and its children's boxes.
func writeCluster(w *bufio.Writer, c *dotCluster, indent string, count *int, opts Options, idx *modIndex) {
	for _, n := range c.nodes {
		writeDOTNode(w, "", n, indent, opts, idx)
	}
	for _, ch := range c.children {
		label := ch.frame.Path
		if ch.frame.Type != "" {
			label += " (" + ch.frame.Type + ")"
		}
		fmt.Fprintf(w, "%ssubgraph %s {\n", indent, dotID("cluster_"+strconv.Itoa(*count)))
		*count++
		fmt.Fprintf(w, "%s\tlabel=%s;\n%s\tstyle=\"rounded,dashed\";\n%s\tfontname=\"Courier\";\n%s\tfontsize=10;\n", indent, dotID(label), indent, indent, indent)
		writeCluster(w, ch, indent+"\t", count, opts, idx)
		fmt.Fprintf(w, "%s}\n", indent)
	}
}

// dotID quotes s as a DOT identifier. Inside a quoted string DOT gives a
// meaning only to \" (and a backslash before a newline); gofx doubles
// backslashes as well, so that labels, which Graphviz reads with its own
// escapes (\n, \l, \N), show them literally.
func dotID(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r', '\t':
			b.WriteByte(' ')
		default:
			if r < 0x20 || r == 0x7f {
				b.WriteByte(' ')
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// recordEscape escapes one field of a record label for use inside a quoted
// DOT string: the record syntax's { } | < > and runs of spaces, DOT's ",
// and backslashes; control characters become spaces.
func recordEscape(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	prevSpace := true // a leading space would be dropped
	for _, r := range s {
		switch {
		case r == '{' || r == '}' || r == '|' || r == '<' || r == '>' || r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r < 0x20 || r == 0x7f:
			if prevSpace {
				b.WriteString(`\ `)
			} else {
				b.WriteByte(' ')
			}
			prevSpace = true
			continue
		default:
			b.WriteRune(r)
		}
		prevSpace = false
	}
	return b.String()
}

// shorten cuts s to max characters (runes), ending it with "...".
func shorten(s string, max int) string {
	if max < 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	if max <= 3 {
		max = 4
	}
	r := []rune(s)
	return string(r[:max-3]) + "..."
}

// dotArg writes an argument as the graph's text form does: nodes as %name,
// strings quoted, Python's literals.
func dotArg(a node.Arg) string {
	var b strings.Builder
	writeDOTArg(&b, a)
	return b.String()
}

func writeDOTArg(b *strings.Builder, a node.Arg) {
	switch v := a.(type) {
	case *node.Node:
		b.WriteByte('%')
		b.WriteString(v.Name())
	case node.Int:
		b.WriteString(strconv.FormatInt(int64(v), 10))
	case node.Float:
		f := float64(v)
		switch {
		case math.IsInf(f, 1):
			b.WriteString("inf")
		case math.IsInf(f, -1):
			b.WriteString("-inf")
		case math.IsNaN(f):
			b.WriteString("nan")
		default:
			s := strconv.FormatFloat(f, 'g', -1, 64)
			if !strings.ContainsAny(s, ".e") {
				s += ".0"
			}
			b.WriteString(s)
		}
	case node.Bool:
		if v {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case node.Str:
		b.WriteString(strconv.Quote(string(v)))
	case node.NoneType:
		b.WriteString("None")
	case node.DType:
		b.WriteString("torch." + string(v))
	case node.Layout:
		b.WriteString("torch." + string(v))
	case node.MemoryFormat:
		b.WriteString("torch." + string(v))
	case node.Device:
		b.WriteString("device(" + strconv.Quote(string(v)) + ")")
	case node.List:
		b.WriteByte('[')
		writeDOTSeq(b, v)
		b.WriteByte(']')
	case node.Tuple:
		b.WriteByte('(')
		writeDOTSeq(b, v)
		if len(v) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case node.Dict:
		b.WriteByte('{')
		for i, f := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Name)
			b.WriteString(": ")
			writeDOTArg(b, f.Value)
		}
		b.WriteByte('}')
	case nil:
		b.WriteString("None")
	default:
		fmt.Fprint(b, v)
	}
}

func writeDOTSeq(b *strings.Builder, s []node.Arg) {
	for i, a := range s {
		if i > 0 {
			b.WriteString(", ")
		}
		writeDOTArg(b, a)
	}
}

// SVG draws g with WriteDOT and renders it with Graphviz's dot -Tsvg. It
// returns an error wrapping ErrNoGraphviz when dot is not on the PATH.
func SVG(g *graph.Graph, opts Options) ([]byte, error) {
	src, err := DOT(g, opts)
	if err != nil {
		return nil, err
	}
	return Render(src, "svg")
}

// Render runs Graphviz's dot on the DOT source src with -T format (svg,
// png, pdf, ...) and returns what it writes. It returns an error wrapping
// ErrNoGraphviz when dot is not on the PATH, and one with dot's messages
// when dot fails.
func Render(src, format string) ([]byte, error) {
	if format == "" || strings.TrimLeft(format, "abcdefghijklmnopqrstuvwxyz0123456789:_") != "" {
		return nil, fmt.Errorf("dot: Render: bad output format %q (want a Graphviz format such as svg)", format)
	}
	path, err := exec.LookPath("dot")
	if err != nil {
		return nil, fmt.Errorf("dot: Render: %w", ErrNoGraphviz)
	}
	cmd := exec.Command(path, "-T"+format)
	cmd.Stdin = strings.NewReader(src)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("dot: Render: dot -T%s: %v: %s", format, err, strings.TrimSpace(stderr.String()))
	}
	return out.Bytes(), nil
}

// modIndex resolves dotted module paths below a root.
type modIndex struct {
	root nn.Module
	mods map[string]nn.Module
}

// module returns the module at path.
func (x *modIndex) module(path string) (nn.Module, error) {
	if m, ok := x.mods[path]; ok {
		return m, nil
	}
	return nn.Submodule(x.root, path) // a module shared under two paths, or an error
}
