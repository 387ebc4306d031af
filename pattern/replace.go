package pattern

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
)

// Replace replaces every non-overlapping match of pattern in target (a
// *fx.GraphModule or a *graph.Graph) with a copy of replacement, and returns
// the matches it replaced, in graph order (a GraphModule's own graph
// first, then the graphs of its higher-order operators: see
// eachSubgraph). pattern is a *Pattern or anything
// Compile accepts; replacement is anything Compile accepts (a Go function,
// an nn.Module, a *fx.GraphModule or a *graph.Graph).
//
// The replacement takes the pattern's placeholders in order, optionally
// followed by one placeholder per literal wildcard (bound to the matched
// literal), and returns as many values as the pattern. Each match's
// returned nodes are replaced by the replacement's values (all their uses
// outside the match), and the matched nodes are erased; the graph passes
// Lint afterwards. Matches are found on the graph as it is before any
// replacement, as torch.fx does; an input of a later match that an earlier
// one replaced stands for its replacement.
func Replace(target any, pattern, replacement any, opts ...Option) ([]*Match, error) {
	c := newConfig(opts)
	p, err := compile(pattern, c)
	if err != nil {
		return nil, fmt.Errorf("pattern.Replace: %w", err)
	}
	r, err := newReplacement(replacement, p)
	if err != nil {
		return nil, fmt.Errorf("pattern.Replace: %w", err)
	}
	return replace(target, p, extraFilters(pattern, c), c.onSkip, func(*Match) (*replacementGraph, error) { return r, nil })
}

// ReplaceFunc is Replace with a replacement chosen per match: with is called
// with each match, in graph order, and returns its replacement (anything
// Compile accepts) or nil to leave that match alone (it is then not among
// the matches returned). Returning the same *graph.Graph or *fx.GraphModule
// for many matches prepares it once; a Go function is traced for each call.
// An error from with stops the rewrite: the matches before it stay replaced
// and the graph is valid.
func ReplaceFunc(target any, pattern any, with func(*Match) (any, error), opts ...Option) ([]*Match, error) {
	if with == nil {
		return nil, errors.New("pattern.ReplaceFunc: nil replacement function")
	}
	c := newConfig(opts)
	p, err := compile(pattern, c)
	if err != nil {
		return nil, fmt.Errorf("pattern.ReplaceFunc: %w", err)
	}
	cache := map[any]*replacementGraph{}
	return replace(target, p, extraFilters(pattern, c), c.onSkip, func(m *Match) (*replacementGraph, error) {
		src, err := with(m)
		if err != nil {
			return nil, fmt.Errorf("pattern.ReplaceFunc: pattern %s at %%%s: %w", p.name, m.Anchor.Name(), err)
		}
		if src == nil {
			return nil, nil
		}
		cacheable := false
		switch src.(type) {
		case *graph.Graph, *fx.GraphModule:
			cacheable = true
			if r, ok := cache[src]; ok {
				return r, nil
			}
		}
		r, err := newReplacement(src, p)
		if err != nil {
			return nil, fmt.Errorf("pattern.ReplaceFunc: at %%%s: %w", m.Anchor.Name(), err)
		}
		if cacheable {
			cache[src] = r
		}
		return r, nil
	})
}

// replacementGraph is a replacement prepared for copying.
type replacementGraph struct {
	name  string
	g     *graph.Graph
	gm    *fx.GraphModule // for FakeProp; g is gm.Graph
	root  nn.Module       // the replacement's module tree, or nil
	phs   []*node.Node
	nouts int
	vals  map[string][]node.Value // FakeProp results by input signature
}

