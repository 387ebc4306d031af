package export

import (
	"fmt"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/internal/record"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
)

// RunDecompositions returns a new program in which every operator that
// table (together with decomp.Core()) decomposes is replaced by its
// decomposition, as torch.export's run_decompositions: the graph is
// re-traced node by node through the same fake tensors and symbols, each
// new node keeping the stack_trace and nn_module_stack of the node it
// comes from. The signature, state and constraints carry over (output
// names follow the new graph). decomp.Extra() gives PyTorch 1.13's finer
// decompositions (batch norm, gelu and softmax into elementwise
// operators).
//
// On a program loaded from a .pt2 file, a number given for a Tensor
// parameter (aten.mul.Tensor(x, 0.5)) stays a wrapped number of the same
// overload, as in PyTorch, and in-place writes of buffers and user inputs (PyTorch 2.x's
// training IR keeps aten.add_ on b_calls) are functionalized as
// run_decompositions does: the functional operator is recorded and the
// written input's new value becomes a BUFFER_MUTATION or
// USER_INPUT_MUTATION output.
//
// A program that calls higher-order operators (cond, while_loop,
// map_impl) keeps their nodes, their operands and the getitem nodes
// reading their results; each subgraph (Subgraphs, nested ones included)
// is decomposed in the same way, under the same name, as PyTorch's
// run_decompositions decomposes the branch and body graphs.
func (ep *ExportedProgram) RunDecompositions(table decomp.Table) (*ExportedProgram, error) {
	if err := ep.checkInPlaceParameters(); err != nil {
		return nil, err
	}
	r := newRecorder(emptyModule(), ep.Env, decomp.Core().With(table))
	r.keepConds = true
	vals := map[*node.Node]any{}
	// The placeholders' proxies and nodes: an in-place write rebinds a
	// proxy to the written value.
	type input struct {
		px *record.Proxy
		n  *node.Node
	}
	inputs := map[string]input{}
	var outArg node.Arg
	var mutationSpecs []OutputSpec
	var err error
	for n := range ep.Graph.Nodes() {
		r.rec.Source = n
		switch n.Op() {
		case node.Placeholder:
			f, ok := fakeOf(n)
			if !ok {
				// A specialized input with a placeholder (a loaded program's
				// constant input) keeps it, and the value flows on.
				if v, isConst := ep.constantInput(n.Name()); isConst {
					if _, err := r.rec.Create(node.Placeholder, node.Path(n.Name()), nil, nil, n.Name(), nil); err != nil {
						return nil, err
					}
					vals[n] = v.Raw()
					continue
				}
				return nil, fmt.Errorf("export: RunDecompositions: placeholder %s has no tensor val", n.Name())
			}
			p, err := r.placeholder(n.Name(), f)
			if err != nil {
				return nil, err
			}
			vals[n] = p
			inputs[n.Name()] = input{p, p.Node()}
		case node.GetAttr:
			v, err := r.replayGetAttr(n)
			if err != nil {
				return nil, fmt.Errorf("export: RunDecompositions: node %s: %w", n.Name(), err)
			}
			vals[n] = v
		case node.CallFunction:
			res, err := r.replayNode(n, vals)
			if err != nil {
				return nil, fmt.Errorf("export: RunDecompositions: node %s: %w", n.Name(), err)
			}
			vals[n] = res
		case node.Output:
			outArg, err = r.outputArg(mapArg(n.Arg(0), vals))
			if err != nil {
				return nil, fmt.Errorf("export: RunDecompositions: output: %w", err)
			}
			// Inputs written in place become mutation outputs, first
			// the buffers, then the user inputs, in input order, before
			// the outputs the program had.
			var muts node.Tuple
			var specs []OutputSpec
			for _, kind := range []InputKind{Buffer, UserInput} {
				for _, in := range ep.Signature.Inputs {
					v, ok := inputs[in.Name]
					if in.Kind != kind || !ok || v.px.Node() == v.n {
						continue
					}
					muts = append(muts, v.px.Node())
					spec := OutputSpec{Kind: BufferMutation, Name: v.px.Node().Name(), Target: in.Target}
					if kind == UserInput {
						spec = OutputSpec{Kind: UserInputMutation, Name: v.px.Node().Name(), Target: in.Name}
					}
					specs = append(specs, spec)
				}
			}
			if len(muts) > 0 {
				outArg = append(muts, outArg.(node.Tuple)...)
				mutationSpecs = specs
			}
		default:
			return nil, fmt.Errorf("export: RunDecompositions: unexpected %s node %s in an exported graph", n.Op(), n.Name())
		}
	}
	r.rec.Source = nil
	if _, err := r.rec.Create(node.Output, node.Path("output"), []node.Arg{outArg}, nil, "", nil); err != nil {
		return nil, err
	}
	g := r.rec.Graph()
	g.EliminateDeadCode()
	if err := verifyDecomposed(g, r.table); err != nil {
		return nil, fmt.Errorf("export: RunDecompositions: the graph is not core ATen: %w", err)
	}
	subs, err := ep.decomposeSubgraphs(ep.subgraphs, table, "")
	if err != nil {
		return nil, err
	}
	out := *ep
	out.Graph = g
	out.marks = newMarkCache()
	out.subgraphs = subs
	out.Signature.Outputs = append(mutationSpecs, ep.Signature.Outputs...)
	results := outArg.(node.Tuple)
	for i := range out.Signature.Outputs {
		if n, ok := results[i].(*node.Node); ok {
			out.Signature.Outputs[i].Name = n.Name()
		}
	}
	return &out, nil
}

