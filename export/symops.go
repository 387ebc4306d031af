package export

import (
	"fmt"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/sym"
)

func isSymOp(fn node.Function) bool {
	switch fn {
	case nn.OperatorAdd, nn.OperatorSub, nn.OperatorMul, nn.OperatorFloorDiv, nn.OperatorMod,
		nn.OperatorNeg, nn.OperatorTrueDiv, nn.OperatorPow,
		nn.OperatorEq, nn.OperatorNe, nn.OperatorLt, nn.OperatorLe, nn.OperatorGt, nn.OperatorGe:
		return true
	}
	return false
}

// symOp computes a Python operator on sizes, at least one symbolic:
// integer arithmetic stays symbolic (and is recorded as an operator node
// the graph can compute; a result that simplifies to a constant is that
// int, except when replaying a program, keepConds, where it stays the
// node), comparisons become symbolic conditions that Value.Bool decides,
// and anything else (true division, powers, floats) specializes the sizes
// to their example values.
func (r *recorder) symOp(fn node.Function, args []nn.Value) (nn.Value, error) {
	for _, a := range args {
		if x, ok := a.Raw().(*sproxy); ok && x.cond == nil && x.e.IsFloat() {
			// PyTorch records sym_float arithmetic (item * 2.0:
			// Sym(2.0*zuf0)); gofx's symbols are integers and a float
			// read from tensor data is only passed on to operators.
			return nn.None, fmt.Errorf("export: %s on the float %s read from tensor data (the item() of a floating tensor) is not supported: gofx passes such a float to operators unchanged; compute with the tensor instead (x.sum().mul(2).item())", fn, x.e)
		}
	}
	exprs := make([]sym.Expr, len(args))
	nargs := make([]node.Arg, len(args))
	symbolic := true
	recorded := false // an operand has a node
	for i, a := range args {
		switch x := a.Raw().(type) {
		case int64:
			exprs[i], nargs[i] = sym.Const(x), node.Int(x)
		case bool:
			c := int64(0)
			if x {
				c = 1
			}
			exprs[i], nargs[i] = sym.Const(c), node.Int(c)
		case *sproxy:
			if x.cond != nil {
				symbolic = false
				continue
			}
			exprs[i] = r.env.Simplify(x.e)
			if c, ok := exprs[i].Const(); ok && (x.n == nil || !r.keepConds) {
				nargs[i] = node.Int(c)
			} else {
				nargs[i] = x.n
				recorded = true
			}
		default:
			symbolic = false
		}
	}
	if !symbolic || fn == nn.OperatorTrueDiv || fn == nn.OperatorPow {
		return r.specialize(fn, args)
	}
	var e sym.Expr
	var err error
	switch fn {
	case nn.OperatorNeg:
		e = exprs[0].Neg()
	case nn.OperatorAdd:
		e = exprs[0].Add(exprs[1])
	case nn.OperatorSub:
		e = exprs[0].Sub(exprs[1])
	case nn.OperatorMul:
		e = exprs[0].Mul(exprs[1])
	case nn.OperatorFloorDiv:
		e, err = sym.FloorDivErr(exprs[0], exprs[1])
	case nn.OperatorMod:
		e, err = sym.ModErr(exprs[0], exprs[1])
	default:
		var c sym.Cond
		switch fn {
		case nn.OperatorEq:
			c = sym.Eq(exprs[0], exprs[1])
		case nn.OperatorNe:
			c = sym.Ne(exprs[0], exprs[1])
		case nn.OperatorLt:
			c = sym.Lt(exprs[0], exprs[1])
		case nn.OperatorLe:
			c = sym.Le(exprs[0], exprs[1])
		case nn.OperatorGt:
			c = sym.Gt(exprs[0], exprs[1])
		default:
			c = sym.Ge(exprs[0], exprs[1])
		}
		if !r.keepConds {
			return nn.Of(&sproxy{rec: r, cond: &c, fn: fn, args: nargs}), nil
		}
		// Replaying a program: the comparison stays a node, which a
		// runtime assertion (_assert_scalar) takes.
		n, err := r.rec.Create(node.CallFunction, fn, nargs, nil, "", c)
		if err != nil {
			return nn.None, err
		}
		return nn.Of(&sproxy{rec: r, n: n, cond: &c}), nil
	}
	if err != nil {
		return nn.None, fmt.Errorf("%s: %w", fn, err)
	}
	e = r.env.Simplify(e)
	c, isConst := e.Const()
	if isConst && !(r.keepConds && recorded) {
		return nn.Of(c), nil
	}
	if s, ok := r.syms[e.String()]; ok && !isConst {
		return nn.Of(s), nil
	}
	n, err := r.rec.Create(node.CallFunction, fn, nargs, nil, "", e)
	if err != nil {
		return nn.None, err
	}
	if isConst {
		// Replaying a program: arithmetic on sizes that simplifies to a
		// constant (Mod(8*s1, 8)) stays a node, as PyTorch's SymInts do,
		// for the runtime assertion that takes it.
		return nn.Of(&sproxy{rec: r, n: n, e: e}), nil
	}
	return nn.Of(r.symProxy(n, e)), nil
}

// specialize computes fn on the example values of its symbolic operands,
// recording the guards that fix them.
func (r *recorder) specialize(fn node.Function, args []nn.Value) (nn.Value, error) {
	w := where()
	conc := make([]nn.Value, len(args))
	for i, a := range args {
		s, ok := a.Raw().(*sproxy)
		if !ok {
			conc[i] = a
			continue
		}
		what := "an int"
		if s.cond != nil {
			what = "a bool"
		}
		v, err := s.Concrete(what, w)
		if err != nil {
			return nn.None, err
		}
		conc[i] = nn.Of(v)
	}
	return nn.ApplyFunction(fn, conc, nil)
}
