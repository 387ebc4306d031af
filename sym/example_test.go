package sym_test

import (
	"errors"
	"fmt"

	"github.com/gofx/gofx/sym"
)

// Expressions simplify to a canonical form as they are built.
func ExampleExpr() {
	env := sym.NewEnv()
	s0, _ := env.NewSymbol("s0", 32, sym.Range{Lo: 2, Hi: sym.Inf})
	s1, _ := env.NewSymbol("s1", 8, sym.Range{Lo: 1, Hi: 64})
	x, y := s0.Expr(), s1.Expr()

	fmt.Println(x.Add(x).Sub(sym.Const(3)))
	fmt.Println(x.Add(sym.Const(1)).Mul(x.Sub(sym.Const(1))))
	fmt.Println(x.Mul(sym.Const(4)).Add(y).FloorDiv(sym.Const(4)))
	fmt.Println(x.Sub(sym.Const(3)).FloorDiv(sym.Const(2)).Add(sym.Const(1))) // a conv output size
	fmt.Println(x.Mul(y).Mod(y), sym.Max(sym.Const(1), y))

	v, err := x.Mul(y).FloorDiv(sym.Const(3)).Eval(map[*sym.Symbol]int64{s0: -5, s1: 2})
	fmt.Println(v, err)
	fmt.Println(env.Range(x.Mul(y).Add(sym.Const(1))))
	// Output:
	// 2*s0 - 3
	// s0**2 - 1
	// s0 + (s1//4)
	// ((s0 - 3)//2) + 1
	// 0 Max(1, s1)
	// -4 <nil>
	// [3, int_oo]
}

// Decide answers a condition from the ranges when it can, and otherwise from the example
// values, recording a guard and learning from it.
func ExampleEnv_Decide() {
	env := sym.NewEnv()
	batch, _ := env.NewSymbol("s0", 32, sym.Range{Lo: 2, Hi: 1024})
	other, _ := env.NewSymbol("s1", 32, sym.Range{Lo: 2, Hi: 1024})
	b, o := batch.Expr(), other.Expr()

	ok, _ := env.Decide(sym.Ge(b, sym.Const(1)), "model.go:10") // settled: no guard
	fmt.Println(ok, len(env.Guards()))

	ok, _ = env.Decide(sym.Gt(b, sym.Const(16)), "model.go:11") // guard from the hint 32
	fmt.Println(ok, env.RangeOf(batch))

	ok, _ = env.Decide(sym.Eq(b, o), "model.go:12") // s1 becomes s0
	fmt.Println(ok, env.Simplify(o.Mul(b)), env.Equalities())

	for _, g := range env.Guards() {
		fmt.Println(g)
	}

	n := env.NewUnbacked(sym.Range{Lo: 0, Hi: sym.Inf}) // e.g. the length of nonzero's output
	_, err := env.Decide(sym.Eq(n.Expr(), sym.Const(0)), "model.go:13")
	var dde *sym.DataDependentError
	fmt.Println(errors.As(err, &dde), dde.Cond)
	_ = env.Check(sym.Gt(n.Expr(), sym.Const(0)), "model.go:14")
	ok, err = env.Decide(sym.Eq(n.Expr(), sym.Const(0)), "model.go:15")
	fmt.Println(ok, err)
	// Output:
	// true 0
	// true [17, 1024]
	// true s0**2 [[s0 s1]]
	// s0 > 16 (at model.go:11)
	// Eq(s0, s1) (at model.go:12)
	// true Eq(u0, 0)
	// false <nil>
}
