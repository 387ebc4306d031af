package shapeprop

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// isHOP reports whether fn is one of the higher-order operators.
func isHOP(fn node.Function) bool {
	return fn == nn.CondOp || fn == nn.WhileLoopOp || fn == nn.MapImplOp
}

// hopName is how errors name a higher-order operator.
func hopName(fn node.Function) string {
	if f, ok := fn.(*node.Func); ok {
		return f.PythonName()
	}
	return fn.String()
}

// subgraphOf returns the GraphModule a higher-order operator's graph
// argument holds, and how errors name it ("true branch true_graph_0").
func subgraphOf(fn node.Function, what string, v nn.Value) (*fx.GraphModule, string, error) {
	gm, ok := v.Module().(*fx.GraphModule)
	if !ok {
		return nil, "", fmt.Errorf("%s: %s must be a graph (a get_attr of a GraphModule), got %s", hopName(fn), what, v.Kind())
	}
	if p := v.ModulePath(); p != "" {
		what += " " + p
	}
	return gm, what, nil
}

// --- Propagate ---------------------------------------------------------

// recording is a GraphModule whose calls run through Propagate, so that
// the nodes of a higher-order operator's branch or body record their
// metadata too.
type recording struct {
	nn.Base
	gm *fx.GraphModule
}

// Forward runs the graph with Propagate.
func (r *recording) Forward(args ...nn.Value) nn.Value {
	out, err := Propagate(r.gm, args...)
	if err != nil {
		nn.Fail(err)
	}
	return out
}

// CallFunction runs a higher-order operator with its graph arguments
// recording their nodes' metadata (the branch cond takes, every iteration
// of a loop body, every slice of a map); other functions as the
// interpreter does.
func (p *concreteProp) CallFunction(n *node.Node, target node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if isHOP(target) {
		wrapped := make([]nn.Value, len(args))
		for i, a := range args {
			wrapped[i] = a
			if gm, ok := a.Module().(*fx.GraphModule); ok {
				r := &recording{gm: gm}
				r.Init(r, "GraphModule")
				wrapped[i] = nn.ModuleAt(r, a.ModulePath())
			}
		}
		args = wrapped
	}
	return p.Interpreter.CallFunction(n, target, args, kwargs)
}

// --- FakeProp ----------------------------------------------------------

// runSub runs a subgraph on fake values with a FakeProp run of its own
// (recording node.Val on its nodes) in p's environment.
func (p *fakeProp) runSub(gm *fx.GraphModule, args []nn.Value) ([]nn.Value, error) {
	sub := &fakeProp{Interpreter: interp.New(gm.Graph, gm), env: p.env, h: p.h}
	sub.Steps = sub
	in := make([]nn.Value, len(args))
	for i, a := range args {
		in[i] = sub.rebind(a)
	}
	out, err := sub.Run(in...)
	if err != nil {
		return nil, err
	}
	if out.IsTuple() {
		return out.Tuple(), nil
	}
	return []nn.Value{out}, nil
}

// rebind makes v's fake values values of run p.
func (p *fakeProp) rebind(v nn.Value) nn.Value {
	switch x := v.Any().(type) {
	case *fakeTensor:
		return nn.Of(&fakeTensor{f: x.f, p: p})
	case *symInt:
		return p.wrapExpr(x.e)
	case *tensor.Tensor:
		return nn.Of(&fakeTensor{f: FakeOf(x), p: p})
	case []nn.Value:
		out := make([]nn.Value, len(x))
		for i, e := range x {
			out[i] = p.rebind(e)
		}
		return nn.Tuple(out...)
	}
	return v
}

// hop runs a higher-order operator on fakes.
func (p *fakeProp) hop(target node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if len(kwargs) > 0 {
		return nn.None, fmt.Errorf("%s: keyword arguments are not supported on fakes", hopName(target))
	}
	switch target {
	case nn.CondOp:
		return p.cond(args)
	case nn.WhileLoopOp:
		return p.whileLoop(args)
	}
	return p.mapImpl(args)
}

func tupleArg(fn node.Function, what string, v nn.Value) ([]nn.Value, error) {
	if !v.IsTuple() {
		return nil, fmt.Errorf("%s: %s must be a tuple or list, got %s", hopName(fn), what, v.Kind())
	}
	return v.Tuple(), nil
}

