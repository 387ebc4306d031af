package export

import (
	"fmt"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
)

// Data-dependent values. Value.Item() of a traced integer tensor records
// aten.item (core ATen: _local_scalar_dense) whose value is a fresh
// unbacked symbol u0, u1, ... (shapeprop's rule); nonzero's length and a
// custom operator's dynamic size (customshape.go) are unbacked symbols
// too. Model code narrows their ranges with functional.Check,
// CheckIsSize, ConstrainAsSize and ConstrainAsValue, which export handles
// here: nothing is recorded for them while tracing. When the trace is
// done, insertRuntimeAsserts puts after the node that first gives each
// unbacked symbol the runtime assertions of its final range, as
// torch.export 2.6's insert_deferred_runtime_asserts does:
//
//	_local_scalar_dense: "Sym(u0)" = ...
//	sym_constrain_range_for_size_default = torch.ops.aten.sym_constrain_range_for_size.default(_local_scalar_dense)
//	ge: "Sym(u0 >= 0)" = _local_scalar_dense >= 0
//	_assert_scalar_default = torch.ops.aten._assert_scalar.default(ge, "Runtime assertion failed for expression u0 >= 0 on node 'ge'")
//	le: "Sym(u0 <= 6)" = _local_scalar_dense <= 6
//	_assert_scalar_default_1 = torch.ops.aten._assert_scalar.default(le, "Runtime assertion failed for expression u0 <= 6 on node 'le'")
//
// A symbol that is the size of a tensor (nonzero's) is read first with
// aten.sym_size.int. sym_constrain_range_for_size marks a size-like
// symbol (CheckIsSize, ConstrainAsSize, nonzero's length). A checked
// comparison of two symbols (u0 <= s0), or of a symbol plus a constant
// (u0 + 1 <= s0), is asserted after both nodes (assertChecks).

var (
	opAssertScalar        = nn.Op("aten::_assert_scalar")
	opConstrainRangeSize  = nn.Op("aten::sym_constrain_range_for_size")
	unbackedCheckFunction = map[node.Function]bool{
		nn.TorchCheck: true, nn.TorchCheckIsSize: true, nn.TorchConstrainAsSize: true, nn.TorchConstrainAsValue: true,
	}
)

// unbackedFunction handles the checks of model code on traced numbers
// (functional.Check and friends); ok is false for any other function.
func (r *recorder) unbackedFunction(fn node.Function, args []nn.Value) (out nn.Value, ok bool, err error) {
	if !unbackedCheckFunction[fn] {
		return nn.None, false, nil
	}
	w := where()
	symbolic := false
	for _, a := range args {
		if _, isSym := a.Raw().(*sproxy); isSym {
			symbolic = true
		}
	}
	if !symbolic {
		// Concrete values (decided conditions, constant sizes): the Go
		// implementation checks them now.
		impl, _ := nn.LookupFunctionImpl(fn)
		if _, err := impl(args, nil); err != nil {
			return nn.None, true, fmt.Errorf("export: %s at %s: %w", fn, w, err)
		}
		return nn.None, true, nil
	}
	fail := func(err error) (nn.Value, bool, error) {
		return nn.None, true, fmt.Errorf("export: %s at %s: %w", fn, w, err)
	}
	if fn == nn.TorchCheck {
		s := args[0].Raw().(*sproxy)
		if s.cond == nil {
			return fail(fmt.Errorf("cond must be a bool, but got the int %s", s.e))
		}
		if err := r.env.Check(*s.cond, w); err != nil {
			return fail(err)
		}
		if err := r.narrowFromCheck(*s.cond); err != nil {
			return fail(err)
		}
		return nn.None, true, nil
	}
	s, isSym := args[0].Raw().(*sproxy)
	if !isSym || s.cond != nil || s.e.IsFloat() {
		return fail(fmt.Errorf("the value must be an int, got %s", args[0].Kind()))
	}
	bounds := sym.Range{Lo: sym.NegInf, Hi: sym.Inf}
	if len(args) == 3 {
		lo, lok := args[1].Raw().(int64)
		hi, hok := args[2].Raw().(int64)
		if !lok || !hok {
			return fail(fmt.Errorf("min and max must be ints, got %s and %s", args[1].Kind(), args[2].Kind()))
		}
		if lo > hi {
			return fail(torchErr("Maximum value to constrain_as_size can't be less than the specified min value, received min=%d and max=%d", lo, hi))
		}
		bounds = sym.Range{Lo: lo, Hi: hi}
	}
	e := r.env.Simplify(s.e)
	u, lone := lone(e)
	if !lone {
		// An expression (n + 1): its bounds are checked facts.
		if fn != nn.TorchConstrainAsValue {
			bounds.Lo = max(bounds.Lo, 0)
		}
		for _, c := range []sym.Cond{sym.Ge(e, sym.Const(bounds.Lo)), sym.Le(e, sym.Const(bounds.Hi))} {
			if (c.Rel == sym.GE && bounds.Lo == sym.NegInf) || (c.Rel == sym.LE && bounds.Hi == sym.Inf) {
				continue
			}
			if err := r.env.Check(c, w); err != nil {
				return fail(err)
			}
		}
		return nn.None, true, nil
	}
	if fn != nn.TorchConstrainAsValue {
		if err := r.env.ConstrainAsSize(u); err != nil {
			return fail(err)
		}
	}
	if err := r.env.Constrain(u, bounds); err != nil {
		return fail(torchErr("Invalid value range for %s between [%s, %s]: %w", u, bound(bounds.Lo), bound(bounds.Hi), err))
	}
	return nn.None, true, nil
}

