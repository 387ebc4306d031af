package interp

import (
	"fmt"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
)

// nodePlan is what New precomputes for one node, so that a run converts
// arguments without looking anything up by name.
type nodePlan struct {
	n      *node.Node
	op     node.Opcode
	path   string        // target of every opcode but call_function
	fn     node.Function // target of call_function
	args   []argPlan
	kwargs []kwPlan
	free   []int32 // positions whose last use is this node
	err    error   // an argument that cannot be converted, reported when the node runs
	pin    uint8   // whether the value is pinned (see pinPlan): 0 unknown, 1 yes, 2 no
	// constant is true for a get_attr node the graph only reads
	// (ReadOnly): its tensor is declared constant when fetched.
	constant bool
}

// argKind says how an argument is made at run time.
type argKind uint8

const (
	argConst argKind = iota // val, converted once
	argNode                 // the env value at slot
	argTuple                // a tuple of elems, some of which are nodes
	argSlice                // a slice of three elems, some of which are nodes
)

type argPlan struct {
	kind  argKind
	slot  int32
	val   nn.Value
	elems []argPlan
	ref   *node.Node // the node of an argNode, for error messages
}

type kwPlan struct {
	name string
	arg  argPlan
}

// plan precomputes every node's argument plan and the values each node is
// the last user of.
func (in *Interpreter) plan() {
	if in.g == nil {
		return
	}
	nodes := in.g.NodeList()
	in.plans = make([]nodePlan, len(nodes))
	in.index = make(map[*node.Node]int32, len(nodes))
	for i, n := range nodes {
		in.index[n] = int32(i)
	}
	for i, n := range nodes {
		p := &in.plans[i]
		p.n, p.op = n, n.Op()
		if p.op == node.CallFunction {
			p.fn = n.Function()
		} else {
			p.path = n.Target().String()
		}
		if p.op == node.GetAttr {
			p.constant = ReadOnly(n)
		}
		if k := n.NumArgs(); k > 0 {
			p.args = make([]argPlan, k)
			for j := range k {
				a, err := in.planArg(n.Arg(j))
				if err != nil && p.err == nil {
					p.err = fmt.Errorf("argument %d: %w", j, err)
				}
				p.args[j] = a
			}
		}
		if kw := n.Kwargs(); len(kw) > 0 {
			p.kwargs = make([]kwPlan, len(kw))
			for j, f := range kw {
				a, err := in.planArg(f.Value)
				if err != nil && p.err == nil {
					p.err = fmt.Errorf("argument %s: %w", f.Name, err)
				}
				p.kwargs[j] = kwPlan{f.Name, a}
			}
		}
	}
	// Last uses, as torch.fx computes them: walking backwards, the first
	// user met of a node is its last user.
	seen := make([]bool, len(nodes))
	for i := len(nodes) - 1; i >= 0; i-- {
		p := &in.plans[i]
		p.n.EachInput(func(x *node.Node) {
			j, ok := in.index[x]
			if !ok || seen[j] {
				return
			}
			seen[j] = true
			p.free = append(p.free, j)
		})
	}
	// A value nobody uses is dropped as soon as it is made (the output
	// node's own value is returned, not kept).
	for i := range in.plans {
		if !seen[i] && in.plans[i].op != node.Output {
			in.plans[i].free = append(in.plans[i].free, int32(i))
		}
	}
}

// planArg converts a node argument to its run-time plan.
func (in *Interpreter) planArg(a node.Arg) (argPlan, error) {
	switch x := a.(type) {
	case *node.Node:
		j, ok := in.index[x]
		if !ok {
			return argPlan{kind: argNode, slot: -1, ref: x}, fmt.Errorf("node %s is not in the graph", x)
		}
		return argPlan{kind: argNode, slot: j, ref: x}, nil
	case node.List:
		return in.planSeq(x)
	case node.Tuple:
		return in.planSeq(x)
	case node.Slice:
		if len(node.Nodes(x)) > 0 {
			elems := make([]argPlan, 3)
			var first error
			for i, part := range x.Parts() {
				e, err := in.planArg(part)
				if err != nil && first == nil {
					first = err
				}
				elems[i] = e
			}
			return argPlan{kind: argSlice, elems: elems}, first
		}
	}
	v, err := Constant(a)
	return argPlan{kind: argConst, val: v}, err
}