// fakePred returns a predicate's value: known (a bool), or unknown (a
// fake bool tensor, a symbolic condition). A fake tensor must be a bool of
// one element.
func fakePred(fn node.Function, what string, v nn.Value) (value, known bool, err error) {
	switch x := v.Any().(type) {
	case bool:
		return x, true, nil
	case *fakeTensor:
		if x.f.DType != tensor.Bool {
			return false, false, fmt.Errorf("%s: %s must be a bool or a one-element bool tensor, got a %s tensor %s", hopName(fn), what, x.f.DType, x.f)
		}
		for _, d := range x.f.Shape {
			if c, ok := d.Const(); !ok || c != 1 {
				return false, false, fmt.Errorf("%s: %s must be a bool or a one-element bool tensor, got a bool tensor of shape %s", hopName(fn), what, x.f)
			}
		}
		return false, false, nil
	case *tensor.Tensor:
		b, err := nn.Truth(fn, what, v)
		return b, err == nil, err
	}
	if v.IsSymbolic() {
		return false, false, nil
	}
	return false, false, fmt.Errorf("%s: %s must be a bool or a one-element bool tensor, got %s", hopName(fn), what, v.Kind())
}

// cond propagates both branches; the result is their common output (the
// taken branch's when pred is known).
func (p *fakeProp) cond(args []nn.Value) (nn.Value, error) {
	fn := nn.CondOp
	if len(args) != 4 {
		return nn.None, fmt.Errorf("%s takes 4 arguments (pred, true_fn, false_fn, operands), got %d", hopName(fn), len(args))
	}
	pred, known, err := fakePred(fn, "pred", args[0])
	if err != nil {
		return nn.None, err
	}
	tg, tname, err := subgraphOf(fn, "true branch", args[1])
	if err != nil {
		return nn.None, err
	}
	fg, fname, err := subgraphOf(fn, "false branch", args[2])
	if err != nil {
		return nn.None, err
	}
	ops, err := tupleArg(fn, "operands", args[3])
	if err != nil {
		return nn.None, err
	}
	tout, err := p.runSub(tg, ops)
	if err != nil {
		return nn.None, fmt.Errorf("%s: %s: %w", hopName(fn), tname, err)
	}
	fout, err := p.runSub(fg, ops)
	if err != nil {
		return nn.None, fmt.Errorf("%s: %s: %w", hopName(fn), fname, err)
	}
	if known {
		if pred {
			return p.rebind(nn.Tuple(tout...)), nil
		}
		return p.rebind(nn.Tuple(fout...)), nil
	}
	if len(tout) != len(fout) {
		return nn.None, fmt.Errorf("%s: the branches return different numbers of values: %s %d, %s %d", hopName(fn), tname, len(tout), fname, len(fout))
	}
	out := make([]nn.Value, len(tout))
	for i := range tout {
		d := p.fakeDiffers(tout[i], fout[i])
		if d == "" && !p.leaksUnbacked(tout[i], fout[i]) {
			out[i] = tout[i]
			continue
		}
		// Sizes that differ (or unbacked sizes of a branch) merge into
		// fresh unbacked sizes, as PyTorch's cond does; dtype, rank or
		// kind that differ are errors.
		ft, aok := unwrap(tout[i]).(*Fake)
		ff, bok := unwrap(fout[i]).(*Fake)
		if !aok || !bok {
			return nn.None, fmt.Errorf("%s: output %d differs between the branches: %s (%s) vs %s (%s)", hopName(fn), i, tname, d, fname, p.describe(fout[i]))
		}
		m, _, err := MergeBranches(p.env, ft, ff)
		if err != nil {
			return nn.None, fmt.Errorf("%s: output %d differs between the branches: %s (%s) vs %s (%s): %w", hopName(fn), i, tname, d, fname, p.describe(fout[i]), err)
		}
		out[i] = nn.Of(&fakeTensor{f: m, p: p})
	}
	return p.rebind(nn.Tuple(out...)), nil
}

