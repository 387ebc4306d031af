package graph

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gofx/gofx/node"
)

// String returns the graph in torch.fx's format, one node a line:
//
//	graph():
//	    %x : [num_users=1] = placeholder[target=x]
//	    %add : [num_users=1] = call_function[target=aten.add.Tensor](args = (%x, 1.0), kwargs = {})
//	    return add
func (g *Graph) String() string {
	var b strings.Builder
	b.Grow(g.Len() * 96)
	b.WriteString("graph():")
	for n := range g.Nodes() {
		b.WriteString("\n    ")
		writeNodeFX(&b, n)
	}
	return b.String()
}

// FormatNode returns n in torch.fx's format (one line of Graph.String).
func FormatNode(n *node.Node) string {
	var b strings.Builder
	writeNodeFX(&b, n)
	return b.String()
}

func writeNodeFX(b *strings.Builder, n *node.Node) {
	if n.Op() == node.Output {
		b.WriteString("return ")
		if s, ok := n.Arg(0).(node.Str); ok {
			b.WriteString(string(s))
		} else {
			writeArg(b, n.Arg(0), reprStyle)
		}
		return
	}
	b.WriteByte('%')
	b.WriteString(n.Name())
	b.WriteString(" : [num_users=")
	b.WriteString(strconv.Itoa(n.NumUsers()))
	b.WriteString("] = ")
	b.WriteString(n.Op().String())
	b.WriteString("[target=")
	b.WriteString(n.Target().String())
	b.WriteByte(']')
	switch n.Op() {
	case node.Placeholder:
		if n.NumArgs() > 0 {
			b.WriteString("(default=")
			writeArg(b, n.Arg(0), fxStyle)
			b.WriteByte(')')
		}
		return
	case node.GetAttr:
		return
	}
	b.WriteString("(args = ")
	writeArg(b, node.Tuple(n.Args()), fxStyle)
	b.WriteString(", kwargs = ")
	writeArg(b, node.Dict(n.Kwargs()), fxStyle)
	b.WriteByte(')')
}

// Tabular returns the graph as a table with the columns opcode, name,
// target, args and kwargs, as torch.fx's print_tabular prints it (arguments
// in Python repr).
func (g *Graph) Tabular() string {
	rows := [][]string{{"opcode", "name", "target", "args", "kwargs"}}
	for n := range g.Nodes() {
		rows = append(rows, []string{
			n.Op().String(), n.Name(), n.Target().String(),
			pyRepr(node.Tuple(n.Args())), pyRepr(node.Dict(n.Kwargs())),
		})
	}
	widths := make([]int, 5)
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	writeRow := func(r []string) {
		var line strings.Builder
		for i, c := range r {
			if i > 0 {
				line.WriteString("  ")
			}
			line.WriteString(c)
			line.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)))
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	writeRow(rows[0])
	dashes := make([]string, 5)
	for i, w := range widths {
		dashes[i] = strings.Repeat("-", w)
	}
	writeRow(dashes)
	for _, r := range rows[1:] {
		writeRow(r)
	}
	return b.String()
}

// formatTarget writes a dotted attribute path on base as Python code,
// using getattr for atoms that are not identifiers ("layer1.0.conv" on
// self is getattr(self.layer1, "0").conv), as torch.fx's codegen does.
func formatTarget(base, path string) string {
	r := base
	for _, atom := range strings.Split(path, ".") {
		if node.IsIdentifier(atom) {
			r += "." + atom
		} else {
			r = "getattr(" + r + ", \"" + atom + "\")"
		}
	}
	return r
}

// pythonName returns the name a Function is called by in Code.
func pythonName(f node.Function) string {
	if p, ok := f.(node.PythonNamer); ok {
		return p.PythonName()
	}
	return f.String()
}

// Code returns the graph as a readable Python-like forward function, as
// torch.fx's codegen writes it: one statement per node, with each value
// set to None right after its last use (and unused values right after they
// are computed) so that memory can be freed early.
func (g *Graph) Code() string { return g.CodeWith(CodeOptions{}) }

// CodeOptions changes how CodeWith writes a graph.
type CodeOptions struct {
	// Annotate, if set, returns a node's type annotation ("" for none),
	// written after the parameter or variable name as Python annotates:
	// torch.export prints each value's dtype and shape this way
	// (add: "f32[s0, 3]" = ...).
	Annotate func(n *node.Node) string
}

