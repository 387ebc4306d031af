package decomp

import (
	"errors"
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/record"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Decompose replaces, in place, every call_function node of gm's graph
// whose operator has a rule in t by the nodes the rule records, inserted
// where the node was. Rules are traced on symbolic values whose shapes and
// dtypes come from the nodes' val metadata; an operator a rule calls that
// has a rule itself is decomposed too (a rule that calls its own operator
// records it). Every new node gets the replaced node's stack_trace and
// nn_module_stack, and a val computed by the operator's meta function.
// Users of the replaced node (and of its getitem nodes, for several
// results) are rewired to the new nodes, and the replaced nodes are erased.
//
// Nodes to decompose need the val of their inputs; when one is missing,
// vals are computed forward from the placeholders' vals by running meta
// functions (and set on the nodes), in the same single walk over the
// graph. A placeholder without val, or a val with symbolic dims, is an
// error naming the node. changed reports whether any node was replaced.
func Decompose(gm *fx.GraphModule, t Table) (changed bool, err error) {
	if gm == nil || gm.Graph == nil {
		return false, errors.New("decomp.Decompose: nil GraphModule or graph")
	}
	g := gm.Graph
	if !hasWork(g, t) {
		return false, nil
	}
	r := &recorder{g: g, gm: gm, table: t, fake: map[*node.Node]any{}, fakeErr: map[*node.Node]error{},
		active: map[*ops.Operator]int{}}
	r.rec = record.New(g, nil, r)
	r.rec.TypedStrings = true
	for n := g.First(); n != nil; {
		next := n.Next()
		if op := decomposable(n, t); op != nil {
			for next != nil && isGetItemOf(next, n) {
				next = next.Next()
			}
			if err := r.replace(n, op); err != nil {
				return changed, err
			}
			changed = true
		} else if n.Op() != node.Output {
			r.forward(n)
		}
		n = next
	}
	return changed, nil
}

// hasWork reports whether some node of g has a rule in t.
func hasWork(g *graph.Graph, t Table) bool {
	for n := range g.Nodes() {
		if decomposable(n, t) != nil {
			return true
		}
	}
	return false
}

// decomposable returns n's operator if t has a rule for it.
func decomposable(n *node.Node, t Table) *ops.Operator {
	if n.Op() != node.CallFunction {
		return nil
	}
	op, ok := n.Function().(*ops.Operator)
	if !ok {
		return nil
	}
	if _, ok := t.Lookup(op); !ok {
		return nil
	}
	return op
}

func isGetItemOf(u, n *node.Node) bool {
	return u.Op() == node.CallFunction && u.Function() == node.Function(nn.GetItem) && u.NumArgs() == 2 && u.Arg(0) == node.Arg(n)
}

// recorder is decomp's policy for the one recorder (record.Policy): it
// traces rules into the graph in place of the node being replaced,
// computing every new node's fake value (a meta tensor) with the
// operator's meta function, and implements MetaTracer.
type recorder struct {
	record.Defaults
	rec     *record.Recorder
	g       *graph.Graph
	gm      *fx.GraphModule
	table   Table
	fake    map[*node.Node]any // meta tensor, []*tensor.Tensor, []any or a number
	fakeErr map[*node.Node]error
	active  map[*ops.Operator]int
}

// Element gives the getitem node of a tuple element its fake value and
// val, from the tuple's (record.Policy).
func (r *recorder) Element(parent *record.Proxy, index int) (any, node.Value) {
	f, err := r.proxyFake(parent)
	if err != nil {
		return nil, nil
	}
	e, err := fakeIndex(f, index)
	if err != nil {
		return nil, nil
	}
	v, _ := valOf(e)
	return e, v
}

// fakeIndex returns element i of a tuple fake value.
func fakeIndex(f any, i int) (any, error) {
	switch x := f.(type) {
	case []*tensor.Tensor:
		if i >= 0 && i < len(x) {
			return x[i], nil
		}
	case []any:
		if i >= 0 && i < len(x) {
			return x[i], nil
		}
	}
	return nil, fmt.Errorf("cannot take element %d of %T", i, f)
}

// proxyFake returns the fake value of a proxy: the one it was recorded
// with, or its node's.
func (r *recorder) proxyFake(p *record.Proxy) (any, error) {
	if f := record.Data(p); f != nil {
		return f, nil
	}
	return r.fakeOf(p.Node())
}

// valOf describes a fake value as node val metadata.
func valOf(f any) (node.Value, bool) {
	switch x := f.(type) {
	case *tensor.Tensor:
		if x == nil {
			return nil, false
		}
		sh := x.Shape()
		dims := make([]node.Dim, len(sh))
		for i, s := range sh {
			dims[i] = node.Dim{Size: int64(s)}
		}
		return node.TensorMeta{DType: node.DType(x.DType().String()), Shape: dims}, true
	case []*tensor.Tensor:
		out := make(node.ValueTuple, len(x))
		for i, t := range x {
			v, ok := valOf(t)
			if !ok {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	case []any:
		out := make(node.ValueTuple, len(x))
		for i, e := range x {
			v, ok := valOf(e)
			if !ok {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	}
	return nil, false
}

// fakeOfVal builds a fake value (contiguous meta tensors) from val
// metadata.
func fakeOfVal(n *node.Node, v node.Value) (any, error) {
	switch x := v.(type) {
	case node.TensorMeta:
		dt, err := tensor.ParseDType(string(x.DType))
		if err != nil {
			return nil, fmt.Errorf("node %s: val dtype %q: %w", n.Name(), x.DType, err)
		}
		sizes := make([]int, len(x.Shape))
		for i, d := range x.Shape {
			if d.Sym != "" {
				return nil, fmt.Errorf("node %s: val %s has a symbolic dim %s: decomp does not decompose graphs with symbolic shapes yet", n.Name(), x, d.Sym)
			}
			sizes[i] = int(d.Size)
		}
		return tensor.NewMeta(dt, sizes...)
	case node.ValueTuple:
		out := make([]*tensor.Tensor, len(x))
		for i, e := range x {
			f, err := fakeOfVal(n, e)
			if err != nil {
				return nil, err
			}
			t, ok := f.(*tensor.Tensor)
			if !ok {
				return nil, fmt.Errorf("node %s: val element %d is not a tensor", n.Name(), i)
			}
			out[i] = t
		}
		return out, nil
	}
	return nil, fmt.Errorf("node %s: val %v (%T) is not a tensor description", n.Name(), v, v)
}

// fakeOf returns n's fake value: recorded, from its val, or the error that
// prevented computing it.
func (r *recorder) fakeOf(n *node.Node) (any, error) {
	if f, ok := r.fake[n]; ok {
		return f, nil
	}
	if err, ok := r.fakeErr[n]; ok {
		return nil, err
	}
	if v, ok := node.Val.Get(&n.Meta); ok {
		f, err := fakeOfVal(n, v)
		if err != nil {
			r.fakeErr[n] = err
			return nil, err
		}
		r.fake[n] = f
		return f, nil
	}
	if n.Op() == node.Placeholder {
		err := fmt.Errorf("placeholder %s has no val: give every input a val (dtype and shape) before decomposing", n.Name())
		r.fakeErr[n] = err
		return nil, err
	}
	err := fmt.Errorf("node %s has no val", n.Name())
	r.fakeErr[n] = err
	return nil, err
}

// forward computes the fake value of a node that has no val from its
// inputs (meta functions; modules and methods run on meta tensors) and
// sets its val. Failures are kept and reported only if a decomposition
// needs the value.
func (r *recorder) forward(n *node.Node) {
	if _, ok := node.Val.Get(&n.Meta); ok || n.Op() == node.Placeholder {
		return
	}
	f, err := r.computeFake(n)
	if err != nil {
		r.fakeErr[n] = fmt.Errorf("node %s: computing its val: %w", n.Name(), err)
		return
	}
	f = metaOnly(f)
	r.fake[n] = f
	if v, ok := valOf(f); ok {
		node.Val.Set(&n.Meta, v)
	}
}

func (r *recorder) computeFake(n *node.Node) (any, error) {
	args := make([]nn.Value, n.NumArgs())
	for i := range args {
		v, err := r.fakeArg(n.Arg(i))
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	var kwargs map[string]nn.Value
	for _, f := range n.Kwargs() {
		if kwargs == nil {
			kwargs = map[string]nn.Value{}
		}
		v, err := r.fakeArg(f.Value)
		if err != nil {
			return nil, err
		}
		kwargs[f.Name] = v
	}
	var out nn.Value
	var err error
	switch n.Op() {
	case node.GetAttr:
		out, err = nn.AttrValue(r.gm, n.Target().String())
	case node.CallFunction:
		out, err = nn.ApplyFunction(n.Function(), args, kwargs)
	case node.CallMethod:
		out, err = nn.ApplyMethod(n.Target().String(), args, kwargs)
	case node.CallModule:
		var m nn.Module
		m, err = nn.Submodule(r.gm, n.Target().String())
		if err == nil {
			out, err = nn.Run(m, args...)
		}
	default:
		return nil, fmt.Errorf("unexpected opcode %s", n.Op())
	}
	if err != nil {
		return nil, err
	}
	return out.Raw(), nil
}

// metaOnly replaces real tensors by meta tensors (a factory function's
// result, an attribute).
func metaOnly(f any) any {
	switch x := f.(type) {
	case *tensor.Tensor:
		if x != nil && !x.IsMeta() {
			return x.Meta()
		}
	case []*tensor.Tensor:
		out := make([]*tensor.Tensor, len(x))
		for i, t := range x {
			out[i] = metaOnly(t).(*tensor.Tensor)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = metaOnly(e)
		}
		return out
	}
	return f
}

// fakeArg converts a node argument to a Value holding fake values.
func (r *recorder) fakeArg(a node.Arg) (nn.Value, error) {
	switch x := a.(type) {
	case *node.Node:
		f, err := r.fakeOf(x)
		if err != nil {
			return nn.None, err
		}
		return nn.Of(f), nil
	case node.List:
		return r.fakeSeq(x)
	case node.Tuple:
		return r.fakeSeq(x)
	}
	return interp.Constant(a)
}

func (r *recorder) fakeSeq(xs []node.Arg) (nn.Value, error) {
	vs := make([]nn.Value, len(xs))
	for i, x := range xs {
		v, err := r.fakeArg(x)
		if err != nil {
			return nn.None, err
		}
		vs[i] = v
	}
	return nn.Of(vs), nil
}

// symArg converts a node argument of the node being replaced to the Go
// value a rule receives: nodes become proxies.
func (r *recorder) symArg(a node.Arg) (any, error) {
	switch x := a.(type) {
	case *node.Node:
		f, err := r.fakeOf(x)
		if err != nil {
			return nil, err
		}
		return r.rec.NewProxy(x, f), nil
	case node.List:
		return r.symSeq(x)
	case node.Tuple:
		return r.symSeq(x)
	}
	v, err := interp.Constant(a)
	if err != nil {
		return nil, err
	}
	return v.Raw(), nil
}

func (r *recorder) symSeq(xs []node.Arg) (any, error) {
	out := make([]any, len(xs))
	for i, x := range xs {
		v, err := r.symArg(x)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// replace decomposes node n (operator op).
func (r *recorder) replace(n *node.Node, op *ops.Operator) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("decomp: node %s (%s): %w", n.Name(), op, err)
		}
	}()
	args := make([]any, n.NumArgs())
	for i := range args {
		if args[i], err = r.symArg(n.Arg(i)); err != nil {
			return err
		}
	}
	var kwargs map[string]any
	for _, f := range n.Kwargs() {
		if kwargs == nil {
			kwargs = map[string]any{}
		}
		if kwargs[f.Name], err = r.symArg(f.Value); err != nil {
			return err
		}
	}
	defer r.g.InsertingBefore(n)()
	r.rec.Source = n
	defer func() { r.rec.Source = nil }()
	res, err := r.runRule(op, args, kwargs)
	if err != nil {
		return err
	}
	if len(op.Schema().Returns) == 1 {
		if p, ok := res[0].(*record.Proxy); ok {
			return r.substitute(n, p)
		}
	}
	return r.substituteTuple(n, op, res)
}

// runRule places the arguments and runs op's rule on them.
func (r *recorder) runRule(op *ops.Operator, args []any, kwargs map[string]any) ([]any, error) {
	rule, _ := r.table.Lookup(op)
	placed, err := op.Place(args, kwargs)
	if err != nil {
		return nil, err
	}
	vals, err := values(op, placed)
	if err != nil {
		return nil, err
	}
	r.active[op]++
	res, err := rule(vals)
	r.active[op]--
	if err != nil {
		return nil, err
	}
	return unpack(op, res)
}

// substitute makes p's node replace n.
func (r *recorder) substitute(n *node.Node, p *record.Proxy) error {
	repl := p.Node()
	if err := r.checkVal(n, repl); err != nil {
		return err
	}
	if repl != n {
		if _, err := n.ReplaceAllUsesWith(repl, nil, false); err != nil {
			return err
		}
	}
	return r.g.EraseNode(n)
}

// substituteTuple replaces a node with several results (or a list): each
// getitem user by the corresponding result's node, any other use by the
// node whose whole result the tuple is.
func (r *recorder) substituteTuple(n *node.Node, op *ops.Operator, res []any) error {
	elems := res
	if len(op.Schema().Returns) == 1 {
		l, ok := res[0].([]any)
		if !ok {
			return fmt.Errorf("the rule returned %T, not a symbolic value", res[0])
		}
		elems = l
	}
	ps := make([]*record.Proxy, len(elems))
	for i, e := range elems {
		p, ok := e.(*record.Proxy)
		if !ok {
			return fmt.Errorf("result %d of the rule is %T, not a symbolic value (a rule must compute its results from its arguments)", i, e)
		}
		ps[i] = p
	}
	whole := record.WholeTuple(ps)
	for _, u := range n.Users() {
		if isGetItemOf(u, n) {
			i, ok := u.Arg(1).(node.Int)
			if !ok || int(i) < 0 || int(i) >= len(ps) {
				return fmt.Errorf("user %s indexes the result with %v", u.Name(), u.Arg(1))
			}
			repl := ps[i].Node()
			if err := r.checkVal(u, repl); err != nil {
				return err
			}
			if _, err := u.ReplaceAllUsesWith(repl, nil, false); err != nil {
				return err
			}
			if err := r.g.EraseNode(u); err != nil {
				return err
			}
			continue
		}
		if whole == nil {
			return fmt.Errorf("user %s uses the whole tuple result, which the rule did not compute as one node", u.Name())
		}
		if _, err := n.ReplaceAllUsesWith(whole, func(x *node.Node) bool { return x == u }, false); err != nil {
			return err
		}
	}
	return r.g.EraseNode(n)
}

// checkVal verifies that the replacement computes what the node's val says.
func (r *recorder) checkVal(n, repl *node.Node) error {
	want, ok := node.Val.Get(&n.Meta)
	if !ok {
		return nil
	}
	got, ok := node.Val.Get(&repl.Meta)
	if !ok {
		return nil
	}
	if got.String() != want.String() {
		return fmt.Errorf("the decomposition computes %s (node %s), but the node's val is %s", got, repl.Name(), want)
	}
	return nil
}

// Operator records an operator call with its fake result, or decomposes
// it when the table has a rule for it (record.Policy).
func (r *recorder) Operator(rec *record.Recorder, op *ops.Operator, args []any, kwargs map[string]any) ([]any, error) {
	if _, ok := r.table.Lookup(op); ok && r.active[op] == 0 {
		return r.runRule(op, args, kwargs)
	}
	nargs, kw, err := rec.OpArgs(op, args, kwargs)
	if err != nil {
		return nil, err
	}
	fargs := make([]any, len(args))
	for i, a := range args {
		if fargs[i], err = r.fakeValue(a); err != nil {
			return nil, err
		}
	}
	var fkw map[string]any
	for k, v := range kwargs {
		if fkw == nil {
			fkw = map[string]any{}
		}
		if fkw[k], err = r.fakeValue(v); err != nil {
			return nil, err
		}
	}
	out, err := op.Call(fargs, fkw)
	if err != nil {
		return nil, err
	}
	var f any = out
	if len(op.Schema().Returns) == 1 && len(out) == 1 {
		f = out[0]
	}
	f = metaOnly(f)
	val, _ := valOf(f)
	n, err := rec.Create(node.CallFunction, op, nargs, kw, "", val)
	if err != nil {
		return nil, err
	}
	r.fake[n] = f
	return rec.Results(op, rec.NewProxy(n, f)), nil
}

// Constant refuses concrete tensors (record.Policy).
func (r *recorder) Constant(*record.Recorder, *tensor.Tensor) (node.Arg, error) {
	return nil, errors.New("a concrete tensor: a rule must not create tensor constants (use a factory operator through the input's tracer)")
}

// fakeValue converts a value a rule passed to an operator into the value
// its meta function receives.
func (r *recorder) fakeValue(v any) (any, error) {
	switch x := v.(type) {
	case nn.Value:
		return r.fakeValue(x.Raw())
	case *record.Proxy:
		return r.proxyFake(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			f, err := r.fakeValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = f
		}
		return out, nil
	}
	return v, nil
}

// TensorMeta returns the meta tensor a proxy stands for (MetaTracer,
// through the recorder).
func (r *recorder) TensorMeta(p *record.Proxy) (*tensor.Tensor, bool) {
	f, err := r.proxyFake(p)
	if err != nil {
		return nil, false
	}
	t, ok := f.(*tensor.Tensor)
	return t, ok && t != nil
}

// Function answers getattr(x, "shape"/"dtype"/"ndim") from the fake
// value and records operator.getitem as a lazy tuple element
// (record.Policy).
func (r *recorder) Function(rec *record.Recorder, fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	switch fn {
	case node.Function(nn.GetAttr):
		if len(args) != 2 {
			return nn.None, errors.New("builtins.getattr takes 2 arguments")
		}
		s, _ := args[0].Symbolic()
		p, ok := s.(*record.Proxy)
		if !ok {
			return nn.None, fmt.Errorf("builtins.getattr of %s", args[0].Kind())
		}
		f, err := r.proxyFake(p)
		if err != nil {
			return nn.None, err
		}
		return nn.ApplyFunction(nn.GetAttr, []nn.Value{nn.Of(f), args[1]}, nil)
	case node.Function(nn.GetItem):
		if len(args) != 2 || args[1].Kind() != "int" {
			return nn.None, errors.New("operator.getitem takes a value and an int index")
		}
		s, _ := args[0].Symbolic()
		p, ok := s.(*record.Proxy)
		if !ok {
			return nn.None, fmt.Errorf("operator.getitem of %s", args[0].Kind())
		}
		return nn.Of(rec.Element(p, int(args[1].Int()))), nil
	}
	return nn.None, fmt.Errorf("decomp: a rule called %s on a symbolic value; rules compute with operators, getattr and getitem only", fn)
}

// Method refuses tensor methods: rules call operators (record.Policy).
func (r *recorder) Method(_ *record.Recorder, name string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	return nn.None, fmt.Errorf("decomp: a rule called the tensor method %s; rules call aten operators (nn.CallOp) so that the graph holds call_function nodes only", name)
}

// Module refuses module calls (record.Policy).
func (r *recorder) Module(_ *record.Recorder, m nn.Module, args []nn.Value, forward func() (nn.Value, error)) (nn.Value, error) {
	return nn.None, fmt.Errorf("decomp: a rule called a %s module; rules call aten operators", m.ModuleBase().TypeName())
}

// DataDependent is the error for a rule that needs data from a symbolic
// value: a *fx.TraceError (record.Policy).
func (r *recorder) DataDependent(what, where string) error {
	return &fx.TraceError{What: what, Location: where, Tracer: "decomp"}
}