// narrowFromCheck narrows the range of the one unbacked symbol u of a
// checked comparison that is linear in u with coefficient 1 (u + 1 <= s0)
// by the range of the rest (s0 in [2, 64]: u <= 63), as PyTorch's
// ShapeEnv does when it learns a checked fact.
func (r *recorder) narrowFromCheck(c sym.Cond) error {
	d := c.L.Sub(c.R) // the fact is d REL 0
	var u *sym.Symbol
	for _, s := range d.Symbols() {
		if !s.Backed() {
			if u != nil && u != s {
				return nil // two unbacked symbols: nothing to narrow
			}
			u = s
		}
	}
	if u == nil {
		return nil
	}
	at := func(v int64) sym.Expr { return d.Subst(map[*sym.Symbol]sym.Expr{u: sym.Const(v)}) }
	c1, ok1 := at(1).Sub(at(0)).Const()
	c2, ok2 := at(2).Sub(at(1)).Const()
	if !ok1 || !ok2 || c1 != c2 || (c1 != 1 && c1 != -1) {
		return nil // not linear in u with coefficient ±1
	}
	rest := r.env.Range(at(0)) // d = c1*u + rest
	var bounds sym.Range
	switch c.Rel {
	case sym.LE, sym.LT:
		// c1*u <= -rest (minus one for <): bounded by -min(rest).
		if rest.Lo == sym.NegInf {
			return nil
		}
		end := -rest.Lo
		if c.Rel == sym.LT {
			end--
		}
		if c1 == 1 {
			bounds = sym.Range{Lo: sym.NegInf, Hi: end}
		} else {
			bounds = sym.Range{Lo: -end, Hi: sym.Inf}
		}
	case sym.GE, sym.GT:
		if rest.Hi == sym.Inf {
			return nil
		}
		end := -rest.Hi
		if c.Rel == sym.GT {
			end++
		}
		if c1 == 1 {
			bounds = sym.Range{Lo: end, Hi: sym.Inf}
		} else {
			bounds = sym.Range{Lo: sym.NegInf, Hi: -end}
		}
	default:
		return nil
	}
	return r.env.Constrain(u, r.env.RangeOf(u).Intersect(bounds))
}

func bound(v int64) string {
	switch v {
	case sym.Inf:
		return "int_oo"
	case sym.NegInf:
		return "-int_oo"
	}
	return fmt.Sprint(v)
}

// insertRuntimeAsserts adds, after the node that first gives each unbacked
// symbol of the graph, the runtime assertions of the symbol's range (see
// the comment at the top of this file).
func (r *recorder) insertRuntimeAsserts() error {
	g := r.rec.Graph()
	bound := map[*sym.Symbol]bool{}
	// symNode is the node holding each unbacked symbol's value.
	symNode := map[*sym.Symbol]*node.Node{}
	var nodes []*node.Node
	for n := range g.Nodes() {
		nodes = append(nodes, n)
	}
	defer func(src *node.Node) { r.rec.Source = src }(r.rec.Source)
	for _, n := range nodes {
		if n.Op() != node.CallFunction {
			continue
		}
		v, ok := node.Val.Get(&n.Meta)
		if !ok {
			continue
		}
		// The symbols n gives: (dim, symbol) with dim -1 for n itself.
		type given struct {
			dim int
			s   *sym.Symbol
		}
		var gs []given
		switch x := v.(type) {
		case sym.Expr:
			if s, ok := lone(r.env.Simplify(x)); ok && !s.Backed() && !bound[s] {
				gs = append(gs, given{-1, s})
				bound[s] = true
				symNode[s] = n
			}
		case *shapeprop.Fake:
			for d, e := range x.Shape {
				if s, ok := lone(r.env.Simplify(e)); ok && !s.Backed() && !bound[s] {
					// A tensor's size is size-like, as the meta
					// functions of nonzero and of custom operators
					// (ctx.new_dynamic_size) make it.
					if err := r.env.ConstrainAsSize(s); err != nil {
						return fmt.Errorf("export: node %s: size %d: %w", n.Name(), d, err)
					}
					gs = append(gs, given{d, s})
					bound[s] = true
				}
			}
		}
		if len(gs) == 0 {
			continue
		}
		r.rec.Source = n
		at := n
		for _, gv := range gs {
			restore := g.InsertingAfter(at)
			last, src, err := r.assertRange(n, gv.dim, gv.s)
			restore()
			if src != nil {
				symNode[gv.s] = src
			}
			if err != nil {
				return fmt.Errorf("export: runtime assertions of %s (node %s): %w", gv.s, n.Name(), err)
			}
			if last != nil {
				at = last
			}
		}
	}
	return r.assertChecks(symNode)
}

