package sym

import (
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func newSyms(t testing.TB, n int) (*Env, []*Symbol) {
	env := NewEnv()
	syms := make([]*Symbol, n)
	for i := range syms {
		s, err := env.NewSymbol("s"+string(rune('0'+i)), 0, Full)
		require.NoError(t, err)
		syms[i] = s
	}
	return env, syms
}

func valueMap(syms []*Symbol, vals []int64) map[*Symbol]int64 {
	m := make(map[*Symbol]int64, len(syms))
	for i, s := range syms {
		m[s] = vals[i]
	}
	return m
}

// checkTree compares the canonical form of tr with its naive evaluation at vals. It returns
// false when the point is skipped (a naive division by zero, or values too large).
func checkTree(t testing.TB, tr *tree, syms []*Symbol, vals []int64) bool {
	t.Helper()
	e, buildErr := tr.build(syms)
	want, naiveErr := tr.naive(vals)
	if buildErr != nil {
		// Only a divisor that is the constant 0 fails to build, and it is 0 everywhere,
		// unless its coefficients wrapped to 0 (int64 coefficients wrap: doc.go), which
		// only happens past the int64 range.
		require.ErrorIs(t, buildErr, errDivZero, "%v", tr)
		if naiveErr == nil && tr.magnitude(vals).Cmp(limit62) > 0 {
			return false
		}
		require.ErrorIs(t, naiveErr, errNaiveDiv, "%v builds with error %v but evaluates naively", tr, buildErr)
		return false
	}
	if naiveErr != nil || tr.magnitude(vals).Cmp(limit62) > 0 {
		return false
	}
	got, err := e.Eval(valueMap(syms, vals))
	require.NoError(t, err, "%v = %v at %v", tr, e, vals)
	require.Equal(t, want.String(), big64(got), "%v canonical %v at %v", tr, e, vals)
	return true
}

func big64(v int64) string { return big.NewInt(v).String() }

func randVals(rng *rand.Rand, n int) []int64 {
	vals := make([]int64, n)
	for i := range vals {
		vals[i] = int64(rng.IntN(19) - 9)
	}
	return vals
}

// TestEvalMatchesNaive: the canonical form evaluates like the expression as written, with
// Python's // and % also for negative operands.
func TestEvalMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	_, syms := newSyms(t, 3)
	checked := 0
	for range 4000 {
		tr := randTree(rng, 4, len(syms))
		for range 4 {
			if checkTree(t, tr, syms, randVals(rng, len(syms))) {
				checked++
			}
		}
	}
	require.Greater(t, checked, 8000, "too many points skipped")
}

// TestCanonicalLaws: ring laws hold as equalities of canonical forms.
func TestCanonicalLaws(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	_, syms := newSyms(t, 3)
	gen := func() Expr {
		for {
			if e, err := randTree(rng, 3, len(syms)).build(syms); err == nil {
				return e
			}
		}
	}
	for range 2000 {
		a, b, c := gen(), gen(), gen()
		require.True(t, a.Add(b).Equal(b.Add(a)), "%v + %v", a, b)
		require.True(t, a.Mul(b).Equal(b.Mul(a)), "%v * %v", a, b)
		require.True(t, a.Sub(a).Equal(Const(0)), "%v - itself", a)
		require.True(t, a.Add(b).Sub(b).Equal(a), "%v + %v - %v", a, b, b)
		require.True(t, a.Add(b).Mul(c).Equal(a.Mul(c).Add(b.Mul(c))), "(%v + %v) * %v", a, b, c)
		require.True(t, a.Mul(b).Mul(c).Equal(a.Mul(b.Mul(c))), "(%v * %v) * %v", a, b, c)
		require.True(t, a.Neg().Neg().Equal(a), "--%v", a)
		require.True(t, Min(a, b).Equal(Min(b, a)), "Min(%v, %v)", a, b)
		require.True(t, Max(a, b).Equal(Max(b, a)), "Max(%v, %v)", a, b)
		require.Equal(t, a.Add(b).String(), b.Add(a).String())
	}
}

// randRange draws a range with possibly unbounded ends.
func randRange(rng *rand.Rand) Range {
	lo := int64(rng.IntN(21) - 10)
	hi := lo + int64(rng.IntN(12))
	switch rng.IntN(6) {
	case 0:
		lo = NegInf
	case 1:
		hi = Inf
	}
	return Range{lo, hi}
}

// pick draws a value of r, often an end.
func pick(rng *rand.Rand, r Range) int64 {
	lo, hi := r.Lo, r.Hi
	if lo == NegInf {
		lo = min(hi, 0) - 30
	}
	if hi == Inf {
		hi = max(lo, 0) + 30
	}
	switch rng.IntN(4) {
	case 0:
		return lo
	case 1:
		return hi
	}
	return lo + rng.Int64N(hi-lo+1)
}