func newReplacement(src any, p *Pattern) (*replacementGraph, error) {
	g, root, err := toGraph(src)
	if err != nil {
		return nil, fmt.Errorf("replacement for pattern %s: %w", p.name, err)
	}
	// Work on a copy: FakeProp writes the template's metadata.
	g, _, err = g.Clone()
	if err != nil {
		return nil, fmt.Errorf("replacement for pattern %s: %w", p.name, err)
	}
	gm, err := fx.NewGraphModule(root, g)
	if err != nil {
		return nil, fmt.Errorf("replacement for pattern %s: %w", p.name, err)
	}
	r := &replacementGraph{g: g, gm: gm, root: root, phs: g.Placeholders(), vals: map[string][]node.Value{}}
	out := g.OutputNode()
	if out == nil || out.NumArgs() == 0 {
		return nil, fmt.Errorf("replacement for pattern %s has no output", p.name)
	}
	var names []string
	switch v := out.Arg(0).(type) {
	case node.Tuple:
		r.nouts = len(v)
		for _, e := range v {
			names = append(names, fmtArg(e))
		}
	case node.List:
		r.nouts = len(v)
		for _, e := range v {
			names = append(names, fmtArg(e))
		}
	default:
		r.nouts = 1
		names = append(names, fmtArg(v))
	}
	r.name = strings.TrimPrefix(strings.Join(names, ","), "%")
	if r.nouts != len(p.outs) {
		return nil, fmt.Errorf("replacement %s returns %d values but pattern %s returns %d: a replacement must return one value per pattern output", r.name, r.nouts, p.name, len(p.outs))
	}
	if n := len(r.phs); n != len(p.phs) && n != len(p.phs)+len(p.literals) {
		want := fmt.Sprint(len(p.phs))
		if len(p.literals) > 0 {
			want += fmt.Sprintf(" (or %d with the literal wildcards %v)", len(p.phs)+len(p.literals), p.literals)
		}
		return nil, fmt.Errorf("replacement %s takes %d inputs but pattern %s has %d placeholders %v: it must take %s", r.name, n, p.name, len(p.phs), p.Placeholders(), want)
	}
	return r, nil
}

// bringRefs makes the module and attribute paths the replacement uses
// exist in the target's module tree, as torch.fx's replace_pattern does: a
// path the target has is used as it is; one only the replacement's module
// tree has is copied in (the same module, parameter or buffer object, on
// modules the target owns, see fx.ModuleEditor); any other is an error.
func (r *replacementGraph) bringRefs(t *fx.ModuleEditor, p *Pattern) error {
	if t == nil {
		return nil
	}
	for n := range r.g.Nodes() {
		path := n.Target().String()
		switch n.Op() {
		case node.CallModule:
			if _, err := nn.Submodule(t.GraphModule(), path); err == nil {
				continue
			}
			var mod nn.Module
			if r.root != nil {
				mod, _ = nn.Submodule(r.root, path)
			}
			if mod == nil {
				return fmt.Errorf("replacement %s for pattern %s: node %%%s calls module %s, which neither the target GraphModule nor the replacement has", r.name, p.name, n.Name(), path)
			}
			if err := t.SetModule(path, mod); err != nil {
				return fmt.Errorf("replacement %s for pattern %s: copying module %s into the target: %w", r.name, p.name, path, err)
			}
		case node.GetAttr:
			if _, err := nn.Attr(t.GraphModule(), path); err == nil {
				continue
			}
			if _, err := nn.Submodule(t.GraphModule(), path); err == nil {
				continue
			}
			var attr any
			if r.root != nil {
				attr, _ = nn.Attr(r.root, path)
				if attr == nil {
					if mod, err := nn.Submodule(r.root, path); err == nil {
						attr = mod
					}
				}
			}
			if attr == nil {
				return fmt.Errorf("replacement %s for pattern %s: node %%%s reads %s, which neither the target GraphModule nor the replacement has", r.name, p.name, n.Name(), path)
			}
			if err := t.SetAttr(path, attr); err != nil {
				return fmt.Errorf("replacement %s for pattern %s: copying %s into the target: %w", r.name, p.name, path, err)
			}
		}
	}
	return nil
}

