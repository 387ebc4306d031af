package sym

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseRoundTrip: Parse(String(e)) is e for random expressions.
func TestParseRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	env, syms := newSyms(t, 3)
	env.NewUnbacked(Full)
	for range 3000 {
		e, err := randTree(rng, 4, len(syms)).build(syms)
		if err != nil {
			continue
		}
		got, err := env.Parse(e.String())
		require.NoError(t, err, e.String())
		require.True(t, got.Equal(e), "Parse(%q) = %v", e.String(), got)
		require.Equal(t, e.Hash(), got.Hash())
	}
}

func TestParse(t *testing.T) {
	env, s0, s1, _ := fixture(t)
	tests := []struct {
		in      string
		want    Expr
		wantErr string
	}{
		{"s0", s0, ""},
		{"2*s0 - 3", s0.Mul(c(2)).Sub(c(3)), ""},
		{"3 - s0", c(3).Sub(s0), ""},
		{"-s0**2 + s1", s0.Mul(s0).Neg().Add(s1), ""},
		{"(s0 + 1)//2", s0.Add(c(1)).FloorDiv(c(2)), ""},
		{"((s0 - 3)//2) + 1", s0.Sub(c(3)).FloorDiv(c(2)).Add(c(1)), ""},
		{"s0 % 4 + Mod(s1, 3)", s0.Mod(c(4)).Add(s1.Mod(c(3))), ""},
		{"Max(1, s0, s1)", Max(Max(c(1), s0), s1), ""},
		{"Min(s1,s0)", Min(s0, s1), ""},
		{"s9", Expr{}, `unknown symbol "s9"`},
		{"s0 +", Expr{}, "unexpected end"},
		{"s0 // 0", Expr{}, "division by zero"},
		{"Mod(s0)", Expr{}, "Mod takes 2 arguments, got 1"},
		{"Max(s0)", Expr{}, "Max takes at least 2 arguments"},
		{"s0**s1", Expr{}, "expected a constant exponent"},
		{"s0**0", Expr{}, "exponent \"0\" out of range"},
		{"(s0", Expr{}, `expected ")", found the end`},
		{"s0 s1", Expr{}, `offset 3: unexpected "s1"`},
		{"99999999999999999999", Expr{}, "out of the int64 range"},
		{"s0 & 1", Expr{}, `unexpected "&"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := env.Parse(tt.in)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.True(t, got.Equal(tt.want), "got %v, want %v", got, tt.want)
		})
	}
}