// TestRangeSound: for random expressions and symbol ranges, the value at any point inside
// the ranges lies in Env.Range, and Env.Simplify (which uses ranges) keeps the value.
func TestRangeSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	inside := 0
	for range 600 {
		env := NewEnv()
		syms := make([]*Symbol, 3)
		for i := range syms {
			r := randRange(rng)
			s, err := env.NewSymbol("s"+string(rune('0'+i)), pick(rng, r), r)
			require.NoError(t, err)
			syms[i] = s
		}
		for range 5 {
			tr := randTree(rng, 3, len(syms))
			e, err := tr.build(syms)
			if err != nil {
				continue
			}
			r := env.Range(e)
			se := env.Simplify(e)
			for range 8 {
				vals := make([]int64, len(syms))
				for i, s := range syms {
					vals[i] = pick(rng, env.RangeOf(s))
				}
				m := valueMap(syms, vals)
				v, err := e.Eval(m)
				if err != nil {
					continue // a division by zero at this point
				}
				require.True(t, r.Contains(v), "%v = %d at %v outside Range %v (ranges %v)", e, v, vals, r, env)
				sv, err := se.Eval(m)
				require.NoError(t, err, "Simplify(%v) = %v at %v", e, se, vals)
				require.Equal(t, v, sv, "Simplify(%v) = %v at %v (ranges %v)", e, se, vals, env)
				inside++
			}
		}
	}
	require.Greater(t, inside, 10000)
}

// FuzzExpr builds expressions from bytes: building never panics, and the canonical form
// evaluates like the tree wherever the tree evaluates.
func FuzzExpr(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{13, 13, 0, 1, 3, 2, 9, 0, 3, 4})
	f.Add([]byte{16, 0, 5, 3, 250, 19, 1, 7, 3, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		_, syms := newSyms(t, 3)
		tr := bytesTree(data, len(syms))
		vals := []int64{-7, 0, 5}
		if len(data) > 3 {
			vals = []int64{int64(int8(data[0])) % 16, int64(int8(data[1])) % 16, int64(int8(data[2])) % 16}
		}
		checkTree(t, tr, syms, vals)
		if e, err := tr.build(syms); err == nil {
			_ = e.String()
			env := NewEnv()
			_ = env.Range(e)
		} else if !errors.Is(err, errDivZero) {
			t.Fatalf("build %v: %v", tr, err)
		}
	})
}

// TestDecideSound: after random guards are taken, at every point of the original ranges
// where all guards hold, each expression keeps its value under Env.Simplify and lies in
// Env.Range, and every decision Decide settled without a guard has the same answer.
func TestDecideSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	rels := []Rel{EQ, NE, LT, LE, GT, GE}
	points := 0
	for range 150 {
		env := NewEnv()
		syms := make([]*Symbol, 3)
		orig := make([]Range, 3)
		hints := make([]int64, 3)
		for i := range syms {
			lo := int64(rng.IntN(5) - 4)
			orig[i] = Range{lo, lo + int64(rng.IntN(8))}
			hints[i] = pick(rng, orig[i])
			s, err := env.NewSymbol("s"+string(rune('0'+i)), hints[i], orig[i])
			require.NoError(t, err)
			syms[i] = s
		}
		gen := func(depth int) Expr {
			for {
				if e, err := randTree(rng, depth, len(syms)).build(syms); err == nil {
					return e
				}
			}
		}
		type settled struct {
			c    Cond
			want bool
		}
		var decided []settled
		for range 6 {
			c := Cond{Rel: rels[rng.IntN(len(rels))], L: gen(2), R: gen(1)}
			n := len(env.Guards())
			got, err := env.Decide(c, "p.go:1")
			if err != nil {
				require.ErrorIs(t, err, errDivZero, "%v", c)
				continue
			}
			want, err := c.Eval(valueMap(syms, hints))
			if err != nil {
				continue // undefined at the hints (a division by zero the canonical form dropped)
			}
			require.Equal(t, want, got, "Decide(%v) at the hints %v", c, hints)
			if len(env.Guards()) == n {
				decided = append(decided, settled{c, got})
			}
		}
		exprs := []Expr{gen(3), gen(3), gen(2)}
		for _, s := range syms {
			exprs = append(exprs, s.Expr())
		}
		simp := make([]Expr, len(exprs))
		ranges := make([]Range, len(exprs))
		for i, e := range exprs {
			simp[i], ranges[i] = env.Simplify(e), env.Range(e)
		}
		vals := make([]int64, 3)
		var rec func(i int)
		rec = func(i int) {
			if i < 3 {
				for v := orig[i].Lo; v <= orig[i].Hi; v++ {
					vals[i] = v
					rec(i + 1)
				}
				return
			}
			m := valueMap(syms, vals)
			for _, g := range env.Guards() {
				if ok, err := g.Cond.Eval(m); err != nil || !ok {
					return
				}
			}
			points++
			for _, d := range decided {
				if got, err := d.c.Eval(m); err == nil {
					require.Equal(t, d.want, got, "settled %v at %v (env %v)", d.c, vals, env)
				}
			}
			for i, e := range exprs {
				v, err := e.Eval(m)
				if err != nil {
					continue
				}
				require.True(t, ranges[i].Contains(v), "%v = %d at %v outside %v (env %v)", e, v, vals, ranges[i], env)
				sv, err := simp[i].Eval(m)
				require.NoError(t, err, "Simplify(%v) = %v at %v (env %v)", e, simp[i], vals, env)
				require.Equal(t, v, sv, "Simplify(%v) = %v at %v (env %v)", e, simp[i], vals, env)
			}
		}
		rec(0)
	}
	require.Greater(t, points, 1000)
}