func replace(target any, p *Pattern, extra []func(*Match) bool, onSkip func(*Match, error), with func(*Match) (*replacementGraph, error)) ([]*Match, error) {
	out, err := replaceIn(target, p, extra, onSkip, with)
	if err != nil {
		return out, err
	}
	gm, ok := target.(*fx.GraphModule)
	if !ok {
		return out, nil
	}
	err = eachSubgraph(gm, func(sub *fx.GraphModule) error {
		more, err := replaceIn(sub, p, extra, onSkip, with)
		out = append(out, more...)
		return err
	})
	return out, err
}

// replaceIn is replace on one graph, its subgraphs left alone.
func replaceIn(target any, p *Pattern, extra []func(*Match) bool, onSkip func(*Match, error), with func(*Match) (*replacementGraph, error)) (out []*Match, err error) {
	m, err := newMatcher(target, p, extra)
	if err != nil {
		return nil, fmt.Errorf("pattern.Replace: %w", err)
	}
	matches := m.all()
	conf := m.newConflicts(matches)
	var tree *fx.ModuleEditor
	if gm, ok := target.(*fx.GraphModule); ok {
		tree = fx.NewModuleEditor(gm)
	}
	changed := map[*node.Node]*node.Node{}
	checked := map[*replacementGraph]bool{}
	var freed []string // modules that replaced nodes called
	defer func() {
		if derr := tree.DeleteUnused(freed); derr != nil && err == nil {
			err = fmt.Errorf("pattern.Replace: %w", derr)
		}
	}()
	out = matches[:0]
	for i, mt := range matches {
		r, err := with(mt)
		if err != nil {
			return out, err
		}
		if r == nil {
			continue
		}
		if !checked[r] {
			if err := r.bringRefs(tree, p); err != nil {
				return out, fmt.Errorf("pattern.Replace: %w", err)
			}
			checked[r] = true
		}
		if conf != nil {
			if err := conf.add(i); err != nil {
				if onSkip != nil {
					onSkip(mt, fmt.Errorf("pattern %s at %%%s: %w", p.name, mt.Anchor.Name(), err))
				}
				continue
			}
		}
		for _, n := range mt.Nodes {
			if n.Op() == node.CallModule {
				freed = append(freed, n.Target().String())
			}
		}
		if err := m.apply(mt, r, changed); err != nil {
			return out, fmt.Errorf("pattern.Replace: pattern %s at %%%s: %w", p.name, mt.Anchor.Name(), err)
		}
		out = append(out, mt)
	}
	return out, nil
}

