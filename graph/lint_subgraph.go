package graph

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/gofx/gofx/node"
)

// The names of the higher-order operators whose calls LintWithSubgraphs
// checks against their graphs (the node.Function names nn registers).
const (
	hopCond      = "higher_order.cond"
	hopWhileLoop = "higher_order.while_loop"
	hopMapImpl   = "higher_order.map_impl"
)

// IsHigherOrder reports whether n calls one of PyTorch's higher-order
// operators (torch.ops.higher_order.cond, while_loop, map_impl, ...): a
// call_function whose target's name starts with higher_order.
func IsHigherOrder(n *node.Node) bool {
	if n.Op() != node.CallFunction {
		return false
	}
	name := n.Target().String()
	return strings.HasPrefix(name, "higher_order.") || strings.HasPrefix(name, "torch.ops.higher_order.")
}

// SubgraphArgs returns the get_attr nodes among n's arguments that name
// graphs (the subgraph arguments of a higher-order call, in order: cond's
// true and false branch, while_loop's cond and body graph, map_impl's
// body), or nil if n is not a higher-order call.
func SubgraphArgs(n *node.Node) []*node.Node {
	if !IsHigherOrder(n) {
		return nil
	}
	var out []*node.Node
	for _, a := range n.Args() {
		if m, ok := a.(*node.Node); ok && m.Op() == node.GetAttr {
			out = append(out, m)
		}
	}
	return out
}

// LintWithSubgraphs checks g and its subgraphs, returning a *LintError
// whose problems name the subgraph (its dotted path: true_graph_0.
// false_graph_0), the node, the operator, the branch and what differs,
// or nil:
//
//   - every graph passes Lint, and the subgraphs of one graph have unique,
//     non-empty names and a graph each;
//   - every higher-order call's graph arguments are get_attr nodes naming
//     a subgraph of its own graph (a dangling reference is an error);
//   - cond(pred, true_graph, false_graph, operands): pred is a bool
//     scalar (where its val is known); each branch takes one placeholder
//     per operand, and both branches return the same number of values,
//     with the same dtypes and shapes, which are the cond's;
//   - while_loop(cond_graph, body_graph, carried, additional): both
//     graphs take the carried and additional inputs; the cond graph
//     returns one bool scalar; the body returns one value per carried
//     input, with its dtype and shape;
//   - map_impl(body, xs, args): the xs have one leading size; the body
//     takes a slice of each xs (its shape less the leading dim) and the
//     args, and its outputs stacked along the leading size are map_impl's.
//
// Dtypes and shapes are compared where nodes carry a val (node.Val: a
// node.TensorMeta, or a value with a Meta() node.TensorMeta method such as
// shapeprop's fake tensors); symbolic dims compare by their text.
func (g *Graph) LintWithSubgraphs(subs []Subgraph) error {
	var probs []string
	lintTree(g, subs, "", &probs)
	if len(probs) > 0 {
		if len(probs) > maxLintProblems {
			probs = probs[:maxLintProblems]
		}
		return &LintError{probs}
	}
	return nil
}

func lintTree(g *Graph, subs []Subgraph, path string, probs *[]string) {
	prefix := ""
	if path != "" {
		prefix = "subgraph " + path + ": "
	}
	add := func(format string, args ...any) {
		*probs = append(*probs, prefix+fmt.Sprintf(format, args...))
	}
	if g == nil {
		add("no graph")
		return
	}
	if err := g.Lint(); err != nil {
		if le, ok := err.(*LintError); ok {
			for _, p := range le.Problems {
				add("%s", p)
			}
		} else {
			add("%v", err)
		}
	}
	seen := map[string]bool{}
	for _, sg := range subs {
		switch {
		case sg.Name == "":
			add("a subgraph has no name")
		case seen[sg.Name]:
			add("two subgraphs are called %s", sg.Name)
		}
		seen[sg.Name] = true
	}
	for n := range g.Nodes() {
		if !IsHigherOrder(n) {
			continue
		}
		for _, p := range checkHigherOrder(n, subs) {
			add("node %%%s: %s", n.Name(), p)
		}
	}
	for _, sg := range subs {
		sub := sg.Name
		if path != "" {
			sub = path + "." + sg.Name
		}
		if sg.Graph == nil {
			*probs = append(*probs, "subgraph "+sub+": no graph")
			continue
		}
		lintTree(sg.Graph, sg.Subgraphs, sub, probs)
	}
}

// hopGraph is one graph argument of a higher-order call.
type hopGraph struct {
	role string // "true branch", "body", ...
	name string
	g    *Graph
}