// CodeWith is Code with options.
func (g *Graph) CodeWith(o CodeOptions) string {
	ann := func(n *node.Node) string {
		if o.Annotate == nil {
			return ""
		}
		if a := o.Annotate(n); a != "" {
			return ": " + a
		}
		return ""
	}
	nodes := g.NodeList()
	pos := make(map[*node.Node]int32, len(nodes))
	for i, n := range nodes {
		pos[n] = int32(i)
	}
	// freeAfter[i] lists, in order of first appearance in node i's
	// arguments, the nodes whose last use is node i.
	freeAfter := make([][]*node.Node, len(nodes))
	seen := make([]bool, len(nodes))
	for i := len(nodes) - 1; i >= 0; i-- {
		nodes[i].EachInput(func(in *node.Node) {
			if p := pos[in]; !seen[p] {
				seen[p] = true
				freeAfter[i] = append(freeAfter[i], in)
			}
		})
	}
	params := []string{"self"}
	var b strings.Builder
	b.Grow(len(nodes) * 64)
	for i, n := range nodes {
		switch n.Op() {
		case node.Placeholder:
			p := n.Target().String() + ann(n)
			if n.NumArgs() > 0 {
				p += " = " + pyRepr(n.Arg(0))
			}
			params = append(params, p)
			if raw := strings.TrimLeft(n.Target().String(), "*"); raw != n.Name() {
				b.WriteString("    " + n.Name() + " = " + raw + "\n")
			}
			continue
		case node.Output:
			b.WriteString("    return ")
			writeArg(&b, n.Arg(0), reprStyle)
			b.WriteByte('\n')
			continue
		}
		b.WriteString("    ")
		b.WriteString(n.Name())
		b.WriteString(ann(n))
		b.WriteString(" = ")
		args := n.Args()
		switch n.Op() {
		case node.GetAttr:
			b.WriteString(formatTarget("self", n.Target().String()))
		case node.CallFunction:
			if f := magicForm(n); f != "" {
				writeMagic(&b, f, args)
				args = nil
				break
			}
			b.WriteString(pythonName(n.Function()))
		case node.CallMethod:
			b.WriteString(formatTarget(pyRepr(args[0]), n.Target().String()))
			args = args[1:]
		case node.CallModule:
			b.WriteString(formatTarget("self", n.Target().String()))
		}
		if n.Op() != node.GetAttr && args != nil {
			b.WriteByte('(')
			writeCodeArgs(&b, args, n.Kwargs())
			b.WriteByte(')')
		}
		free := freeAfter[i]
		if n.NumUsers() == 0 {
			free = append(free, n)
		}
		if len(free) > 0 {
			b.WriteString(";  ")
			for _, f := range free {
				b.WriteString(f.Name())
				b.WriteString(" = ")
			}
			b.WriteString("None")
		}
		b.WriteByte('\n')
	}
	if b.Len() == 0 {
		b.WriteString("    pass\n")
	}
	return "def forward(" + strings.Join(params, ", ") + "):\n" + b.String()
}

// magicMethods are Python's operators that torch.fx's codegen writes as
// expressions (torch/fx/graph.py's magic_methods): a call of
// operator.getitem is "x[0]", of operator.mul "a * b".
var magicMethods = map[string]string{
	"add": "{} + {}", "sub": "{} - {}", "mul": "{} * {}", "floordiv": "{} // {}",
	"truediv": "{} / {}", "div": "{} / {}", "mod": "{} % {}", "pow": "{} ** {}",
	"lshift": "{} << {}", "rshift": "{} >> {}", "and_": "{} & {}", "or_": "{} | {}",
	"xor": "{} ^ {}", "getitem": "{}[{}]", "matmul": "{} @ {}",
	"eq": "{} == {}", "ne": "{} != {}", "lt": "{} < {}", "gt": "{} > {}",
	"le": "{} <= {}", "ge": "{} >= {}", "pos": "+{}", "neg": "-{}", "invert": "~{}",
}

// magicForm returns the expression template of a call of one of Python's
// operators (operator.NAME or _operator.NAME) with as many positional
// arguments as the template has operands and no keyword arguments, or "".
func magicForm(n *node.Node) string {
	name := n.Target().String()
	rest, ok := strings.CutPrefix(name, "operator.")
	if !ok {
		if rest, ok = strings.CutPrefix(name, "_operator."); !ok {
			return ""
		}
	}
	f := magicMethods[rest]
	if f == "" || len(n.Kwargs()) > 0 || strings.Count(f, "{}") != n.NumArgs() {
		return ""
	}
	return f
}

// writeMagic writes template f with its operands in Python repr.
func writeMagic(b *strings.Builder, f string, args []node.Arg) {
	for i, part := range strings.Split(f, "{}") {
		if i > 0 {
			writeArg(b, args[i-1], reprStyle)
		}
		b.WriteString(part)
	}
}

// writeCodeArgs writes call arguments as torch.fx's _format_args does.
func writeCodeArgs(b *strings.Builder, args []node.Arg, kwargs node.Kwargs) {
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		writeArg(b, a, reprStyle)
	}
	for i, f := range kwargs {
		if i > 0 || len(args) > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Name)
		b.WriteString(" = ")
		writeArg(b, f.Value, reprStyle)
	}
}