// apply replaces one match with a copy of r.
func (m *matcher) apply(mt *Match, r *replacementGraph, changed map[*node.Node]*node.Node) error {
	p, g := m.p, m.g
	for i, in := range mt.Inputs {
		if n, ok := in.(*node.Node); ok {
			if c, ok := changed[n]; ok {
				mt.Inputs[i] = c
			}
		}
	}
	// Restore the matcher's bindings for the order checks.
	for i := range p.all {
		m.bound[i] = true
		if i < m.nph {
			m.val[i] = mt.Inputs[i]
		} else {
			m.val[i] = mt.Nodes[i-m.nph]
		}
	}
	defer func() {
		for i := range p.all {
			m.bound[i], m.val[i] = false, nil
		}
	}()
	inputs, last := m.inputNodes()
	if last != nil {
		// Users of the outputs placed before the last input move after it,
		// so that the replacement can go after every input and before every
		// use of its values.
		move, path := m.laterUsers(inputs, last)
		if path != "" {
			return fmt.Errorf("replacing the match would make a cycle: %s", path)
		}
		slices.SortFunc(move, func(a, b *node.Node) int {
			if g.Before(a, b) {
				return -1
			}
			return 1
		})
		for i := len(move) - 1; i >= 0; i-- {
			if err := g.MoveAfter(move[i], last); err != nil {
				return err
			}
		}
	}
	// Insert before the first use of an output outside the match.
	var first *node.Node
	for _, o := range mt.Outputs {
		for _, u := range o.Users() {
			if m.inMatch(u) {
				continue
			}
			if first == nil || g.Before(u, first) {
				first = u
			}
		}
	}
	var restore func()
	switch {
	case first != nil:
		restore = g.InsertingBefore(first)
	case last != nil && g.Before(mt.Anchor, last):
		restore = g.InsertingAfter(last)
	default:
		restore = g.InsertingBefore(mt.Anchor)
	}
	valueMap := make(map[*node.Node]node.Arg, r.g.Len())
	for i, ph := range r.phs {
		if i < len(mt.Inputs) {
			valueMap[ph] = mt.Inputs[i]
		} else {
			valueMap[ph] = mt.Literals[i-len(mt.Inputs)]
		}
	}
	res, err := g.GraphCopy(r.g, valueMap)
	restore()
	if err != nil {
		return err
	}
	var results []node.Arg
	switch v := res.(type) {
	case node.Tuple:
		results = v
	case node.List:
		results = v
	default:
		results = []node.Arg{v}
	}
	for n := range r.g.Nodes() {
		if n.Op() == node.Placeholder || n.Op() == node.Output {
			continue
		}
		if c, ok := valueMap[n].(*node.Node); ok {
			mt.Replacement = append(mt.Replacement, c)
		}
	}
	if literalBound(mt) {
		resolveOverloads(mt.Replacement)
	}
	m.annotate(mt, r, valueMap)
	for i, o := range mt.Outputs {
		nv, ok := results[i].(*node.Node)
		if !ok {
			return fmt.Errorf("replacement %s returns the literal %v for output %d; it must return a node", r.name, results[i], i)
		}
		if _, err := o.ReplaceAllUsesWith(nv, func(u *node.Node) bool { return !m.inMatch(u) }, false); err != nil {
			return err
		}
		changed[o] = nv
	}
	for i := len(mt.Nodes) - 1; i >= 0; i-- {
		if err := g.EraseNode(mt.Nodes[i]); err != nil {
			return err
		}
	}
	return nil
}

// annotate gives the nodes of a replacement their metadata: the anchor's
// (nn_module_stack and free-form entries), a stack_trace that adds a line
// naming the pattern and the replacement to the anchor's, and a val
// re-inferred from the inputs' vals when the matched outputs had one.
func (m *matcher) annotate(mt *Match, r *replacementGraph, valueMap map[*node.Node]node.Arg) {
	if len(mt.Replacement) == 0 {
		return
	}
	base := mt.Anchor.Meta.Clone()
	base.Delete(node.Val.Name())
	trace, _ := node.StackTrace.Get(&mt.Anchor.Meta)
	if trace != "" && !strings.HasSuffix(trace, "\n") {
		trace += "\n"
	}
	trace += fmt.Sprintf("rewritten by pattern.Replace: pattern %s -> replacement %s\n", m.p.name, r.name)
	node.StackTrace.Set(&base, trace)
	for _, n := range mt.Replacement {
		n.Meta = base.Clone()
	}
	vals := m.inferVals(mt, r)
	if vals == nil {
		return
	}
	i := 0
	for n := range r.g.Nodes() {
		if n.Op() == node.Placeholder || n.Op() == node.Output {
			continue
		}
		if c, ok := valueMap[n].(*node.Node); ok && vals[i] != nil {
			node.Val.Set(&c.Meta, vals[i])
		}
		i++
	}
}