// checkHigherOrder checks a higher-order call against the subgraphs of
// its graph and describes each problem.
func checkHigherOrder(n *node.Node, subs []Subgraph) []string {
	op := strings.TrimPrefix(n.Target().String(), "torch.ops.")
	short := strings.TrimPrefix(op, "higher_order.")
	var probs []string
	add := func(format string, args ...any) {
		probs = append(probs, short+": "+fmt.Sprintf(format, args...))
	}
	// graphArg resolves argument i, a get_attr naming a subgraph.
	graphArg := func(i int, role string) (hopGraph, bool) {
		a := n.Arg(i)
		ga, ok := a.(*node.Node)
		if !ok || ga.Op() != node.GetAttr {
			add("the %s (argument %d) must be a get_attr node naming a subgraph, got %s", role, i, pyRepr(a))
			return hopGraph{}, false
		}
		name := ga.Target().String()
		sg, ok := FindSubgraph(subs, name)
		if !ok {
			add("the %s %s (read by %%%s) is not a subgraph of this graph (dangling reference; subgraphs: %s)", role, name, ga.Name(), subgraphNames(subs))
			return hopGraph{}, false
		}
		if sg.Graph == nil {
			return hopGraph{}, false
		}
		return hopGraph{role: role, name: name, g: sg.Graph}, true
	}
	seq := func(i int, what string) ([]node.Arg, bool) {
		switch x := n.Arg(i).(type) {
		case node.List:
			return x, true
		case node.Tuple:
			return x, true
		}
		add("the %s (argument %d) must be a list or tuple, got %s", what, i, pyRepr(n.Arg(i)))
		return nil, false
	}
	outVals := valEntries(n)
	switch op {
	case hopCond:
		if n.NumArgs() != 4 || len(n.Kwargs()) != 0 {
			add("takes (pred, true_graph, false_graph, operands), got %d arguments and %d keyword arguments", n.NumArgs(), len(n.Kwargs()))
			return probs
		}
		if m, ok := argMeta(n.Arg(0)); ok && (m.DType != node.BoolDType || len(m.Shape) != 0) {
			add("the predicate %s is %s, not a bool scalar (b8[])", pyRepr(n.Arg(0)), m)
		}
		operands, okOps := seq(3, "operands")
		t, okT := graphArg(1, "true branch")
		f, okF := graphArg(2, "false branch")
		var outs [2][]node.Arg
		for i, br := range []struct {
			hopGraph
			ok bool
		}{{t, okT}, {f, okF}} {
			if !br.ok {
				continue
			}
			if okOps {
				checkInputs(add, br.hopGraph, operands, "operands", nil)
			}
			outs[i] = graphOutputs(br.g)
			if outVals != nil && len(outs[i]) != len(outVals) {
				add("the %s %s returns %d values, the cond %d", br.role, br.name, len(outs[i]), len(outVals))
			}
		}
		if okT && okF {
			if len(outs[0]) != len(outs[1]) {
				add("the true branch %s returns %d values, the false branch %s %d", t.name, len(outs[0]), f.name, len(outs[1]))
			} else {
				for i := range outs[0] {
					mt, ok1 := argMeta(outs[0][i])
					mf, ok2 := argMeta(outs[1][i])
					var mc *node.TensorMeta
					if i < len(outVals) {
						if m, ok := metaOf(outVals[i]); ok {
							mc = &m
						}
					}
					if ok1 && ok2 && !mergedMeta(mt, mf, mc) {
						add("output %d of the true branch %s is %s, of the false branch %s %s", i, t.name, mt, f.name, mf)
					}
				}
			}
		}
		for i, o := range outs[0] {
			if i >= len(outVals) {
				continue
			}
			mb, ok1 := argMeta(o)
			mc, ok2 := metaOf(outVals[i])
			if ok1 && ok2 && !mergedMeta(mb, mb, &mc) {
				add("output %d of the true branch %s is %s, the cond's %s", i, t.name, mb, mc)
			}
		}
	case hopWhileLoop:
		if n.NumArgs() != 4 || len(n.Kwargs()) != 0 {
			add("takes (cond_graph, body_graph, carried_inputs, additional_inputs), got %d arguments and %d keyword arguments", n.NumArgs(), len(n.Kwargs()))
			return probs
		}
		carried, okC := seq(2, "carried inputs")
		extra, okE := seq(3, "additional inputs")
		c, okCond := graphArg(0, "cond graph")
		b, okBody := graphArg(1, "body graph")
		if okC && okE {
			all := append(append([]node.Arg{}, carried...), extra...)
			for _, gr := range []struct {
				hopGraph
				ok bool
			}{{c, okCond}, {b, okBody}} {
				if gr.ok {
					checkInputs(add, gr.hopGraph, all, "carried and additional inputs", nil)
				}
			}
		}
		if okCond {
			outs := graphOutputs(c.g)
			if len(outs) != 1 {
				add("the cond graph %s returns %d values, not one bool scalar", c.name, len(outs))
			} else if m, ok := argMeta(outs[0]); ok && (m.DType != node.BoolDType || len(m.Shape) != 0) {
				add("the cond graph %s returns %s, not a bool scalar (b8[])", c.name, m)
			}
		}
		if okBody && okC {
			outs := graphOutputs(b.g)
			if len(outs) != len(carried) {
				add("the body graph %s returns %d values for %d carried inputs", b.name, len(outs), len(carried))
			} else {
				for i, o := range outs {
					checkSame(add, o, carried[i], fmt.Sprintf("output %d of the body graph %s", i, b.name), fmt.Sprintf("carried input %d (%s)", i, pyRepr(carried[i])))
				}
			}
		}
		if outVals != nil && okC && len(outVals) != len(carried) {
			add("has %d values for %d carried inputs", len(outVals), len(carried))
		} else if okC {
			for i := range outVals {
				checkSame(add, carried[i], outVals[i], fmt.Sprintf("carried input %d (%s)", i, pyRepr(carried[i])), "the while_loop's output")
			}
		}
	case hopMapImpl:
		if n.NumArgs() != 3 || len(n.Kwargs()) != 0 {
			add("takes (body_graph, xs, args), got %d arguments and %d keyword arguments", n.NumArgs(), len(n.Kwargs()))
			return probs
		}
		xs, okX := seq(1, "mapped inputs xs")
		extra, okA := seq(2, "extra inputs args")
		b, okBody := graphArg(0, "body graph")
		lead := ""
		if okX {
			if len(xs) == 0 {
				add("maps over no inputs (xs is empty)")
			}
			for i, x := range xs {
				m, ok := argMeta(x)
				if !ok {
					continue
				}
				if len(m.Shape) == 0 {
					add("mapped input %d (%s) is a scalar %s, with no leading dim to map over", i, pyRepr(x), m)
					continue
				}
				d := m.Shape[0].String()
				if lead == "" {
					lead = d
				} else if d != lead {
					add("mapped input %d (%s) has leading size %s, mapped input 0 %s", i, pyRepr(x), d, lead)
				}
			}
		}
		if okBody && okX && okA {
			all := append(append([]node.Arg{}, xs...), extra...)
			checkInputs(add, b, all, "mapped and extra inputs", func(i int, m node.TensorMeta) node.TensorMeta {
				if i < len(xs) && len(m.Shape) > 0 {
					m.Shape = m.Shape[1:]
				}
				return m
			})
		}
		if okBody {
			outs := graphOutputs(b.g)
			if outVals != nil && len(outs) != len(outVals) {
				add("the body graph %s returns %d values, the map_impl %d", b.name, len(outs), len(outVals))
			} else {
				for i := range outVals {
					mo, ok1 := argMeta(outs[i])
					mv, ok2 := metaOf(outVals[i])
					if !ok1 || !ok2 {
						continue
					}
					if len(mv.Shape) == 0 {
						add("output %d of the map_impl is a scalar %s, not the body's %s stacked", i, mv, mo)
						continue
					}
					want := node.TensorMeta{DType: mo.DType, Shape: append([]node.Dim{mv.Shape[0]}, mo.Shape...)}
					if !sameMeta(want, mv) {
						add("output %d of the body graph %s is %s, so the map_impl's is %s with the leading size, not %s", i, b.name, mo, want, mv)
					}
				}
			}
		}
	}
	return probs
}