// fakeOf returns a node's val as a fake tensor.
func fakeOf(n *node.Node) (*shapeprop.Fake, bool) {
	v, ok := node.Val.Get(&n.Meta)
	if !ok {
		return nil, false
	}
	f, ok := v.(*shapeprop.Fake)
	return f, ok
}

func mapArgs(n *node.Node, vals map[*node.Node]any) ([]any, map[string]any) {
	args := make([]any, n.NumArgs())
	for i := range args {
		args[i] = mapArg(n.Arg(i), vals)
	}
	var kw map[string]any
	if ks := n.Kwargs(); len(ks) > 0 {
		kw = make(map[string]any, len(ks))
		for _, f := range ks {
			kw[f.Name] = mapArg(f.Value, vals)
		}
	}
	return args, kw
}

// mapArg turns a node argument into the value the replay computes with.
func mapArg(a node.Arg, vals map[*node.Node]any) any {
	switch x := a.(type) {
	case *node.Node:
		return vals[x]
	case node.List:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = mapArg(e, vals)
		}
		return out
	case node.Tuple:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = mapArg(e, vals)
		}
		return out
	}
	v, err := interp.Constant(a)
	if err != nil {
		return err
	}
	return v.Raw()
}

// replay re-traces one call_function node.
func (r *recorder) replay(n *node.Node, args []any, kwargs map[string]any) (any, error) {
	switch fn := n.Function().(type) {
	case *ops.Operator:
		if fn.String() == "aten._assert_scalar.default" && len(args) > 0 {
			if sp, ok := args[0].(*sproxy); ok && sp.cond != nil {
				if err := r.assertHolds(*sp.cond); err != nil {
					return nil, err
				}
				// Recorded as it is: the comparison's node and the
				// message (no result, nothing to infer).
				nargs := []node.Arg{sp.n}
				for _, a := range args[1:] {
					s, ok := a.(string)
					if !ok {
						return nil, fmt.Errorf("_assert_scalar's message is %T, not a string", a)
					}
					nargs = append(nargs, node.Str(s))
				}
				_, err := r.rec.Create(node.CallFunction, fn, nargs, nil, "", nil)
				return nil, err
			}
		}
		out, err := r.Operator(r.rec, fn, args, kwargs)
		if err != nil {
			return nil, err
		}
		if len(out) == 1 {
			return out[0], nil
		}
		return out, nil
	default:
		if fn == nn.GetItem {
			seq, ok := args[0].([]any)
			i, ok2 := args[1].(int64)
			if !ok || !ok2 || i < 0 || int(i) >= len(seq) {
				return nil, fmt.Errorf("getitem of %T", args[0])
			}
			return seq[i], nil
		}
		vs := make([]nn.Value, len(args))
		for i, a := range args {
			vs[i] = nn.Of(a)
		}
		v, err := r.Function(r.rec, fn, vs, nil)
		if err != nil {
			return nil, err
		}
		return v.Raw(), nil
	}
}

// outputArg converts the replayed output back into node arguments.
func (r *recorder) outputArg(v any) (node.Arg, error) {
	switch x := v.(type) {
	case []any:
		out := make(node.Tuple, len(x))
		for i, e := range x {
			a, err := r.outputArg(e)
			if err != nil {
				return nil, err
			}
			out[i] = a
		}
		return out, nil
	}
	return r.rec.Arg(v)
}

// checkInPlaceParameters refuses a program whose graph writes a
// parameter in place: only buffers and inputs may be mutated.
func (ep *ExportedProgram) checkInPlaceParameters() error {
	params := map[string]bool{}
	for _, in := range ep.Signature.Inputs {
		if in.Kind == Parameter {
			params[in.Name] = true
		}
	}
	for n := range ep.Graph.Nodes() {
		op, ok := n.Function().(*ops.Operator)
		if n.Op() != node.CallFunction || !ok || !op.Has(ops.Mutable) || n.NumArgs() == 0 {
			continue
		}
		if in, ok := n.Arg(0).(*node.Node); ok && in.Op() == node.Placeholder && params[in.Name()] {
			return fmt.Errorf("export: RunDecompositions: node %s (%s) writes the parameter %s in place: only buffers and inputs may be mutated", n.Name(), op, in.Name())
		}
	}
	return nil
}

// assertHolds checks an _assert_scalar's condition when the replay has
// made it a comparison of constants (2.6 programs assert
// Eq(Mod(2*d, 2), 0) on a derived dim, which gofx's symbols simplify to
// Eq(0, 0)): a false one is the program's assertion failing. A true one is
// kept, as PyTorch's run_decompositions keeps it, with the nodes that
// compute it; any other condition (u0 >= 0 on a value read from data) is
// recorded as it is.
func (r *recorder) assertHolds(c sym.Cond) error {
	l, rr := r.env.Simplify(c.L), r.env.Simplify(c.R)
	lv, lok := l.Const()
	rv, rok := rr.Const()
	if !lok || !rok {
		return nil
	}
	holds, err := sym.Cond{Rel: c.Rel, L: sym.Const(lv), R: sym.Const(rv)}.Eval(nil)
	if err != nil {
		return err
	}
	if !holds {
		return fmt.Errorf("the assertion %s fails", c)
	}
	return nil
}
