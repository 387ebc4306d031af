package pattern

import (
	"slices"
	"strings"
	"sync"

	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/tensor"
)

// One aten operator has several spellings in a graph: the overloads of its
// packet (add.Tensor, add.Scalar), chosen by the types of the arguments the
// recorder saw, and the tensor method of the same name (call_method "add").
// torch.fx records torch.add(x, 2) and torch.add(x, y) with the same target,
// so its patterns match both; gofx's recorders split them by overload and
// spell Value methods as call_method. The matcher therefore compares two
// operator nodes by family (namespace::name), and their arguments by schema
// name after resolving each node to its overload.

// family returns the operator family of n ("aten::add"): the packet of a
// call_function node calling an *ops.Operator, or the aten packet named
// after a call_method node's method when one exists; "" otherwise.
func family(n *node.Node) string {
	switch n.Op() {
	case node.CallFunction:
		if op, ok := n.Target().(*ops.Operator); ok {
			s := op.Schema()
			return s.Namespace + "::" + s.Name
		}
	case node.CallMethod:
		if m := n.Target().String(); len(ops.Global().Overloads("aten", m)) > 0 {
			return "aten::" + m
		}
	}
	return ""
}

// overloads returns the overloads of family fam ("aten::add").
func overloads(fam string) []*ops.Operator {
	ns, name, _ := strings.Cut(fam, "::")
	return ops.Global().Overloads(ns, name)
}

var methodCache sync.Map // "name|signature" -> *ops.Operator (nil: none)

// operatorOf returns the overload n calls: its target for a call_function
// node, the overload of the aten packet its arguments bind to for a
// call_method node (x.add(2) is aten::add.Scalar), or nil.
func operatorOf(n *node.Node) *ops.Operator {
	switch n.Op() {
	case node.CallFunction:
		op, _ := n.Target().(*ops.Operator)
		return op
	case node.CallMethod:
	default:
		return nil
	}
	var sig strings.Builder
	sig.WriteString(n.Target().String())
	sig.WriteByte('|')
	args := n.Args()
	for _, a := range args {
		writeSig(&sig, a)
	}
	for _, f := range n.Kwargs() {
		sig.WriteString(f.Name)
		sig.WriteByte('=')
		writeSig(&sig, f.Value)
	}
	key := sig.String()
	if v, ok := methodCache.Load(key); ok {
		op, _ := v.(*ops.Operator)
		return op
	}
	op, _ := resolveCall("aten::"+n.Target().String(), args, n.Kwargs())
	methodCache.Store(key, op)
	return op
}

// resolveCall returns the overload of name (ns::name) that the graph
// arguments bind to, nodes standing for tensors (or for the numbers their
// val says they are).
func resolveCall(name string, args []node.Arg, kwargs node.Kwargs) (*ops.Operator, error) {
	in := make([]any, len(args))
	for i, a := range args {
		in[i] = bindValue(a)
	}
	var kw map[string]any
	if len(kwargs) > 0 {
		kw = make(map[string]any, len(kwargs))
		for _, f := range kwargs {
			kw[f.Name] = bindValue(f.Value)
		}
	}
	return ops.Global().Resolve(name, in, kw)
}

// binds reports whether op accepts n's arguments without conversions
// (nodes standing for tensors, or the numbers their val says; a number is
// not wrapped for a Tensor parameter).
func binds(op *ops.Operator, n *node.Node) bool {
	in, kw := bindArgs(n)
	_, err := op.BindExact(in, kw)
	return err == nil
}

// bindArgs returns n's arguments as ops.Bind takes them (bindValue of
// each).
func bindArgs(n *node.Node) ([]any, map[string]any) {
	args := n.Args()
	in := make([]any, len(args))
	for i, a := range args {
		in[i] = bindValue(a)
	}
	var kw map[string]any
	if k := n.Kwargs(); len(k) > 0 {
		kw = make(map[string]any, len(k))
		for _, f := range k {
			kw[f.Name] = bindValue(f.Value)
		}
	}
	return in, kw
}