// checkInputs checks that g takes one placeholder per input and, where
// both carry vals, with the input's dtype and shape (after adjust).
func checkInputs(add func(string, ...any), g hopGraph, inputs []node.Arg, what string, adjust func(int, node.TensorMeta) node.TensorMeta) {
	phs := g.g.Placeholders()
	if len(phs) != len(inputs) {
		add("the %s %s takes %d inputs (%s), but there are %d %s", g.role, g.name, len(phs), nodeNames(phs), len(inputs), what)
		return
	}
	for i, in := range inputs {
		mi, ok1 := argMeta(in)
		mp, ok2 := argMeta(phs[i])
		if !ok1 || !ok2 {
			continue
		}
		if adjust != nil {
			mi = adjust(i, mi)
		}
		if !sameMeta(mi, mp) {
			add("input %d of the %s %s (%%%s) is %s, the argument %s is %s", i, g.role, g.name, phs[i].Name(), mp, pyRepr(in), mi)
		}
	}
}

// checkSame reports a difference in dtype or shape between the vals of a
// and b.
func checkSame(add func(string, ...any), a any, b any, aDesc, bDesc string) {
	ma, ok1 := anyMeta(a)
	mb, ok2 := anyMeta(b)
	if ok1 && ok2 && !sameMeta(ma, mb) {
		add("%s is %s, %s %s", aDesc, ma, bDesc, mb)
	}
}