// assertChecks records the runtime assertion of each checked fact on an
// unbacked symbol that is not a range of one symbol (Check(u0 <= s0),
// Check(Eq(u0, u1))), after the nodes of its symbols, when each side is a
// constant or a symbol with a node; other facts are only known to the
// exporter.
func (r *recorder) assertChecks(symNode map[*sym.Symbol]*node.Node) error {
	g := r.rec.Graph()
	pos := map[*node.Node]int{}
	i := 0
	for n := range g.Nodes() {
		pos[n] = i
		i++
	}
	fns := map[sym.Rel]node.Function{
		sym.EQ: nn.OperatorEq, sym.NE: nn.OperatorNe, sym.LT: nn.OperatorLt,
		sym.LE: nn.OperatorLe, sym.GT: nn.OperatorGt, sym.GE: nn.OperatorGe,
	}
checks:
	for _, c := range r.env.Checks() {
		syms := append(c.Cond.L.Symbols(), c.Cond.R.Symbols()...)
		unbacked := false
		for _, s := range syms {
			unbacked = unbacked || !s.Backed()
		}
		_, lconst := c.Cond.L.Const()
		_, rconst := c.Cond.R.Const()
		if !unbacked || lconst || rconst || fns[c.Cond.Rel] == nil {
			continue // a range (asserted above), or no unbacked symbol
		}
		var args []node.Arg
		var offsets [2]int64 // a side s + k: k, added by a node of its own
		var after *node.Node
		for side, e := range []sym.Expr{c.Cond.L, c.Cond.R} {
			s, ok := lone(e)
			if !ok {
				// One symbol plus a constant (u0 + 1), as 2.6 asserts
				// "u0 + 1 <= s0" with an add node of its own.
				ss := e.Symbols()
				if len(ss) != 1 {
					continue checks
				}
				k, isConst := e.Sub(ss[0].Expr()).Const()
				if !isConst {
					continue checks
				}
				if sp, ok := r.syms[e.String()]; ok && sp.n != nil {
					// Model code computed it (n.Add(1)): its node.
					if _, inGraph := pos[sp.n]; inGraph {
						if after == nil || pos[sp.n] > pos[after] {
							after = sp.n
						}
						args = append(args, sp.n)
						continue
					}
				}
				s, offsets[side] = ss[0], k
			}
			n := symNode[s]
			if n == nil {
				if sp, ok := r.syms[s.Expr().String()]; ok && sp.n != nil {
					n = sp.n
				}
			}
			if _, inGraph := pos[n]; n == nil || !inGraph {
				continue checks
			}
			if after == nil || pos[n] > pos[after] {
				after = n
			}
			args = append(args, n)
		}
		// After the later node and the assertions already there.
		for after.Next() != nil && after.Next().Op() == node.CallFunction && isAssertion(after.Next()) {
			after = after.Next()
		}
		r.rec.Source = after
		restore := g.InsertingAfter(after)
		var err error
		for side, k := range offsets {
			if k != 0 && err == nil {
				e := []sym.Expr{c.Cond.L, c.Cond.R}[side]
				args[side], err = r.rec.Create(node.CallFunction, nn.OperatorAdd, []node.Arg{node.Int(k), args[side]}, nil, "", e)
			}
		}
		var cmp *node.Node
		if err == nil {
			cmp, err = r.rec.Create(node.CallFunction, fns[c.Cond.Rel], args, nil, "", c.Cond)
		}
		if err == nil {
			msg := fmt.Sprintf("Runtime assertion failed for expression %s on node '%s'", c.Cond, cmp.Name())
			_, err = r.rec.Create(node.CallFunction, opAssertScalar, []node.Arg{cmp, node.Str(msg)}, nil, "_assert_scalar_default", nil)
		}
		restore()
		if err != nil {
			return fmt.Errorf("export: runtime assertion of %s (checked at %s): %w", c.Cond, c.Where, err)
		}
	}
	return nil
}

