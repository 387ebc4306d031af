package shapeprop

import (
	"fmt"

	"github.com/gofx/gofx/sym"
)

// MergeBranches is the fake of a cond's result whose branches give a and
// b, as PyTorch's cond merges them (torch/_higher_order_ops/cond.py,
// _merge_output, PyTorch 2.7 and later; 2.6 refuses such a program):
// dtype and rank must agree; a dimension where the two sizes differ, or
// where either holds an unbacked symbol, becomes a fresh unbacked size u
// of env whose range spans both (a constant's own value, a lone symbol's
// range, anything else unbounded), and a dimension where they agree
// keeps its size. The result is contiguous when both are; fresh lists
// the symbols made, in dimension order. An error says what differs.
//
// For x[:2] in one branch and x[:3] in the other, the result has size u0
// in [2, 3]; for x (s0 in [4, 100]) and x[1:] (s0 - 1), u0 in
// [-int_oo, int_oo], which export then constrains as a size ([0, int_oo]).
func MergeBranches(env *sym.Env, a, b *Fake) (merged *Fake, fresh []*sym.Symbol, err error) {
	if a.DType != b.DType {
		return nil, nil, fmt.Errorf("dtype %s vs %s", a.DType, b.DType)
	}
	if len(a.Shape) != len(b.Shape) {
		return nil, nil, fmt.Errorf("rank %d (shape %s) vs %d (shape %s)", len(a.Shape), a, len(b.Shape), b)
	}
	merged = &Fake{DType: a.DType, Shape: make([]sym.Expr, len(a.Shape)), Contiguous: a.Contiguous && b.Contiguous}
	for i := range a.Shape {
		da, db := env.Simplify(a.Shape[i]), env.Simplify(b.Shape[i])
		if !hasUnbacked(da) && !hasUnbacked(db) && da.Equal(db) {
			merged.Shape[i] = da
			continue
		}
		ra, rb := loneRange(env, da), loneRange(env, db)
		u := env.NewUnbacked(sym.Range{Lo: min(ra.Lo, rb.Lo), Hi: max(ra.Hi, rb.Hi)})
		fresh = append(fresh, u)
		merged.Shape[i] = u.Expr()
	}
	return merged, fresh, nil
}

// hasUnbacked reports whether e holds an unbacked symbol.
func hasUnbacked(e sym.Expr) bool {
	for _, s := range e.Symbols() {
		if !s.Backed() {
			return true
		}
	}
	return false
}

// loneRange is the range PyTorch's _merge_output bounds a size by: a
// constant's value, a lone symbol's range, else unbounded.
func loneRange(env *sym.Env, e sym.Expr) sym.Range {
	if c, ok := e.Const(); ok {
		return sym.Range{Lo: c, Hi: c}
	}
	ss := e.Symbols()
	if len(ss) == 1 && ss[0].Expr().Equal(e) {
		return env.RangeOf(ss[0])
	}
	return sym.Full
}