// writeSig writes the kind of a graph argument, as bindValue sees it.
func writeSig(b *strings.Builder, a node.Arg) {
	switch x := a.(type) {
	case *node.Node:
		switch bindValue(x).(type) {
		case int64:
			b.WriteByte('i')
		default:
			b.WriteByte('T')
		}
	case node.Int:
		b.WriteByte('i')
	case node.Float:
		b.WriteByte('f')
	case node.Bool:
		b.WriteByte('b')
	case node.Str:
		b.WriteByte('s')
	case node.NoneType:
		b.WriteByte('n')
	case node.DType:
		b.WriteByte('d')
	case node.List:
		b.WriteByte('[')
		for _, e := range x {
			writeSig(b, e)
		}
		b.WriteByte(']')
	case node.Tuple:
		b.WriteByte('(')
		for _, e := range x {
			writeSig(b, e)
		}
		b.WriteByte(')')
	default:
		b.WriteByte('?')
	}
	b.WriteByte(',')
}

// anyTensor stands for a tensor node when arguments are bound to a schema.
var anyTensor = tensor.Scalar[float32](0)

// bindValue converts a graph argument to the Go value Operator.Bind checks.
func bindValue(a node.Arg) any {
	switch x := a.(type) {
	case *node.Node:
		v, ok := node.Val.Get(&x.Meta)
		if !ok {
			return anyTensor
		}
		switch v.(type) {
		case node.TensorMeta, *shapeprop.Fake, node.ValueTuple:
			return anyTensor
		}
		return int64(0) // a symbolic size
	case node.List:
		return bindList(x)
	case node.Tuple:
		return bindList(x)
	}
	if v, ok := literalValue(a); ok {
		return v
	}
	return a
}

func bindList(xs []node.Arg) any {
	if len(xs) == 0 {
		return []int64{}
	}
	allNodes, allInts, allFloats := true, true, true
	for _, e := range xs {
		_, isNode := e.(*node.Node)
		_, isInt := e.(node.Int)
		_, isFloat := e.(node.Float)
		allNodes = allNodes && isNode
		allInts = allInts && (isInt || isNode && bindValue(e) == any(int64(0)))
		allFloats = allFloats && (isFloat || isInt)
	}
	switch {
	case allInts:
		out := make([]int64, len(xs))
		for i, e := range xs {
			if v, ok := e.(node.Int); ok {
				out[i] = int64(v)
			}
		}
		return out
	case allNodes:
		out := make([]*tensor.Tensor, len(xs))
		for i := range out {
			out[i] = anyTensor
		}
		return out
	case allFloats:
		out := make([]float64, len(xs))
		for i, e := range xs {
			switch v := e.(type) {
			case node.Int:
				out[i] = float64(v)
			case node.Float:
				out[i] = float64(v)
			}
		}
		return out
	}
	out := make([]any, len(xs))
	for i, e := range xs {
		out[i] = bindValue(e)
	}
	return out
}

// placeWith returns n's arguments in the schema order of op, with defaults
// filled in, and the schema names.
func placeWith(op *ops.Operator, n *node.Node) ([]any, []string, error) {
	return placeArgs(op, n.Args(), n.Kwargs(), nil)
}

// wildSlot marks a literal wildcard while arguments are placed.
type wildSlot int

// placeArgs places args and kwargs in op's schema order; wild, when not
// nil, gives a literal wildcard number per positional argument and then per
// keyword argument (-1 for none), returned per schema argument.
func placeArgs(op *ops.Operator, args []node.Arg, kwargs node.Kwargs, wild []int) ([]any, []string, error) {
	in := make([]any, len(args))
	for i, a := range args {
		in[i] = a
		if wild != nil && wild[i] >= 0 {
			in[i] = wildSlot(wild[i])
		}
	}
	var kw map[string]any
	if len(kwargs) > 0 {
		kw = make(map[string]any, len(kwargs))
		for k, f := range kwargs {
			kw[f.Name] = f.Value
			if wild != nil && wild[len(args)+k] >= 0 {
				kw[f.Name] = wildSlot(wild[len(args)+k])
			}
		}
	}
	vals, err := op.Place(in, kw)
	if err != nil {
		return nil, nil, err
	}
	for i, v := range vals {
		if _, ok := v.(wildSlot); !ok {
			vals[i] = toArg(v)
		}
	}
	return vals, opNames(op), nil
}

// mergeOrdered concatenates node lists, each in graph order, into one in
// graph order.
func mergeOrdered(before func(a, b *node.Node) bool, lists ...[]*node.Node) []*node.Node {
	var out []*node.Node
	n := 0
	for _, l := range lists {
		if len(l) > 0 {
			n++
			out = l
		}
	}
	if n <= 1 {
		return out
	}
	out = nil
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.SortFunc(out, func(a, b *node.Node) int {
		switch {
		case a == b:
			return 0
		case before(a, b):
			return -1
		}
		return 1
	})
	return slices.Compact(out)
}