// isAssertion reports whether n is one of the nodes insertRuntimeAsserts
// records (an assertion, a constraint, or the comparison one takes).
func isAssertion(n *node.Node) bool {
	switch n.Function() {
	case node.Function(opAssertScalar), node.Function(opConstrainRangeSize), node.Function(symSize),
		nn.OperatorGe, nn.OperatorLe, nn.OperatorEq, nn.OperatorNe, nn.OperatorLt, nn.OperatorGt:
		return true
	}
	return false
}

// assertRange records, at the insertion point, the reading of s from n
// (dim >= 0: its size there), sym_constrain_range_for_size for a
// size-like s, and an _assert_scalar for each finite end of s's range; it
// returns the last node recorded (nil if none) and the node holding s's
// value (nil if none).
func (r *recorder) assertRange(n *node.Node, dim int, s *sym.Symbol) (last, src *node.Node, err error) {
	rg := r.env.RangeOf(s)
	sizeLike := r.env.IsSizeLike(s)
	if !sizeLike && rg.Lo == sym.NegInf && rg.Hi == sym.Inf {
		if dim < 0 {
			return nil, n, nil
		}
		return nil, nil, nil
	}
	src = n
	if dim >= 0 {
		sz, err := r.rec.Create(node.CallFunction, symSize, []node.Arg{n, node.Int(dim)}, nil, symSizeName, s.Expr())
		if err != nil {
			return nil, nil, err
		}
		src, last = sz, sz
	}
	if sizeLike {
		c, err := r.rec.Create(node.CallFunction, opConstrainRangeSize, []node.Arg{src}, nil, "sym_constrain_range_for_size_default", nil)
		if err != nil {
			return nil, nil, err
		}
		last = c
	}
	for _, end := range []struct {
		fn  node.Function
		rel sym.Rel
		v   int64
		ok  bool
	}{
		{nn.OperatorGe, sym.GE, rg.Lo, rg.Lo != sym.NegInf},
		{nn.OperatorLe, sym.LE, rg.Hi, rg.Hi != sym.Inf},
	} {
		if !end.ok {
			continue
		}
		c := sym.Cond{Rel: end.rel, L: s.Expr(), R: sym.Const(end.v)}
		cmp, err := r.rec.Create(node.CallFunction, end.fn, []node.Arg{src, node.Int(end.v)}, nil, "", c)
		if err != nil {
			return nil, nil, err
		}
		msg := fmt.Sprintf("Runtime assertion failed for expression %s on node '%s'", c, cmp.Name())
		a, err := r.rec.Create(node.CallFunction, opAssertScalar, []node.Arg{cmp, node.Str(msg)}, nil, "_assert_scalar_default", nil)
		if err != nil {
			return nil, nil, err
		}
		last = a
	}
	return last, src, nil
}

// replayedUnbacked gives, while RunDecompositions replays a node whose
// result depends on data (item, _local_scalar_dense, nonzero, a custom
// operator) and has unbacked symbols, the node's recorded results: the
// program keeps the file's symbols (u0, u1) instead of fresh ones.
func (r *recorder) replayedUnbacked(op *ops.Operator) ([]any, bool) {
	if r.replayVal == nil {
		return nil, false
	}
	s := op.Schema()
	switch {
	case s.Namespace != "aten" && s.Namespace != "prims":
	case s.Name == "item" || s.Name == "_local_scalar_dense" || s.Name == "nonzero":
	default:
		return nil, false
	}
	res, ok := recordedResults(r.replayVal)
	if !ok {
		return nil, false
	}
	for _, x := range res {
		var es []sym.Expr
		switch v := x.(type) {
		case sym.Expr:
			es = []sym.Expr{v}
		case *shapeprop.Fake:
			es = v.Shape
		}
		for _, e := range es {
			for _, u := range e.Symbols() {
				if !u.Backed() {
					return res, true
				}
			}
		}
	}
	return nil, false
}

// torchErr is an error with PyTorch's own message (capitalized, with its
// punctuation), which tests and users compare with PyTorch's.
func torchErr(format string, a ...any) error { return fmt.Errorf(format, a...) }