func anyMeta(v any) (node.TensorMeta, bool) {
	if a, ok := v.(node.Arg); ok {
		if m, ok := argMeta(a); ok {
			return m, true
		}
	}
	return metaOf(v)
}

// graphOutputs returns the values g's output node returns: the items of
// a returned tuple or list, or the one value returned.
func graphOutputs(g *Graph) []node.Arg {
	out := g.OutputNode()
	if out == nil || out.NumArgs() == 0 {
		return nil
	}
	switch x := out.Arg(0).(type) {
	case node.Tuple:
		return x
	case node.List:
		return x
	}
	return []node.Arg{out.Arg(0)}
}

// valEntries returns the values of a multi-output node's val, or nil.
func valEntries(n *node.Node) []node.Value {
	v, ok := node.Val.Get(&n.Meta)
	if !ok {
		return nil
	}
	if t, ok := v.(node.ValueTuple); ok {
		return t
	}
	return nil
}

// argMeta returns the dtype and shape of an argument that is a node with
// a tensor val.
func argMeta(a node.Arg) (node.TensorMeta, bool) {
	n, ok := a.(*node.Node)
	if !ok {
		return node.TensorMeta{}, false
	}
	v, ok := node.Val.Get(&n.Meta)
	if !ok {
		return node.TensorMeta{}, false
	}
	return metaOf(v)
}

// metaOf returns the dtype and shape of a tensor value.
func metaOf(v any) (node.TensorMeta, bool) {
	switch x := v.(type) {
	case node.TensorMeta:
		return x, x.DType.Valid()
	case interface{ Meta() node.TensorMeta }:
		if isNilPointer(x) {
			return node.TensorMeta{}, false
		}
		m := x.Meta()
		return m, m.DType.Valid()
	}
	return node.TensorMeta{}, false
}

// isNilPointer reports whether v holds a nil pointer (whose methods
// cannot be called).
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// mergedMeta reports whether a cond's branch outputs a and b agree with
// each other and with the cond's result c (nil: unknown), as PyTorch's
// cond merges them: same dtype and rank; a size may differ between the
// branches, or from c's, only where c has an unbacked size (u0), which
// the cond made for it (shapeprop.MergeBranches).
func mergedMeta(a, b node.TensorMeta, c *node.TensorMeta) bool {
	if a.DType != b.DType || len(a.Shape) != len(b.Shape) {
		return false
	}
	if c == nil {
		return true // the cond's sizes are unknown: the branches may differ in size
	}
	if c.DType != a.DType || len(c.Shape) != len(a.Shape) {
		return false
	}
	for i := range a.Shape {
		if unbackedDim(c.Shape[i]) {
			continue
		}
		if a.Shape[i] != c.Shape[i] || b.Shape[i] != c.Shape[i] {
			return false
		}
	}
	return true
}

// unbackedDim reports whether d is an unbacked size, u0, u1, ...
func unbackedDim(d node.Dim) bool {
	if len(d.Sym) < 2 || d.Sym[0] != 'u' {
		return false
	}
	for _, r := range d.Sym[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func sameMeta(a, b node.TensorMeta) bool {
	if a.DType != b.DType || len(a.Shape) != len(b.Shape) {
		return false
	}
	for i := range a.Shape {
		if a.Shape[i] != b.Shape[i] {
			return false
		}
	}
	return true
}

func subgraphNames(subs []Subgraph) string {
	if len(subs) == 0 {
		return "none"
	}
	names := make([]string, len(subs))
	for i, s := range subs {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

func nodeNames(ns []*node.Node) string {
	names := make([]string, len(ns))
	for i, n := range ns {
		names[i] = n.Name()
	}
	return strings.Join(names, ", ")
}
