package sym

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func guardStrings(gs []Guard) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.String()
	}
	return out
}

func mustSym(t *testing.T, env *Env, name string, hint int64, r Range) *Symbol {
	t.Helper()
	s, err := env.NewSymbol(name, hint, r)
	require.NoError(t, err)
	return s
}

func TestNewSymbolErrors(t *testing.T) {
	env := NewEnv()
	mustSym(t, env, "s0", 4, Range{2, 64})
	tests := []struct {
		name    string
		sym     string
		hint    int64
		r       Range
		wantErr string
	}{
		{"duplicate", "s0", 4, Range{2, 64}, `NewSymbol("s0"): a symbol of that name already exists`},
		{"empty name", "", 4, Range{2, 64}, "empty symbol name"},
		{"empty range", "s1", 4, Range{5, 4}, `NewSymbol("s1"): empty range [5, 4]`},
		{"inf lower end", "s1", 4, Range{Inf, Inf}, "empty range [int_oo, int_oo]"},
		{"hint outside", "s1", 1, Range{2, 64}, `NewSymbol("s1"): hint 1 outside the range [2, 64]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := env.NewSymbol(tt.sym, tt.hint, tt.r)
			require.ErrorContains(t, err, tt.wantErr)
		})
	}
	assert.Len(t, env.Symbols(), 1)
	s, ok := env.Lookup("s0")
	require.True(t, ok)
	h, backed := s.Hint()
	assert.True(t, backed && s.Backed())
	assert.Equal(t, int64(4), h)
	_, ok = env.Lookup("s1")
	assert.False(t, ok)
}

func TestUnbackedNames(t *testing.T) {
	env := NewEnv()
	mustSym(t, env, "u1", 3, Full)
	u0 := env.NewUnbacked(Range{0, Inf})
	u2 := env.NewUnbacked(Range{0, Inf})
	assert.Equal(t, "u0", u0.Name())
	assert.Equal(t, "u2", u2.Name(), "u1 is taken")
	assert.False(t, u0.Backed())
	_, ok := u0.Hint()
	assert.False(t, ok)
	assert.Equal(t, Range{0, Inf}, env.RangeOf(u0))

	bad := env.NewUnbacked(Range{3, 1})
	_, err := env.Decide(Ge(bad.Expr(), Const(0)), "f.go:1")
	require.ErrorContains(t, err, "symbol u3 has the empty range [3, 1]")
}

func TestConstrain(t *testing.T) {
	env := NewEnv()
	s0 := mustSym(t, env, "s0", 8, Range{2, 64})
	require.NoError(t, env.Constrain(s0, Range{4, 100}))
	assert.Equal(t, Range{4, 64}, env.RangeOf(s0))
	require.ErrorContains(t, env.Constrain(s0, Range{70, 80}), "Constrain(s0, [70, 80]): the symbol's range [4, 64] does not meet it")
	require.ErrorContains(t, env.Constrain(s0, Range{10, 20}), "example value 8")
	assert.Equal(t, Range{4, 64}, env.RangeOf(s0), "unchanged after errors")
	other := mustSym(t, NewEnv(), "s0", 8, Full)
	require.ErrorContains(t, env.Constrain(other, Full), "belongs to another Env")
	assert.Equal(t, Full, env.RangeOf(other))
}

// TestDecide walks through the cases of the ShapeEnv: conditions settled by ranges, guards
// recorded from hints, and what is learned from them.
func TestDecide(t *testing.T) {
	type step struct {
		cond       func(s0, s1, s2 Expr) Cond
		want       bool
		wantErr    string
		wantGuards []string // all guards after the step
	}
	tests := []struct {
		name   string
		hints  [3]int64
		ranges [3]Range
		steps  []step
		check  func(t *testing.T, env *Env, s []*Symbol)
	}{
		{
			name: "statically true, no guard", hints: [3]int64{32, 32, 5},
			ranges: [3]Range{{2, 64}, {2, Inf}, {2, Inf}},
			steps: []step{
				{cond: func(s0, _, _ Expr) Cond { return Ge(s0, Const(1)) }, want: true},
				{cond: func(s0, _, _ Expr) Cond { return Lt(s0, Const(65)) }, want: true},
				{cond: func(s0, _, _ Expr) Cond { return Eq(s0, Const(1)) }, want: false},
				{cond: func(s0, s1, _ Expr) Cond { return Gt(s0.Mul(s1), Const(3)) }, want: true},
				{cond: func(s0, _, _ Expr) Cond { return Ne(s0.FloorDiv(Const(100)), Const(0)) }, want: false},
			},
		},
		{
			name: "guard narrows the range", hints: [3]int64{32, 32, 5},
			ranges: [3]Range{{2, 64}, {2, Inf}, {2, Inf}},
			steps: []step{
				{cond: func(s0, _, _ Expr) Cond { return Ge(s0, Const(10)) }, want: true, wantGuards: []string{"s0 >= 10 (at model.go:7)"}},
				{cond: func(s0, _, _ Expr) Cond { return Gt(s0, Const(9)) }, want: true, wantGuards: []string{"s0 >= 10 (at model.go:7)"}},
				{cond: func(s0, _, _ Expr) Cond { return Lt(s0, Const(10)) }, want: false, wantGuards: []string{"s0 >= 10 (at model.go:7)"}},
			},
			check: func(t *testing.T, env *Env, s []*Symbol) {
				assert.Equal(t, Range{10, 64}, env.RangeOf(s[0]))
			},
		},
		{
			name: "false outcome records the negation", hints: [3]int64{32, 32, 5},
			ranges: [3]Range{{2, 64}, {2, Inf}, {2, Inf}},
			steps: []step{
				{cond: func(s0, _, _ Expr) Cond { return Lt(s0, Const(10)) }, want: false, wantGuards: []string{"s0 >= 10 (at model.go:7)"}},
				{cond: func(s0, _, _ Expr) Cond { return Le(s0.Mul(Const(2)), Const(100)) }, want: true,
					wantGuards: []string{"s0 >= 10 (at model.go:7)", "2*s0 <= 100 (at model.go:7)"}},
			},
			check: func(t *testing.T, env *Env, s []*Symbol) {
				assert.Equal(t, Range{10, 50}, env.RangeOf(s[0]))
			},
		},
		{
			name: "equality learned as a replacement", hints: [3]int64{32, 32, 5},
			ranges: [3]Range{{2, 64}, {2, Inf}, {2, Inf}},
			steps: []step{
				{cond: func(s0, s1, _ Expr) Cond { return Eq(s0, s1) }, want: true, wantGuards: []string{"Eq(s0, s1) (at model.go:7)"}},
				{cond: func(s0, s1, _ Expr) Cond { return Eq(s1, s0) }, want: true, wantGuards: []string{"Eq(s0, s1) (at model.go:7)"}},
				{cond: func(s0, s1, _ Expr) Cond { return Le(s1, Const(64)) }, want: true, wantGuards: []string{"Eq(s0, s1) (at model.go:7)"}},
			},
			check: func(t *testing.T, env *Env, s []*Symbol) {
				assert.True(t, env.Simplify(s[1].Expr()).Equal(s[0].Expr()), "s1 -> s0")
				assert.Equal(t, "s0**2", env.Simplify(s[0].Expr().Mul(s[1].Expr())).String())
				assert.Equal(t, [][]string{{"s0", "s1"}}, classNames(env.Equalities()))
				assert.Equal(t, map[string]string{"s1": "s0"}, replNames(env.Replacements()))
				assert.Equal(t, Range{2, 64}, env.RangeOf(s[1]), "s1 takes the range of s0")
			},
		},
		{
			name: "inequality of different hints", hints: [3]int64{32, 16, 5},
			ranges: [3]Range{{2, 64}, {2, Inf}, {2, Inf}},
			steps: []step{
				{cond: func(s0, s1, _ Expr) Cond { return Eq(s0, s1) }, want: false, wantGuards: []string{"Ne(s0, s1) (at model.go:7)"}},
				{cond: func(s0, s1, _ Expr) Cond { return Ne(s1, s0) }, want: true, wantGuards: []string{"Ne(s0, s1) (at model.go:7)"}},
				{cond: func(s0, s1, _ Expr) Cond { return Gt(s0, s1) }, want: true,
					wantGuards: []string{"Ne(s0, s1) (at model.go:7)", "s0 > s1 (at model.go:7)"}},
				{cond: func(s0, s1, _ Expr) Cond { return Ge(s0, s1.Add(Const(1))) }, want: true,
					wantGuards: []string{"Ne(s0, s1) (at model.go:7)", "s0 > s1 (at model.go:7)"}},
				{cond: func(s0, s1, _ Expr) Cond { return Lt(s1.Mul(Const(2)), s0.Mul(Const(2))) }, want: true,
					wantGuards: []string{"Ne(s0, s1) (at model.go:7)", "s0 > s1 (at model.go:7)"}},
			},
			check: func(t *testing.T, env *Env, s []*Symbol) {
				a, b := s[0].Expr(), s[1].Expr()
				assert.Equal(t, "s0", env.Simplify(Max(a, b)).String())
				assert.Equal(t, Range{1, 62}, env.Range(a.Sub(b)))
				assert.Empty(t, env.Replacements())
			},
		},
		{
			name: "specialization", hints: [3]int64{32, 32, 5},
			ranges: [3]Range{{2, 64}, {2, Inf}, {2, Inf}},
			steps: []step{
				{cond: func(s0, _, _ Expr) Cond { return Eq(s0, Const(32)) }, want: true, wantGuards: []string{"Eq(s0, 32) (at model.go:7)"}},
				{cond: func(s0, _, _ Expr) Cond { return Eq(s0.Mul(Const(2)), Const(64)) }, want: true, wantGuards: []string{"Eq(s0, 32) (at model.go:7)"}},
			},
			check: func(t *testing.T, env *Env, s []*Symbol) {
				assert.Equal(t, "s1 + 32", env.Simplify(s[0].Expr().Add(s[1].Expr())).String())
				assert.Equal(t, Range{32, 32}, env.RangeOf(s[0]))
				assert.Empty(t, env.Equalities())
			},
		},
		{
			name: "scaled equality", hints: [3]int64{4, 8, 5},
			ranges: [3]Range{{2, 64}, {2, Inf}, {2, Inf}},
			steps: []step{
				{cond: func(s0, s1, _ Expr) Cond { return Eq(s0.Mul(Const(2)), s1) }, want: true, wantGuards: []string{"Eq(2*s0, s1) (at model.go:7)"}},
			},
			check: func(t *testing.T, env *Env, s []*Symbol) {
				assert.Equal(t, map[string]string{"s1": "2*s0"}, replNames(env.Replacements()))
				assert.Equal(t, Range{4, 128}, env.RangeOf(s[1]))
				v, ok := env.Hint(s[1].Expr().Add(Const(1)))
				assert.True(t, ok)
				assert.Equal(t, int64(9), v)
			},
		},
		{
			name: "chained replacements", hints: [3]int64{6, 6, 6},
			ranges: [3]Range{{2, 64}, {3, Inf}, {2, 10}},
			steps: []step{
				{cond: func(_, s1, s2 Expr) Cond { return Eq(s1, s2) }, want: true, wantGuards: []string{"Eq(s1, s2) (at model.go:7)"}},
				{cond: func(s0, s1, _ Expr) Cond { return Eq(s0, s1) }, want: true,
					wantGuards: []string{"Eq(s1, s2) (at model.go:7)", "Eq(s0, s1) (at model.go:7)"}},
			},
			check: func(t *testing.T, env *Env, s []*Symbol) {
				assert.Equal(t, map[string]string{"s1": "s0", "s2": "s0"}, replNames(env.Replacements()))
				assert.Equal(t, [][]string{{"s0", "s1", "s2"}}, classNames(env.Equalities()))
				assert.Equal(t, Range{3, 10}, env.RangeOf(s[0]), "intersection of the three ranges")
			},
		},
		{
			name: "guard on a product is a fact", hints: [3]int64{8, 16, 5},
			ranges: [3]Range{{2, 64}, {2, Inf}, {2, Inf}},
			steps: []step{
				{cond: func(s0, s1, _ Expr) Cond { return Gt(s0.Mul(s1), Const(100)) }, want: true, wantGuards: []string{"s0*s1 > 100 (at model.go:7)"}},
				{cond: func(s0, s1, _ Expr) Cond { return Ge(s1.Mul(s0).Mul(Const(3)), Const(303)) }, want: true, wantGuards: []string{"s0*s1 > 100 (at model.go:7)"}},
				{cond: func(s0, s1, _ Expr) Cond { return Gt(s0.Mul(s1), Const(127)) }, want: true,
					wantGuards: []string{"s0*s1 > 100 (at model.go:7)", "s0*s1 > 127 (at model.go:7)"}},
			},
		},
		{
			name: "unbacked", hints: [3]int64{8, 16, 5},
			ranges: [3]Range{{2, 64}, {2, Inf}, {2, Inf}},
			steps: []step{
				{cond: func(s0, s1, _ Expr) Cond { return Ge(s0, Const(2)) }, want: true},
			},
			check: func(t *testing.T, env *Env, s []*Symbol) {
				u := env.NewUnbacked(Range{0, Inf})
				ok, err := env.Decide(Ge(u.Expr(), Const(0)), "nz.go:3")
				require.NoError(t, err)
				assert.True(t, ok, "settled by the range")
				_, err = env.Decide(Eq(u.Expr(), s[0].Expr()), "nz.go:4")
				var dde *DataDependentError
				require.ErrorAs(t, err, &dde)
				assert.Equal(t, "nz.go:4", dde.Where)
				assert.Equal(t, "Eq(u0, s0)", dde.Cond.String())
				for _, want := range []string{"Eq(u0, s0)", "nz.go:4", "u0 in [0, int_oo]", "Env.Check", "ConstrainAsSize"} {
					assert.Contains(t, err.Error(), want)
				}
				_, ok = env.Hint(u.Expr().Add(Const(1)))
				assert.False(t, ok)
				assert.Len(t, env.Guards(), 0)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := NewEnv()
			syms := make([]*Symbol, 3)
			for i := range syms {
				syms[i] = mustSym(t, env, "s"+string(rune('0'+i)), tt.hints[i], tt.ranges[i])
			}
			for i, st := range tt.steps {
				c := st.cond(syms[0].Expr(), syms[1].Expr(), syms[2].Expr())
				got, err := env.Decide(c, "model.go:7")
				if st.wantErr != "" {
					require.ErrorContains(t, err, st.wantErr, "step %d: %v", i, c)
					continue
				}
				require.NoError(t, err, "step %d: %v", i, c)
				assert.Equal(t, st.want, got, "step %d: %v", i, c)
				if d := cmp.Diff(st.wantGuards, guardStrings(env.Guards()), cmpEmpty); d != "" {
					t.Errorf("step %d: %v: guards (-want +got):\n%s", i, c, d)
				}
			}
			if tt.check != nil {
				tt.check(t, env, syms)
			}
		})
	}
}

var cmpEmpty = cmp.Transformer("empty", func(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
})

func classNames(cs [][]*Symbol) [][]string {
	var out [][]string
	for _, c := range cs {
		out = append(out, names(c))
	}
	return out
}

func replNames(m map[*Symbol]Expr) map[string]string {
	out := map[string]string{}
	for s, e := range m {
		out[s.Name()] = e.String()
	}
	return out
}

func TestDecideGuardsHold(t *testing.T) {
	// Every recorded guard is true at the hints.
	env := NewEnv()
	s0 := mustSym(t, env, "s0", 7, Range{1, 100})
	s1 := mustSym(t, env, "s1", 3, Range{1, 100})
	a, b := s0.Expr(), s1.Expr()
	conds := []Cond{Lt(a, b), Eq(a.Mod(b), Const(1)), Ge(a.FloorDiv(b), Const(3)), Ne(a, Const(7)), Le(Max(a, b), Const(6))}
	for _, c := range conds {
		_, err := env.Decide(c, "x.go:1")
		require.NoError(t, err)
	}
	hints := map[*Symbol]int64{s0: 7, s1: 3}
	for _, g := range env.Guards() {
		ok, err := g.Cond.Eval(hints)
		require.NoError(t, err)
		assert.True(t, ok, "guard %v", g)
	}
	// The fourth guard, Eq(s0, 7), specializes s0, so the fifth condition is settled.
	assert.Len(t, env.Guards(), len(conds)-1)
}

func TestCheck(t *testing.T) {
	env := NewEnv()
	s0 := mustSym(t, env, "s0", 8, Range{2, 64})
	u0 := env.NewUnbacked(Range{0, Inf})
	u := u0.Expr()

	_, err := env.Decide(Eq(u, Const(0)), "a.go:1")
	var dde *DataDependentError
	require.True(t, errors.As(err, &dde))

	require.NoError(t, env.Check(Ge(u, Const(1)), "a.go:2"))
	assert.Equal(t, Range{1, Inf}, env.RangeOf(u0))
	got, err := env.Decide(Eq(u, Const(0)), "a.go:3")
	require.NoError(t, err)
	assert.False(t, got)
	assert.Empty(t, env.Guards(), "Check and settled decisions record no guard")
	assert.Equal(t, []string{"u0 >= 1 (at a.go:2)"}, guardStrings(env.Checks()))

	require.NoError(t, env.Check(Ge(u, Const(0)), "a.go:4"), "already implied")
	assert.Len(t, env.Checks(), 1)

	require.ErrorContains(t, env.Check(Lt(u, Const(1)), "a.go:5"), "Check(u0 < 1) at a.go:5: the condition is false for every allowed value")
	require.ErrorContains(t, env.Check(Lt(s0.Expr(), Const(5)), "a.go:6"), "false at the example values")

	// An equality with a backed symbol replaces the unbacked one: its hint becomes known.
	require.NoError(t, env.Check(Eq(u.Mul(Const(2)), s0.Expr().Mul(Const(2))), "a.go:7"))
	assert.Equal(t, map[string]string{"u0": "s0"}, replNames(env.Replacements()))
	h, ok := env.Hint(u.Mul(Const(3)))
	assert.True(t, ok)
	assert.Equal(t, int64(24), h)
	assert.Equal(t, Range{2, 64}, env.RangeOf(u0))

	// A Check between unbacked symbols is a fact used later.
	u1, u2 := env.NewUnbacked(Range{0, 100}).Expr(), env.NewUnbacked(Range{0, 100}).Expr()
	require.NoError(t, env.Check(Lt(u1, u2), "a.go:8"))
	got, err = env.Decide(Ge(u2, u1.Add(Const(1))), "a.go:9")
	require.NoError(t, err)
	assert.True(t, got)
	got, err = env.Decide(Eq(Min(u1, u2), u1), "a.go:10")
	require.NoError(t, err)
	assert.True(t, got)
	require.ErrorContains(t, env.Check(Eq(u1, u2), "a.go:11"), "false for every allowed value")
}

func TestConstrainAsSize(t *testing.T) {
	env := NewEnv()
	u0 := env.NewUnbacked(Full)
	u := u0.Expr()
	_, err := env.Decide(Ge(u, Const(0)), "b.go:1")
	require.Error(t, err)
	require.NoError(t, env.ConstrainAsSize(u0))
	assert.True(t, env.IsSizeLike(u0))
	assert.Equal(t, Range{0, Inf}, env.RangeOf(u0))
	got, err := env.Decide(Ge(u, Const(0)), "b.go:2")
	require.NoError(t, err)
	assert.True(t, got)

	// Is it 1 (broadcast)? Strictly unknown; size-oblivious: no.
	_, err = env.Decide(Eq(u, Const(1)), "b.go:3")
	require.ErrorAs(t, err, new(*DataDependentError))
	got, err = env.DecideSizeOblivious(Eq(u, Const(1)), "b.go:4")
	require.NoError(t, err)
	assert.False(t, got)
	assert.Equal(t, Range{0, Inf}, env.RangeOf(u0), "the recorded range is unchanged")

	neg := env.NewUnbacked(Range{-5, -1})
	require.ErrorContains(t, env.ConstrainAsSize(neg), "ConstrainAsSize(u1)")
}

func TestDecideErrors(t *testing.T) {
	env := NewEnv()
	s0 := mustSym(t, env, "s0", 8, Range{2, 64})
	other := mustSym(t, NewEnv(), "t0", 8, Range{2, 64})
	_, err := env.Decide(Eq(s0.Expr(), other.Expr()), "c.go:1")
	require.ErrorContains(t, err, "Decide(Eq(s0, t0)) at c.go:1: symbol t0 belongs to another Env")
	_, err = env.Decide(Cond{Rel: 42, L: s0.Expr()}, "c.go:2")
	require.ErrorContains(t, err, "invalid relation 42")
	require.ErrorContains(t, env.Check(Cond{Rel: -1}, "c.go:3"), "invalid relation -1")
	// A guard whose evaluation at the hints fails reports it.
	s1 := mustSym(t, env, "s1", 0, Range{-3, 3})
	_, err = env.Decide(Ge(s0.Expr().FloorDiv(s1.Expr()), Const(1)), "c.go:4")
	require.ErrorContains(t, err, "division by zero")
}

func TestSimplifyRanges(t *testing.T) {
	env := NewEnv()
	s0 := mustSym(t, env, "s0", 8, Range{2, 64})
	s1 := mustSym(t, env, "s1", 100, Range{100, 200})
	a, b := s0.Expr(), s1.Expr()
	tests := []struct {
		e    Expr
		want string
	}{
		{Max(a, Const(1)), "s0"},
		{Min(a, Const(1)), "1"},
		{Max(a, b), "s1"},
		{Min(a, Const(10)), "Min(10, s0)"},
		{a.Mod(Const(100)), "s0"},
		{a.Mod(b), "s0"},
		{a.FloorDiv(Const(100)), "0"},
		{a.FloorDiv(b), "0"},
		{a.Add(Const(-1)).FloorDiv(Const(64)), "0"},
		{b.FloorDiv(Const(201)).Add(a), "s0"},
		{a.FloorDiv(Const(2)), "(s0//2)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, env.Simplify(tt.e).String(), "Simplify(%v)", tt.e)
	}
	assert.Equal(t, Range{1, 32}, env.Range(a.FloorDiv(Const(2))))
	assert.Equal(t, Range{0, 3}, env.Range(a.Mod(Const(4))))
	assert.Equal(t, Range{-258, 4}, env.Range(a.Sub(b.Mul(Const(2))).Add(Const(140))))
}

func TestEnvString(t *testing.T) {
	env := NewEnv()
	s0 := mustSym(t, env, "s0", 8, Range{2, 64})
	s1 := mustSym(t, env, "s1", 8, Range{2, Inf})
	env.NewUnbacked(Range{0, Inf})
	_, err := env.Decide(Eq(s0.Expr(), s1.Expr()), "m.go:2")
	require.NoError(t, err)
	want := "s0: hint 8, range [2, 64]\n" +
		"s1: hint 8, range [2, 64], = s0\n" +
		"u0: unbacked, range [0, int_oo]\n" +
		"guard Eq(s0, s1) (at m.go:2)\n"
	assert.Equal(t, want, env.String())
}
