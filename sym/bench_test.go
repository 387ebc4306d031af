package sym

import (
	"strconv"
	"testing"
)

// BenchmarkAddMul builds a 100-term polynomial sum(i * s_i * s_(i+1)) + 1 term by term.
func BenchmarkAddMul(b *testing.B) {
	env := NewEnv()
	syms := make([]Expr, 101)
	for i := range syms {
		s, err := env.NewSymbol("s"+strconv.Itoa(i), 2, Full)
		if err != nil {
			b.Fatal(err)
		}
		syms[i] = s.Expr()
	}
	b.ReportAllocs()
	for b.Loop() {
		e := Const(1)
		for i := range 100 {
			e = e.Add(Const(int64(i + 1)).Mul(syms[i]).Mul(syms[i+1]))
		}
		if len(e.terms) != 100 {
			b.Fatal(e)
		}
	}
}

// BenchmarkDecide decides, on a fresh Env, a mix of settled conditions, guards and an
// equality, as a trace of a model with two dynamic dims does.
func BenchmarkDecide(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		env := NewEnv()
		s0, _ := env.NewSymbol("s0", 32, Range{2, 1024})
		s1, _ := env.NewSymbol("s1", 32, Range{2, 1024})
		x, y := s0.Expr(), s1.Expr()
		conv := x.Sub(Const(3)).FloorDiv(Const(2)).Add(Const(1))
		for _, c := range []Cond{
			Ge(x, Const(1)), Gt(x, Const(16)), Eq(x, y), Ne(conv, Const(1)),
			Eq(x.Mul(y), y.Mul(x)), Le(conv.Mul(Const(2)), x), Lt(x.Mod(Const(8)), Const(8)),
		} {
			if _, err := env.Decide(c, "bench.go:1"); err != nil {
				b.Fatal(err)
			}
		}
	}
}
