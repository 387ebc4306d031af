package graph

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The expected strings are Python 3.11's repr of the same values.
func TestPyFloat(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{1.0, "1.0"}, {0.0, "0.0"}, {math.Copysign(0, -1), "-0.0"}, {1e-05, "1e-05"},
		{0.0001, "0.0001"}, {1e16, "1e+16"}, {1e15, "1000000000000000.0"},
		{123456789.125, "123456789.125"}, {2.8284271247461903, "2.8284271247461903"},
		{1.0 / 3, "0.3333333333333333"}, {-2.5e-10, "-2.5e-10"}, {5e-324, "5e-324"},
		{1.7976931348623157e308, "1.7976931348623157e+308"}, {100.0, "100.0"}, {0.1, "0.1"},
		{1e22, "1e+22"}, {12345678901234567.0, "1.2345678901234568e+16"},
		{math.Inf(1), "inf"}, {math.Inf(-1), "-inf"}, {math.NaN(), "nan"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, pyFloat(tt.f))
	}
}

func TestPyQuote(t *testing.T) {
	tests := []struct{ s, want string }{
		{"a", `'a'`}, {"it's", `"it's"`}, {`say "hi"`, `'say "hi"'`},
		{`both ' and "`, `'both \' and "'`}, {"tab\there\nnl", `'tab\there\nnl'`},
		{"é", `'é'`}, {"\x00\x7f", `'\x00\x7f'`}, {`back\slash`, `'back\\slash'`},
		{"\u2028", `'\u2028'`}, {"日本", `'日本'`},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, pyQuote(tt.s))
	}
}

func TestNaming(t *testing.T) {
	assert.Equal(t, "layer_norm", snakeCase("LayerNorm"))
	assert.Equal(t, "conv2d", snakeCase("Conv2d"))
	assert.Equal(t, "ab_c", snakeCase("abC"))
	assert.Equal(t, "layer1_0_conv1", sanitize("layer1.0.conv1"))
	assert.Equal(t, "_0", sanitize("0"))
	assert.Equal(t, "a_b", sanitize("a::<>b"))
	assert.Equal(t, "_", sanitize(""))

	ns := newNamespace()
	var got []string
	for _, c := range []string{"add", "add", "add_1", "add", "sum", "sum", "x_7", "x", "x", "x_7", "add_01", "getattr"} {
		got = append(got, ns.create(c, nil))
	}
	// torch.fx names the same candidates the same way.
	assert.Equal(t, []string{"add", "add_1", "add_2", "add_3", "sum_1", "sum_2", "x_7", "x", "x_8", "x_9", "add_4", "getattr_1"}, got)
	assert.False(t, ns.reserveExact("add", nil), "taken")
	assert.False(t, ns.reserveExact("if", nil), "keyword")
	assert.True(t, ns.reserveExact("add_100", nil))
	assert.Equal(t, "add_101", ns.create("add", nil))
}
