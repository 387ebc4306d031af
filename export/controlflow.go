package export

import (
	"fmt"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/internal/record"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// Structured control flow while exporting (functional.Cond, WhileLoop,
// Map): export's answers to the recorder's record.Subgraphs. Branch and
// body inputs and the higher-order node's results carry fakes like every
// traced tensor; parameters, buffers and lifted constants read inside a
// branch are lifted into its operands.

var _ record.Subgraphs = (*recorder)(nil)

// valFake returns the fake a node recorded as its val.
func valFake(n *node.Node) (*shapeprop.Fake, error) {
	v, _ := node.Val.Get(&n.Meta)
	f, ok := v.(*shapeprop.Fake)
	if !ok {
		return nil, fmt.Errorf("%s is not a traced tensor (val %T)", n.Name(), v)
	}
	return f, nil
}

// symVal returns the symbolic int n computes (its val), if it is one.
func symVal(n *node.Node) (sym.Expr, bool) {
	v, _ := node.Val.Get(&n.Meta)
	e, ok := v.(sym.Expr)
	if !ok {
		return sym.Expr{}, false
	}
	if _, c := e.Const(); c {
		return sym.Expr{}, false
	}
	return e, true
}

// SubgraphInput gives a branch's placeholder the fake of the value it
// stands for (one row of it for map's xs).
func (r *recorder) SubgraphInput(_ *record.Recorder, n, outer *node.Node, row bool) (nn.Value, error) {
	if e, ok := symVal(outer); ok && !row {
		node.Val.Set(&n.Meta, e)
		return nn.Of(&sproxy{rec: r, n: n, e: e}), nil
	}
	f, err := valFake(outer)
	if err != nil {
		return nn.None, err
	}
	if row {
		if len(f.Shape) == 0 {
			return nn.None, fmt.Errorf("map: xs (%s) is a 0-d tensor: map needs a leading dimension to map over", outer.Name())
		}
		f = &shapeprop.Fake{DType: f.DType, Shape: f.Shape[1:], Contiguous: true}
	}
	node.Val.Set(&n.Meta, f)
	return nn.Of(r.newTensor(n, tensorInfo{fake: f, meta: r.hintMeta(f)})), nil
}

// SubgraphResult gives a result of a higher-order node the fake of like
// (stacked along stacked's leading dimension for map).
func (r *recorder) SubgraphResult(_ *record.Recorder, n, like, stacked *node.Node) (nn.Value, error) {
	f, err := valFake(like)
	if err != nil {
		return nn.None, err
	}
	if m := r.merged[like]; m != nil {
		f = m
		delete(r.merged, like)
	}
	if stacked != nil {
		xs, err := valFake(stacked)
		if err != nil {
			return nn.None, err
		}
		f = &shapeprop.Fake{DType: f.DType, Shape: append([]sym.Expr{xs.Shape[0]}, f.Shape...), Contiguous: true}
	}
	node.Val.Set(&n.Meta, f)
	return nn.Of(r.newTensor(n, tensorInfo{fake: f, meta: r.hintMeta(f)})), nil
}

// SameValue compares the fakes of two branch outputs (or a carried input
// and its new value): dtype, then shape, sizes compared symbolically.
func (r *recorder) SameValue(a, b *node.Node) error {
	fa, err := valFake(a)
	if err != nil {
		return err
	}
	fb, err := valFake(b)
	if err != nil {
		return err
	}
	if fa.DType != fb.DType {
		return fmt.Errorf("dtype %s (%s) vs %s (%s)", fa.DType, a.Name(), fb.DType, b.Name())
	}
	if !sameShape(r.env, fa, fb) {
		return fmt.Errorf("shape %s (%s) vs %s (%s)", shapeString(fa), a.Name(), shapeString(fb), b.Name())
	}
	return nil
}

// MergeBranches (record.BranchMerger) merges the fakes of output i of a
// cond's two branches as PyTorch's cond does (shapeprop.MergeBranches):
// sizes that differ, or unbacked sizes a branch gives, become fresh
// unbacked sizes of the result, whose ranges the runtime assertions
// after its getitem check; dtype and rank must agree.
func (r *recorder) MergeBranches(_ *record.Recorder, a, b *node.Node) error {
	fa, err := valFake(a)
	if err != nil {
		return err
	}
	fb, err := valFake(b)
	if err != nil {
		return err
	}
	if fa.DType != fb.DType {
		return fmt.Errorf("dtype %s (%s) vs %s (%s)", fa.DType, a.Name(), fb.DType, b.Name())
	}
	if len(fa.Shape) != len(fb.Shape) {
		return fmt.Errorf("shape %s (%s) vs %s (%s): the ranks differ", shapeString(fa), a.Name(), shapeString(fb), b.Name())
	}
	m, fresh, err := shapeprop.MergeBranches(r.env, fa, fb)
	if err != nil {
		return err
	}
	if len(fresh) > 0 {
		if r.merged == nil {
			r.merged = map[*node.Node]*shapeprop.Fake{}
		}
		r.merged[a] = m
	}
	return nil
}

// SameLeadingSize (record.LeadingSizes) checks that the tensors a map
// maps over have one leading size (compared symbolically).
func (r *recorder) SameLeadingSize(xs []*node.Node) error {
	var lead sym.Expr
	for i, x := range xs {
		f, err := valFake(x)
		if err != nil {
			return err
		}
		if len(f.Shape) == 0 {
			return fmt.Errorf("xs[%d] (%s) is a 0-d tensor: map needs a leading dimension to map over", i, x.Name())
		}
		d := r.env.Simplify(f.Shape[0])
		if i == 0 {
			lead = d
		} else if !d.Equal(lead) {
			return fmt.Errorf("the mapped tensors' leading sizes differ: xs[0] (%s) has %s, xs[%d] (%s) has %s", xs[0].Name(), lead, i, x.Name(), d)
		}
	}
	return nil
}

// EnterSubgraph gives the branch its own cache of symbolic sizes (a size
// read inside a branch is a sym_size node of the branch's graph).
func (r *recorder) EnterSubgraph(*record.Recorder) func() {
	saved := r.syms
	r.syms = map[string]*sproxy{}
	return func() { r.syms = saved }
}

// LiftKey lets parameters, buffers and lifted constants (placeholders of
// the program) be lifted into branches, keyed by the name Dynamo gives
// them (l__self___lin1_weight), by which torch.export 2.6 orders them.
func (r *recorder) LiftKey(n *node.Node) (string, bool) {
	if _, ok := symVal(n); ok {
		// A symbolic size of the enclosing graph (n := x.Size(0) read
		// inside a branch) is lifted as PyTorch 2.14 lifts it: before
		// the operands of a cond, which sort by these keys.
		return "\x00" + n.Name(), true
	}
	if n.Op() != node.Placeholder {
		return "", false
	}
	for name, p := range r.state {
		if p.Node() == n {
			return "l__self___" + flat(name), true
		}
	}
	for _, c := range r.consts {
		if p := r.constOf[c.t]; p != nil && p.Node() == n {
			return n.Name(), true
		}
	}
	return "", false
}

// PredicateArg checks cond's predicate and returns its graph argument: a
// one-element bool tensor, or a comparison of symbolic sizes recorded as
// its node (gt = sym_size_int_1 > 4), which keeps the decision in the
// program instead of specializing it.
func (r *recorder) PredicateArg(rec *record.Recorder, pred nn.Value) (node.Arg, error) {
	switch x := pred.Raw().(type) {
	case *record.Proxy:
		ti := info(x)
		if ti == nil {
			return nil, fmt.Errorf("the predicate is not a traced tensor")
		}
		if ti.fake.DType != tensor.Bool {
			return nil, fmt.Errorf("the predicate must be a bool tensor, got dtype %s (compare it: x.Sum().Gt(0))", ti.fake.DType)
		}
		if len(ti.fake.Shape) != 0 {
			numel := true
			for _, d := range ti.fake.Shape {
				if c, ok := r.env.Simplify(d).Const(); !ok || c != 1 {
					numel = false
				}
			}
			if !numel {
				return nil, fmt.Errorf("the predicate must be a one-element bool tensor, got shape %s", shapeString(ti.fake))
			}
		}
		return rec.Arg(pred)
	case *sproxy:
		if x.cond == nil {
			return nil, fmt.Errorf("the predicate must be a bool, got the symbolic int %s", x.e)
		}
		if x.n != nil {
			return rec.Arg(pred)
		}
		if x.fn == nil {
			return nil, fmt.Errorf("the symbolic condition %s has no operands to record", x.cond)
		}
		n, err := rec.Create(node.CallFunction, x.fn, x.args, nil, "", *x.cond)
		if err != nil {
			return nil, err
		}
		x.n = n
		return n, nil
	}
	return nil, fmt.Errorf("the predicate must be a bool or a one-element bool tensor, got %s", pred.Kind())
}

// subgraphs converts the recorder's subgraphs, verifying each is core
// ATen.
func subgraphs(subs []record.Sub) ([]Subgraph, error) {
	var out []Subgraph
	for _, s := range subs {
		s.Graph.EliminateDeadCode()
		if err := decomp.Verify(s.Graph); err != nil {
			return nil, fmt.Errorf("export: subgraph %s is not core ATen: %w", s.Name, err)
		}
		children, err := subgraphs(s.Subs)
		if err != nil {
			return nil, err
		}
		out = append(out, Subgraph{Name: s.Name, Graph: s.Graph, Subgraphs: children})
	}
	return out, nil
}

// ConstantPredicate records a cond whose predicate was a Go bool: the
// decision is specialized into the program (ExportedProgram.Specialized).
func (r *recorder) ConstantPredicate(op, where string) {
	r.specialized = append(r.specialized, fmt.Sprintf("%s: %s with a constant predicate: only the taken branch is recorded", where, op))
}

// Specialized lists the decisions of model code that Export specialized
// into the program, each with its Go line: a cond whose predicate was a Go
// bool (a constant, as a Python bool is to torch.cond), of which only the
// taken branch is in the program.
func (ep *ExportedProgram) Specialized() []string { return ep.specialized }
