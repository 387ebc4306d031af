package sym

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sympyEnv returns an Env with the symbols of testdata/sympy.tsv and their values there.
func sympyEnv(t *testing.T) (*Env, map[*Symbol]int64) {
	env := NewEnv()
	vals := map[*Symbol]int64{}
	for _, s := range []struct {
		name string
		v    int64
	}{{"s0", 3}, {"s1", 5}, {"s6", 7}, {"s11", 2}} {
		sy, err := env.NewSymbol(s.name, s.v, Range{2, Inf})
		require.NoError(t, err)
		vals[sy] = s.v
	}
	u, err := env.NewUnbackedNamed("u0", Full)
	require.NoError(t, err)
	vals[u] = 4
	return env, vals
}

// TestParseSympyReference reads the expressions sympy printed (srepr and str) in
// testdata/sympy.tsv (made by gen_sympy.py with PyTorch 2.6's sympy and
// torch.utils._sympy.functions): both forms parse to equal expressions whose value at the
// file's point is sympy's.
func TestParseSympyReference(t *testing.T) {
	env, vals := sympyEnv(t)
	f, err := os.Open("testdata/sympy.tsv")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		require.Len(t, parts, 4, sc.Text())
		kind, srepr, str := parts[0], parts[1], parts[2]
		want, err := strconv.ParseInt(parts[3], 10, 64)
		require.NoError(t, err)
		n++
		if kind == "cond" {
			for _, s := range []string{srepr, str} {
				c, err := ParseSympyCond(s, env.lookupErr)
				require.NoError(t, err, s)
				got, err := c.Eval(vals)
				require.NoError(t, err, s)
				assert.Equal(t, want == 1, got, s)
			}
			continue
		}
		a, err := env.ParseSympy(srepr)
		require.NoError(t, err, srepr)
		b, err := env.ParseSympy(str)
		require.NoError(t, err, str)
		assert.True(t, a.Equal(b), "%s = %v, %s = %v", srepr, a, str, b)
		got, err := a.Eval(vals)
		require.NoError(t, err, srepr)
		assert.Equal(t, want, got, srepr)
	}
	require.NoError(t, sc.Err())
	assert.Greater(t, n, 30)
}

func TestParseSympyErrors(t *testing.T) {
	env, _ := sympyEnv(t)
	for _, c := range []struct{ in, msg string }{
		{"", "unexpected end"},
		{"Symbol('s9', integer=True)", "unknown symbol s9"},
		{"Float(1.5)", "unexpected character"},
		{"Rational(1, 2)", "unsupported sympy function Rational"},
		{"Mul(Integer(2), s0", `expected ","`},
		{"s0 / 2", "true division"},
		{"FloorDiv(s0, 0)", "FloorDiv"},
		{"Pow(s0, s1)", "exponent"},
		{"Mod(s0)", "Mod takes 2 arguments, got 1"},
		{"s0 < 2", "relation, not an integer expression"},
		{"'abc", "unterminated string"},
		{"99999999999999999999", "out of the int64 range"},
		{strings.Repeat("(", 300) + "s0" + strings.Repeat(")", 300), "nested deeper"},
		{"Add(s0 < 1, 2)", "not an integer expression"},
		{"Pow(s0 + s1 + s6 + s11 + 1, 64)", "too many terms"},
		{"Mul(" + strings.Repeat("(s0 + s1 + s6 + s11 + 1), ", 12) + "1)", "too many terms"},
	} {
		_, err := env.ParseSympy(c.in)
		if assert.Error(t, err, c.in) {
			assert.Contains(t, err.Error(), c.msg, c.in)
		}
	}
	_, err := ParseSympyCond("2*s0", env.lookupErr)
	assert.ErrorContains(t, err, "not a relation")
	c, err := ParseSympyCond("True", env.lookupErr)
	require.NoError(t, err)
	ok, err := c.Eval(nil)
	require.NoError(t, err)
	assert.True(t, ok)
}

func TestNewUnbackedNamed(t *testing.T) {
	env := NewEnv()
	u, err := env.NewUnbackedNamed("u3", Range{0, 10})
	require.NoError(t, err)
	assert.False(t, u.Backed())
	assert.Equal(t, Range{0, 10}, env.RangeOf(u))
	_, err = env.NewUnbackedNamed("u3", Full)
	assert.ErrorContains(t, err, "already exists")
	_, err = env.NewUnbackedNamed("", Full)
	assert.Error(t, err)
	// NewUnbacked skips the taken name.
	assert.Equal(t, "u0", env.NewUnbacked(Full).Name())
}

// FuzzParseSympy: no input makes the parser panic, and what it accepts prints and
// re-parses to an equal expression.
func FuzzParseSympy(f *testing.F) {
	data, err := os.ReadFile("testdata/sympy.tsv")
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if parts := strings.Split(line, "\t"); len(parts) == 4 {
			f.Add(parts[1])
			f.Add(parts[2])
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		env := NewEnv()
		for _, n := range []string{"s0", "s1", "s6", "s11"} {
			if _, err := env.NewSymbol(n, 3, Range{2, Inf}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := env.NewUnbackedNamed("u0", Full); err != nil {
			t.Fatal(err)
		}
		e, err := env.ParseSympy(s)
		if err != nil {
			_, _ = ParseSympyCond(s, env.lookupErr)
			return
		}
		back, err := env.Parse(e.String())
		if err != nil {
			t.Fatalf("%q parsed to %v, which does not re-parse: %v", s, e, err)
		}
		if !back.Equal(e) {
			t.Fatalf("%q parsed to %v, re-parsed to %v", s, e, back)
		}
	})
}
