package sym

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gofx/gofx/internal/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixture: three backed symbols s0, s1, s2 and their expressions.
func fixture(t testing.TB) (env *Env, s0, s1, s2 Expr) {
	env, syms := newSyms(t, 3)
	return env, syms[0].Expr(), syms[1].Expr(), syms[2].Expr()
}

func c(v int64) Expr { return Const(v) }

func TestCanonicalEqualities(t *testing.T) {
	_, s0, s1, s2 := fixture(t)
	fd := func(a, b Expr) Expr { return a.FloorDiv(b) }
	md := func(a, b Expr) Expr { return a.Mod(b) }
	tests := []struct {
		name      string
		got, want Expr
	}{
		{"zero value is 0", Expr{}, c(0)},
		{"constant folding", c(3).Add(c(4)).Mul(c(2)).Sub(c(1)), c(13)},
		{"like terms", s0.Add(s0), s0.Mul(c(2))},
		{"cancel", s0.Sub(s0), c(0)},
		{"0*x", c(0).Mul(s0.Add(s1)), c(0)},
		{"1*x", c(1).Mul(s0), s0},
		{"distribute", s0.Add(c(1)).Mul(s0.Sub(c(1))), s0.Mul(s0).Sub(c(1))},
		{"commute", s1.Mul(s0).Add(s2), s2.Add(s0.Mul(s1))},
		{"neg", s0.Sub(s1).Neg(), s1.Sub(s0)},
		{"floordiv constants", fd(c(-7), c(2)), c(-4)},
		{"floordiv constants neg divisor", fd(c(7), c(-2)), c(-4)},
		{"x//1", fd(s0, c(1)), s0},
		{"x//-1", fd(s0, c(-1)), s0.Neg()},
		{"(a*k)//k", fd(s0.Mul(c(4)), c(4)), s0},
		{"(k*a + b)//k", fd(s0.Mul(c(4)).Add(s1), c(4)), s0.Add(fd(s1, c(4)))},
		{"(k*a + k*m)//k", fd(s0.Mul(c(4)).Add(c(8)), c(4)), s0.Add(c(2))},
		{"common factor", fd(s0.Mul(c(2)).Add(c(2)), c(4)), fd(s0.Add(c(1)), c(2))},
		{"nested floordiv", fd(fd(s0, c(2)), c(3)), fd(s0, c(6))},
		{"negative divisor normalized", fd(s0, c(-2)), fd(s0.Neg(), c(2))},
		{"symbolic divisor exact", fd(s0.Mul(s1).Add(s1.Mul(c(3))), s1), s0.Add(c(3))},
		{"symbolic divisor split", fd(s0.Mul(s1).Add(s2), s1), s0.Add(fd(s2, s1))},
		{"a//a", fd(s0.Add(s1), s0.Add(s1)), c(1)},
		{"0//a", fd(c(0), s0), c(0)},
		{"symbolic common factor", fd(s0.Mul(c(2)), s1.Mul(c(2))), fd(s0, s1)},
		{"mod constants", md(c(-7), c(3)), c(2)},
		{"mod constants neg divisor", md(c(7), c(-3)), c(-2)},
		{"x%1", md(s0, c(1)), c(0)},
		{"(k*a)%k", md(s0.Mul(c(4)), c(4)), c(0)},
		{"(k*a + b)%k", md(s0.Mul(c(4)).Add(s1), c(4)), md(s1, c(4))},
		{"mod constant reduced", md(s0.Add(c(5)), c(4)), md(s0.Add(c(1)), c(4))},
		{"mod common factor", md(s0.Mul(c(2)), c(4)), md(s0, c(2)).Mul(c(2))},
		{"nested mod", md(md(s0, c(8)), c(4)), md(s0, c(4))},
		{"a%a", md(s0.Mul(s1), s0.Mul(s1)), c(0)},
		{"(a*b)%b", md(s0.Mul(s1), s1), c(0)},
		{"min constants", Min(c(3), c(-2)), c(-2)},
		{"max constants", Max(c(3), c(-2)), c(3)},
		{"min(a,a)", Min(s0, s0), s0},
		{"min with constant offset", Min(s0.Add(c(1)), s0), s0},
		{"max with constant offset", Max(s0.Add(c(1)), s0), s0.Add(c(1))},
		{"min commutes", Min(s1, s0), Min(s0, s1)},
		{"subst", s0.Mul(s1).Subst(map[*Symbol]Expr{s1.Symbols()[0]: s0.Add(c(1))}), s0.Mul(s0).Add(s0)},
		{"subst into floordiv", fd(s0, s1).Subst(map[*Symbol]Expr{s1.Symbols()[0]: c(1)}), s0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.True(t, tt.got.Equal(tt.want), "got %v, want %v", tt.got, tt.want)
			assert.Equal(t, tt.want.String(), tt.got.String())
		})
	}
}

