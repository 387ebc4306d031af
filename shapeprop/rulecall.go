package shapeprop

import (
	"fmt"

	"github.com/gofx/gofx/sym"
)

// Fake returns argument i as a fake tensor (nil for None).
func (c *RuleCall) Fake(i int) *Fake { f, _ := c.Args[i].(*Fake); return f }

// Fakes returns argument i as a list of fake tensors.
func (c *RuleCall) Fakes(i int) []*Fake { fs, _ := c.Args[i].([]*Fake); return fs }

// Int returns argument i as an expression, and false for None.
func (c *RuleCall) Int(i int) (sym.Expr, bool) { e, ok := c.Args[i].(sym.Expr); return e, ok }

// Ints returns argument i as a list of expressions (nil for None).
func (c *RuleCall) Ints(i int) []sym.Expr { es, _ := c.Args[i].([]sym.Expr); return es }

// Bool returns argument i as a bool (false for None or i < 0).
func (c *RuleCall) Bool(i int) bool {
	if i < 0 {
		return false
	}
	b, _ := c.Args[i].(bool)
	return b
}

// argIndex returns the position of the argument called name, or -1.
func (c *RuleCall) argIndex(name string) int {
	for i, a := range c.Op.Schema().Args {
		if a.Name == name {
			return i
		}
	}
	return -1
}

// Decide decides cond in the call's environment, recording a guard at the
// call's location when the symbols' ranges do not settle it.
func (c *RuleCall) Decide(cond sym.Cond) (bool, error) {
	if l, ok := cond.L.Const(); ok {
		if r, ok := cond.R.Const(); ok {
			switch cond.Rel {
			case sym.EQ:
				return l == r, nil
			case sym.NE:
				return l != r, nil
			case sym.LT:
				return l < r, nil
			case sym.LE:
				return l <= r, nil
			case sym.GT:
				return l > r, nil
			default:
				return l >= r, nil
			}
		}
	}
	if cond.Rel == sym.EQ && cond.L.Equal(cond.R) {
		return true, nil
	}
	return c.Env.Decide(cond, c.Where)
}

// eq decides a == b.
func (c *RuleCall) eq(a, b sym.Expr) (bool, error) { return c.Decide(sym.Eq(a, b)) }

// isOne decides d == 1 size-obliviously, as PyTorch asks whether a dim
// broadcasts: a size-like unbacked symbol is taken to be at least 2.
func (c *RuleCall) isOne(d sym.Expr) (bool, error) {
	if v, ok := d.Const(); ok {
		return v == 1, nil
	}
	return c.Env.DecideSizeOblivious(sym.Eq(d, one), c.Where)
}

var (
	zero = sym.Const(0)
	one  = sym.Const(1)
)

// mustEq decides a == b and fails with the error made by msg when not.
func (c *RuleCall) mustEq(a, b sym.Expr, msg func() string) error {
	ok, err := c.eq(a, b)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s", msg())
	}
	return nil
}

// Broadcast returns the broadcast of shapes, deciding every pair of dims
// as PyTorch does: a dim of 1 takes the other, otherwise both must be
// equal (a guard when only the hints say so).
func (c *RuleCall) Broadcast(shapes ...[]sym.Expr) ([]sym.Expr, error) {
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	if len(shapes) == 1 {
		return shapes[0], nil
	}
	out := make([]sym.Expr, rank)
	for i := 1; i <= rank; i++ {
		set := false
		var cur sym.Expr
		for _, s := range shapes {
			if len(s) < i {
				continue
			}
			d := s[len(s)-i]
			if !set {
				cur, set = d, true
				continue
			}
			var err error
			if cur, err = c.broadcastDim(cur, d, rank-i); err != nil {
				return nil, err
			}
		}
		out[rank-i] = cur
	}
	return out, nil
}

func (c *RuleCall) broadcastDim(a, b sym.Expr, dim int) (sym.Expr, error) {
	if a.Equal(b) {
		return a, nil
	}
	if ok, err := c.isOne(a); err != nil || ok {
		return b, err
	}
	if ok, err := c.isOne(b); err != nil || ok {
		return a, err
	}
	ok, err := c.eq(a, b)
	if err != nil {
		return sym.Expr{}, err
	}
	if !ok {
		return sym.Expr{}, fmt.Errorf("the size of tensor a (%s) must match the size of tensor b (%s) at non-singleton dimension %d", a, b, dim)
	}
	if b.IsConst() {
		return b, nil
	}
	return a, nil
}

// dim returns argument i as a dimension index wrapped into [0, rank): a
// constant (a symbolic one is specialized to its hint).
func (c *RuleCall) dim(i, rank int) (int, error) {
	e, ok := c.Int(i)
	if !ok {
		return 0, fmt.Errorf("argument %d: expected a dimension, got None", i)
	}
	return c.wrapDim(e, rank)
}

func (c *RuleCall) wrapDim(e sym.Expr, rank int) (int, error) {
	d, err := c.concrete(e)
	if err != nil {
		return 0, err
	}
	r := int64(max(rank, 1))
	if d < -r || d >= r {
		return 0, torchErr("Dimension out of range (expected to be in range of [%d, %d], but got %d)", -r, r-1, d)
	}
	if d < 0 {
		d += r
	}
	return int(d), nil
}

// concrete returns e's value: a constant, or a symbolic expression
// specialized to its hint (with a guard).
func (c *RuleCall) concrete(e sym.Expr) (int64, error) {
	if v, ok := e.Const(); ok {
		return v, nil
	}
	v, err := c.hints().hint(e)
	if err != nil {
		return 0, err
	}
	ok, err := c.eq(e, sym.Const(v))
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, fmt.Errorf("cannot specialize %s to %d", e, v)
	}
	return v, nil
}

// results returns n copies of f (for operators whose returns share a
// shape).
func results(fs ...*Fake) []any {
	out := make([]any, len(fs))
	for i, f := range fs {
		out[i] = f
	}
	return out
}

// fake returns a contiguous fake of shape sh (dtype from the meta run).
func fake(sh []sym.Expr) *Fake { return &Fake{Shape: sh, Contiguous: true} }

// consts returns the constant expressions of vs.
func consts(vs ...int64) []sym.Expr {
	out := make([]sym.Expr, len(vs))
	for i, v := range vs {
		out[i] = sym.Const(v)
	}
	return out
}

// prod returns the product of es.
func prod(es []sym.Expr) sym.Expr {
	p := one
	for _, e := range es {
		p = p.Mul(e)
	}
	return p
}

// ceilDiv returns ceil(a / b) for b > 0.
func ceilDiv(a, b sym.Expr) sym.Expr { return a.Add(b).Sub(one).FloorDiv(b) }

// torchErr makes an error spelled as PyTorch's message, which may start
// with a capital or end with a period.
func torchErr(format string, a ...any) error { return fmt.Errorf(format, a...) }