// leaksUnbacked reports whether a branch output a or b is a tensor with
// an unbacked size (made inside the branch or not): PyTorch's cond gives
// the result a fresh unbacked size there.
func (p *fakeProp) leaksUnbacked(a, b nn.Value) bool {
	for _, v := range []nn.Value{a, b} {
		if f, ok := unwrap(v).(*Fake); ok {
			for _, d := range f.Shape {
				if hasUnbacked(p.env.Simplify(d)) {
					return true
				}
			}
		}
	}
	return false
}

// describe spells a fake value for messages.
func (p *fakeProp) describe(v nn.Value) string {
	switch x := unwrap(v).(type) {
	case *Fake:
		return x.String()
	case sym.Expr:
		return "Sym(" + x.String() + ")"
	}
	return v.Kind()
}

// fakeDiffers says how b differs from a in kind, dtype or (symbolic)
// shape: "" if it does not, else a's spelling.
func (p *fakeProp) fakeDiffers(a, b nn.Value) string {
	fa, aok := unwrap(a).(*Fake)
	fb, bok := unwrap(b).(*Fake)
	if !aok || !bok {
		if aok != bok {
			return p.describe(a)
		}
		return ""
	}
	if fa.DType != fb.DType || len(fa.Shape) != len(fb.Shape) {
		return fa.String()
	}
	for i := range fa.Shape {
		if !p.env.Simplify(fa.Shape[i]).Equal(p.env.Simplify(fb.Shape[i])) {
			return fa.String()
		}
	}
	return ""
}

// whileLoop propagates cond_fn and body_fn once on the carried values,
// which the body must give back with the same dtype and shape; the result
// is the carried values (loop-invariant shapes).
func (p *fakeProp) whileLoop(args []nn.Value) (nn.Value, error) {
	fn := nn.WhileLoopOp
	if len(args) != 4 {
		return nn.None, fmt.Errorf("%s takes 4 arguments (cond_fn, body_fn, carried_inputs, additional_inputs), got %d", hopName(fn), len(args))
	}
	cg, cname, err := subgraphOf(fn, "cond_fn", args[0])
	if err != nil {
		return nn.None, err
	}
	bg, bname, err := subgraphOf(fn, "body_fn", args[1])
	if err != nil {
		return nn.None, err
	}
	carried, err := tupleArg(fn, "carried_inputs", args[2])
	if err != nil {
		return nn.None, err
	}
	extra, err := tupleArg(fn, "additional_inputs", args[3])
	if err != nil {
		return nn.None, err
	}
	in := append(append([]nn.Value(nil), carried...), extra...)
	pout, err := p.runSub(cg, in)
	if err != nil {
		return nn.None, fmt.Errorf("%s: %s: %w", hopName(fn), cname, err)
	}
	if len(pout) != 1 {
		return nn.None, fmt.Errorf("%s: %s returns %d values, expected one bool", hopName(fn), cname, len(pout))
	}
	if _, _, err := fakePred(fn, cname+"'s result", pout[0]); err != nil {
		return nn.None, err
	}
	out, err := p.runSub(bg, in)
	if err != nil {
		return nn.None, fmt.Errorf("%s: %s: %w", hopName(fn), bname, err)
	}
	if len(out) != len(carried) {
		return nn.None, fmt.Errorf("%s: %s returns %d values, expected the %d carried values", hopName(fn), bname, len(out), len(carried))
	}
	for i := range out {
		if d := p.fakeDiffers(carried[i], out[i]); d != "" {
			return nn.None, fmt.Errorf("%s: %s changes carried value %d: %s became %s (carried values must keep their dtype and shape)", hopName(fn), bname, i, d, p.describe(out[i]))
		}
	}
	return p.rebind(nn.Tuple(carried...)), nil
}