func TestConst(t *testing.T) {
	_, s0, _, _ := fixture(t)
	v, ok := c(5).Const()
	assert.True(t, ok)
	assert.Equal(t, int64(5), v)
	assert.True(t, c(5).IsConst())
	_, ok = s0.Const()
	assert.False(t, ok)
	assert.False(t, s0.IsConst())
	assert.True(t, s0.Sub(s0).Add(c(2)).IsConst())
}

// goldenExprs are printed to testdata/strings.golden.
func goldenExprs(t testing.TB) []struct {
	name string
	e    fmt.Stringer
} {
	env, s0, s1, s2 := fixture(t)
	u := env.NewUnbacked(Range{0, Inf}).Expr()
	fd := func(a, b Expr) Expr { return a.FloorDiv(b) }
	return []struct {
		name string
		e    fmt.Stringer
	}{
		{"symbol", s0},
		{"scaled", s0.Mul(c(2))},
		{"product", s1.Mul(s0)},
		{"square", s0.Mul(s0)},
		{"plus one", s0.Add(c(1))},
		{"affine", s0.Mul(c(2)).Sub(c(3))},
		{"negated", s0.Neg().Add(c(3))},
		{"sum sorted", s2.Add(s0).Add(s1)},
		{"polynomial", s0.Add(s1).Mul(s0.Add(s1))},
		{"floordiv", fd(s0, c(2))},
		{"floordiv of sum", fd(s0.Add(c(1)), c(2))},
		{"conv output", fd(s0.Sub(c(3)), c(2)).Add(c(1))},
		{"scaled floordiv", fd(s0, c(2)).Mul(c(2))},
		{"symbolic floordiv", fd(s0, s1)},
		{"mod", s0.Mod(c(4))},
		{"mod of sum", s0.Add(s1).Mod(c(4))},
		{"max", Max(c(1), s0)},
		{"min", Min(s1, s0)},
		{"max of max", Max(Max(s0, s1), s2)},
		{"unbacked", u.Mul(s0)},
		{"negative constant", c(-5)},
		{"cond ge", Ge(s0, c(2))},
		{"cond eq", Eq(s0, s1)},
		{"cond ne", Ne(s0, c(1))},
		{"cond lt", Lt(s0.Mul(s1), c(100))},
		{"cond not", Le(s0, s1).Not()},
		{"range", Range{2, 64}},
		{"range inf", Range{2, Inf}},
		{"range neginf", Range{NegInf, 5}},
		{"range full", Full},
	}
}

func TestStringGolden(t *testing.T) {
	var b strings.Builder
	for _, g := range goldenExprs(t) {
		fmt.Fprintf(&b, "%s: %v\n", g.name, g.e)
	}
	golden.Check(t, filepath.Join("testdata", "strings.golden"), b.String())
}

// TestPythonReference compares Eval with Python's values for the expressions of
// testdata/pyeval.txt (written by testdata/gen_pyeval.py).
func TestPythonReference(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "pyeval.txt"))
	require.NoError(t, err)
	defer f.Close()
	_, syms := newSyms(t, 3)
	sc := bufio.NewScanner(f)
	n, zero := 0, 0
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		require.Len(t, parts, 3)
		tr, err := parseTree(parts[0])
		require.NoError(t, err, parts[0])
		var vals []int64
		for _, f := range strings.Fields(parts[1]) {
			v, err := strconv.ParseInt(f, 10, 64)
			require.NoError(t, err)
			vals = append(vals, v)
		}
		e, err := tr.build(syms)
		if parts[2] == "ZeroDivisionError" {
			zero++
			continue // the canonical form may have simplified the division away
		}
		require.NoError(t, err, parts[0])
		got, err := e.Eval(valueMap(syms, vals))
		require.NoError(t, err, "%s = %v at %v", parts[0], e, vals)
		assert.Equal(t, parts[2], strconv.FormatInt(got, 10), "%s = %v at %v", parts[0], e, vals)
		n++
	}
	require.NoError(t, sc.Err())
	require.Greater(t, n, 1000)
	require.Greater(t, zero, 0)
}