func (in *Interpreter) planSeq(xs []node.Arg) (argPlan, error) {
	elems := make([]argPlan, len(xs))
	dynamic := false
	var first error
	for i, x := range xs {
		e, err := in.planArg(x)
		if err != nil && first == nil {
			first = err
		}
		elems[i] = e
		dynamic = dynamic || e.kind != argConst
	}
	if dynamic {
		return argPlan{kind: argTuple, elems: elems}, first
	}
	vs := make([]nn.Value, len(elems))
	for i, e := range elems {
		vs[i] = e.val
	}
	return argPlan{kind: argConst, val: nn.Of(vs)}, first
}

// Constant converts a node argument that holds no node to the value steps
// receive: Int as int64, Float as float64, Bool, Str as string, None,
// DType as a tensor.DType, Device, Layout and MemoryFormat as their names
// (strings, as operators take them), List and Tuple as tuples, a Slice of
// ints and None and Ellipsis as the index values of nn.Slice and
// nn.Ellipsis. A Dict, or a List, Tuple or Slice holding a node, is an
// error.
func Constant(a node.Arg) (nn.Value, error) {
	switch x := a.(type) {
	case node.Int:
		return nn.Of(int64(x)), nil
	case node.Float:
		return nn.Of(float64(x)), nil
	case node.Bool:
		return nn.Of(bool(x)), nil
	case node.Str:
		return nn.Of(string(x)), nil
	case node.NoneType, nil:
		return nn.None, nil
	case node.DType:
		dt, err := tensor.ParseDType(string(x))
		if err != nil {
			return nn.None, fmt.Errorf("dtype %s: %w", string(x), err)
		}
		return nn.Of(dt), nil
	case node.Device:
		return nn.Of(string(x)), nil
	case node.Layout:
		return nn.Of(string(x)), nil
	case node.MemoryFormat:
		return nn.Of(string(x)), nil
	case node.List:
		return constSeq(x)
	case node.Tuple:
		return constSeq(x)
	case node.Slice:
		if len(node.Nodes(x)) > 0 {
			return nn.None, fmt.Errorf("slice %v holds nodes", x)
		}
		return nn.Of(x), nil
	case node.EllipsisType:
		return nn.Ellipsis, nil
	case node.Dict:
		return nn.None, fmt.Errorf("dict arguments are not supported by the interpreter")
	case *node.Node:
		return nn.None, fmt.Errorf("node %s is not a constant", x)
	}
	return nn.None, fmt.Errorf("unsupported argument type %T", a)
}

func constSeq(xs []node.Arg) (nn.Value, error) {
	vs := make([]nn.Value, len(xs))
	for i, x := range xs {
		v, err := Constant(x)
		if err != nil {
			return nn.None, err
		}
		vs[i] = v
	}
	return nn.Of(vs), nil
}

// value makes the run-time value of an argument plan.
func (in *Interpreter) value(a *argPlan) (nn.Value, error) {
	switch a.kind {
	case argConst:
		return a.val, nil
	case argNode:
		if a.slot < 0 || !in.live[a.slot] {
			return nn.None, fmt.Errorf("node %s used before it was computed", a.ref)
		}
		return in.env[a.slot], nil
	}
	vs := make([]nn.Value, len(a.elems))
	for i := range a.elems {
		v, err := in.value(&a.elems[i])
		if err != nil {
			return nn.None, err
		}
		vs[i] = v
	}
	if a.kind == argSlice {
		return sliceOf(vs)
	}
	return nn.Of(vs), nil
}

// sliceOf makes the slice of three computed parts (ints or None).
func sliceOf(parts []nn.Value) (v nn.Value, err error) {
	defer nn.Recover(&err)
	return nn.Slice(parts[0].Any(), parts[1].Any(), parts[2].Any()), nil
}

// planOf returns the plan of n: the node being run, or any node of the
// graph (an override may fetch another node's arguments).
func (in *Interpreter) planOf(n *node.Node) (*nodePlan, error) {
	if i := in.cur; i >= 0 && i < len(in.plans) && in.plans[i].n == n {
		return &in.plans[i], nil
	}
	if i, ok := in.index[n]; ok {
		return &in.plans[i], nil
	}
	return nil, fmt.Errorf("node %s is not in the interpreted graph", n)
}
