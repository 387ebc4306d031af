package sym

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSrepr checks the printer against expr_str values that PyTorch 2.6 and
// 2.14 wrote into the .pt2 files of ../shared/pt2 (the symbols renamed to
// this env's s0, s1 where the files say s6, s11).
func TestSrepr(t *testing.T) {
	env, s0, s1, _ := fixture(t)
	u0 := env.NewUnbacked(Range{Lo: 0, Hi: Inf}).Expr()
	const (
		sym0 = "Symbol('s0', positive=True, integer=True)"
		sym1 = "Symbol('s1', positive=True, integer=True)"
	)
	tests := []struct {
		e    Expr
		want string
	}{
		{s0, sym0},
		{c(7), "Integer(7)"},
		{c(-3), "Integer(-3)"},
		{u0, "Symbol('u0', integer=True)"},
		{s1.Mul(c(96)), "Mul(Integer(96), " + sym1 + ")"},
		{s0.Mul(s1), "Mul(" + sym0 + ", " + sym1 + ")"},
		{s1.Mul(s1), "Pow(" + sym1 + ", Integer(2))"},
		{s1.Mul(s1).Mul(c(4)), "Mul(Integer(4), Pow(" + sym1 + ", Integer(2)))"},
		{s0.Add(c(1)), "Add(Integer(1), " + sym0 + ")"},
		{s0.Neg(), "Mul(Integer(-1), " + sym0 + ")"},
		{s0.FloorDiv(c(2)), "FloorDiv(" + sym0 + ", Integer(2))"},
		{s0.Mod(c(4)), "PythonMod(" + sym0 + ", Integer(4))"},
		{Max(c(1), s0.Sub(s1)), "Max(Integer(1), Add(" + sym0 + ", Mul(Integer(-1), " + sym1 + ")))"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.e.Srepr(), "%s", tt.e)
	}
	conds := []struct {
		c    Cond
		want string
	}{
		{Gt(s0, c(4)), "StrictGreaterThan(" + sym0 + ", Integer(4))"},
		{Le(u0, c(6)), "LessThan(Symbol('u0', integer=True), Integer(6))"},
		{Ge(u0, c(0)), "GreaterThan(Symbol('u0', integer=True), Integer(0))"},
		{Eq(s0, s1), "Equality(" + sym0 + ", " + sym1 + ")"},
		{Ne(s0, c(1)), "Unequality(" + sym0 + ", Integer(1))"},
		{Lt(s0, c(9)), "StrictLessThan(" + sym0 + ", Integer(9))"},
	}
	for _, tt := range conds {
		require.Equal(t, tt.want, tt.c.Srepr(), "%s", tt.c)
	}
}