// inferVals runs FakeProp over the replacement with the inputs' vals, when
// the matched outputs had one, and returns a val per replacement node
// (placeholders and output excluded), in the form the graph uses
// (node.TensorMeta where the outputs had one, *shapeprop.Fake otherwise).
func (m *matcher) inferVals(mt *Match, r *replacementGraph) []node.Value {
	outVal, ok := node.Val.Get(&mt.Anchor.Meta)
	if !ok {
		return nil
	}
	_, asMeta := outVal.(node.TensorMeta)
	inputs := make([]any, len(r.phs))
	var sig strings.Builder
	for i := range r.phs {
		var a node.Arg
		if i < len(mt.Inputs) {
			a = mt.Inputs[i]
		} else {
			a = mt.Literals[i-len(mt.Inputs)]
		}
		n, isNode := a.(*node.Node)
		if !isNode {
			v, ok := literalValue(a)
			if !ok {
				return nil
			}
			inputs[i] = nn.Of(v)
			fmt.Fprintf(&sig, "%v;", a)
			continue
		}
		v, ok := node.Val.Get(&n.Meta)
		if !ok {
			return nil
		}
		switch x := v.(type) {
		case *shapeprop.Fake:
			inputs[i] = x
		case node.TensorMeta:
			dims := make([]any, len(x.Shape))
			for k, d := range x.Shape {
				if d.Sym != "" {
					return nil
				}
				dims[k] = d.Size
			}
			dt, ok := dtypeOf(x.DType)
			if !ok {
				return nil
			}
			inputs[i] = shapeprop.NewFake(dt, dims...)
		default:
			return nil
		}
		fmt.Fprintf(&sig, "%v;", v)
	}
	key := sig.String()
	if vals, ok := r.vals[key]; ok {
		return vals
	}
	var vals []node.Value
	if _, err := shapeprop.FakeProp(r.gm, sym.NewEnv(), inputs...); err == nil {
		for n := range r.g.Nodes() {
			if n.Op() == node.Placeholder || n.Op() == node.Output {
				continue
			}
			v, _ := node.Val.Get(&n.Meta)
			if asMeta {
				v = toMeta(v)
			}
			vals = append(vals, v)
		}
	}
	r.vals[key] = vals
	return vals
}

// literalBound reports whether a replacement placeholder of mt receives a
// literal (a pattern placeholder bound to one, or a literal wildcard).
func literalBound(mt *Match) bool {
	if len(mt.Literals) > 0 {
		return true
	}
	for _, in := range mt.Inputs {
		if _, ok := in.(*node.Node); !ok {
			return true
		}
	}
	return false
}

// resolveOverloads gives each operator node among ns the overload its
// arguments bind to, when the one it was recorded with does not accept them:
// a replacement's x ** num records aten.pow.Tensor_Tensor, and with num
// bound to the literal 2 the node must call aten.pow.Tensor_Scalar. The
// operators whose .Scalar overload PyTorch's Python bindings hide keep
// their Tensor overload with the number as a wrapped number, as Python's
// x * 2 records aten.mul.Tensor(x, 2) (wrappedNumberOps).
func resolveOverloads(ns []*node.Node) {
	for _, n := range ns {
		op, ok := n.Target().(*ops.Operator)
		if !ok || n.Op() != node.CallFunction || binds(op, n) || keepsWrapped(op, n) {
			continue
		}
		s := op.Schema()
		if o, err := resolveCall(s.Namespace+"::"+s.Name, n.Args(), n.Kwargs()); err == nil && o != op {
			_ = n.SetTarget(o)
		}
	}
}

// wrappedNumberOps are the overloads Python calls with a number for their
// Tensor operand (add, sub, mul, div and their in-place forms, div with a
// rounding mode): torch.fx's make_fx and torch.export record
// aten.mul.Tensor(x, 2), never aten.mul.Scalar.
var wrappedNumberOps = map[string]bool{
	"aten::add.Tensor": true, "aten::sub.Tensor": true, "aten::mul.Tensor": true, "aten::div.Tensor": true,
	"aten::add_.Tensor": true, "aten::sub_.Tensor": true, "aten::mul_.Tensor": true, "aten::div_.Tensor": true,
	"aten::div.Tensor_mode": true, "aten::div_.Tensor_mode": true,
}

// keepsWrapped reports whether n keeps its overload op with a number bound
// for a Tensor operand (as a wrapped number), as PyTorch's Python path does.
func keepsWrapped(op *ops.Operator, n *node.Node) bool {
	if !wrappedNumberOps[op.Schema().QualifiedName()] {
		return false
	}
	in, kw := bindArgs(n)
	_, err := op.Bind(in, kw)
	return err == nil
}