func TestDivisionByZero(t *testing.T) {
	_, s0, s1, _ := fixture(t)
	_, err := FloorDivErr(s0, c(0))
	require.ErrorIs(t, err, errDivZero)
	require.ErrorContains(t, err, "s0 // 0")
	_, err = ModErr(s0, s1.Sub(s1))
	require.ErrorIs(t, err, errDivZero)
	require.ErrorContains(t, err, "s0 % 0")
	_, err = FloorDivErr(c(3), c(0))
	require.Error(t, err)
	require.PanicsWithValue(t, "sym: FloorDiv(s0, 0): sym: floor division s0 // 0: division by zero (use FloorDivErr)",
		func() { s0.FloorDiv(c(0)) })
	require.Panics(t, func() { s0.Mod(c(0)) })

	// A divisor that substitution makes 0 stays unevaluated; Eval reports it.
	e := s0.FloorDiv(s1)
	z := e.Subst(map[*Symbol]Expr{s1.Symbols()[0]: c(0)})
	assert.Equal(t, "(s0//0)", z.String())
	_, err = z.Eval(map[*Symbol]int64{s0.Symbols()[0]: 4})
	require.ErrorIs(t, err, errDivZero)
	_, err = s0.Mod(s1).Eval(map[*Symbol]int64{s0.Symbols()[0]: 4, s1.Symbols()[0]: 0})
	require.ErrorIs(t, err, errDivZero)
}

func TestEval(t *testing.T) {
	_, s0, s1, _ := fixture(t)
	a, b := s0.Symbols()[0], s1.Symbols()[0]
	tests := []struct {
		name    string
		e       Expr
		vals    map[*Symbol]int64
		want    int64
		wantErr string
	}{
		{"poly", s0.Mul(s1).Add(c(3)), map[*Symbol]int64{a: 4, b: -5}, -17, ""},
		{"floordiv negative", s0.FloorDiv(c(4)), map[*Symbol]int64{a: -7}, -2, ""},
		{"mod negative", s0.Mod(c(4)), map[*Symbol]int64{a: -7}, 1, ""},
		{"mod negative divisor", s0.Mod(s1), map[*Symbol]int64{a: 7, b: -4}, -1, ""},
		{"max", Max(s0, s1), map[*Symbol]int64{a: 7, b: 9}, 9, ""},
		{"missing", s0.Add(s1), map[*Symbol]int64{a: 7}, 0, "no value for symbol s1"},
		{"overflow", s0.Mul(s0), map[*Symbol]int64{a: 1 << 40}, 0, "overflow"},
		{"overflow add", s0.Add(s1), map[*Symbol]int64{a: 1 << 62, b: 1 << 62}, 0, "overflow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.e.Eval(tt.vals)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestSymbols(t *testing.T) {
	env, s0, s1, s2 := fixture(t)
	e := Max(s2, s0.FloorDiv(s1)).Add(s1)
	assert.Equal(t, []string{"s0", "s1", "s2"}, names(e.Symbols()))
	assert.Empty(t, c(4).Symbols())
	assert.Equal(t, []string{"s0", "s1", "s2"}, names(env.Symbols()))
}

func names(ss []*Symbol) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Name()
	}
	return out
}

func TestRangeType(t *testing.T) {
	tests := []struct {
		r     Range
		v     int64
		in    bool
		empty bool
	}{
		{Range{2, 64}, 2, true, false},
		{Range{2, 64}, 65, false, false},
		{Range{2, Inf}, 1 << 60, true, false},
		{Range{NegInf, 5}, -1 << 60, true, false},
		{Range{5, 4}, 5, false, true},
		{Range{Inf, Inf}, Inf, false, true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.in, tt.r.Contains(tt.v), "%v contains %d", tt.r, tt.v)
		assert.Equal(t, tt.empty, tt.r.Empty(), "%v empty", tt.r)
	}
}

func TestRelString(t *testing.T) {
	assert.Equal(t, "<=", LE.String())
	assert.Equal(t, "Rel(9)", Rel(9).String())
	for _, r := range []Rel{EQ, NE, LT, LE, GT, GE} {
		assert.Equal(t, r, r.negate().negate())
		for v := int64(-2); v <= 2; v++ {
			assert.NotEqual(t, r.holds(v), r.negate().holds(v))
		}
	}
}