// mapImpl propagates the body on one slice of the mapped tensors; each
// output gains their common leading dim.
func (p *fakeProp) mapImpl(args []nn.Value) (nn.Value, error) {
	fn := nn.MapImplOp
	if len(args) != 3 {
		return nn.None, fmt.Errorf("%s takes 3 arguments (f, xs, pos_args), got %d", hopName(fn), len(args))
	}
	bg, bname, err := subgraphOf(fn, "body_fn", args[0])
	if err != nil {
		return nn.None, err
	}
	xs, err := tupleArg(fn, "xs", args[1])
	if err != nil {
		return nn.None, err
	}
	extra, err := tupleArg(fn, "pos_args", args[2])
	if err != nil {
		return nn.None, err
	}
	if len(xs) == 0 {
		return nn.None, fmt.Errorf("%s: xs is empty: there is nothing to map over", hopName(fn))
	}
	var lead sym.Expr
	in := make([]nn.Value, 0, len(xs)+len(extra))
	for i, x := range xs {
		f, ok := unwrap(x).(*Fake)
		if !ok {
			return nn.None, fmt.Errorf("%s: xs[%d] must be a tensor, got %s", hopName(fn), i, x.Kind())
		}
		if len(f.Shape) == 0 {
			return nn.None, fmt.Errorf("%s: xs[%d] is a 0-d tensor, which has no leading dim to map over", hopName(fn), i)
		}
		d := p.env.Simplify(f.Shape[0])
		if i == 0 {
			lead = d
		} else if !d.Equal(lead) {
			return nn.None, fmt.Errorf("%s: the mapped tensors' leading sizes differ: xs[0] has %s, xs[%d] has %s", hopName(fn), lead, i, d)
		}
		in = append(in, nn.Of(&fakeTensor{f: &Fake{DType: f.DType, Shape: f.Shape[1:], Contiguous: f.Contiguous}, p: p}))
	}
	in = append(in, extra...)
	out, err := p.runSub(bg, in)
	if err != nil {
		return nn.None, fmt.Errorf("%s: %s: %w", hopName(fn), bname, err)
	}
	res := make([]nn.Value, len(out))
	for i, o := range out {
		f, ok := unwrap(o).(*Fake)
		if !ok {
			return nn.None, fmt.Errorf("%s: %s's output %d is %s, not a tensor", hopName(fn), bname, i, o.Kind())
		}
		res[i] = nn.Of(&fakeTensor{f: &Fake{DType: f.DType, Shape: append([]sym.Expr{lead}, f.Shape...), Contiguous: true}, p: p})
	}
	return nn.Tuple(res...), nil
}

// symBool is a symbolic bool Value of a FakeProp run: a comparison of
// sizes that the ranges do not decide (x.shape[0] > 4 with a dynamic
// dim), which cond takes as a predicate without guarding on it.
type symBool struct {
	c sym.Cond
	p *fakeProp
}

// Tracer returns the run (ops.Symbolic).
func (s *symBool) Tracer() ops.Tracer { return s.p }

// String returns the condition.
func (s *symBool) String() string { return s.c.String() }

// symCmp are Python's comparisons on sizes.
var symCmp = map[node.Function]func(a, b sym.Expr) sym.Cond{
	nn.OperatorEq: sym.Eq, nn.OperatorNe: sym.Ne, nn.OperatorLt: sym.Lt,
	nn.OperatorLe: sym.Le, nn.OperatorGt: sym.Gt, nn.OperatorGe: sym.Ge,
}

// compare is a comparison of sizes: a bool when the ranges decide it (no
// guard recorded), else a symBool.
func (p *fakeProp) compare(fn node.Function, args []nn.Value) (nn.Value, bool) {
	mk, ok := symCmp[fn]
	if !ok || len(args) != 2 {
		return nn.None, false
	}
	a, aok := toExpr(args[0].Any())
	b, bok := toExpr(args[1].Any())
	if !aok || !bok {
		return nn.None, false
	}
	c := mk(p.env.Simplify(a), p.env.Simplify(b))
	r := p.env.Range(c.L.Sub(c.R))
	var known, v bool
	switch c.Rel {
	case sym.EQ, sym.NE:
		if x, ok := r.IsPoint(); ok {
			known, v = true, x == 0
		} else if !r.Contains(0) {
			known, v = true, false
		}
		if known && c.Rel == sym.NE {
			v = !v
		}
	case sym.LT:
		known, v = r.Hi < 0 || r.Lo >= 0, r.Hi < 0
	case sym.LE:
		known, v = r.Hi <= 0 || r.Lo > 0, r.Hi <= 0
	case sym.GT:
		known, v = r.Lo > 0 || r.Hi <= 0, r.Lo > 0
	case sym.GE:
		known, v = r.Lo >= 0 || r.Hi < 0, r.Lo >= 0
	}
	if known {
		return nn.Of(v), true
	}
	return nn.Of(&symBool{c: c, p: p}), true
}
