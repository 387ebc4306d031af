package kernels_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/tensor"
)

func TestRandomFactories(t *testing.T) {
	kernels.ManualSeed(7)
	a, err := optest.Call(t, "aten::rand", []any{[]int64{1000}}, nil)
	require.NoError(t, err)
	kernels.ManualSeed(7)
	b, err := optest.Call(t, "aten::rand", []any{[]int64{1000}}, nil)
	require.NoError(t, err)
	x, y := a[0].(*tensor.Tensor), b[0].(*tensor.Tensor)
	assert.Equal(t, tensor.Float32, x.DType())
	assert.True(t, tensor.Equal(x, y), "same seed, same tensor")
	for _, v := range x.Float64s() {
		require.True(t, v >= 0 && v < 1, "uniform on [0, 1): %v", v)
	}

	n, err := optest.Call(t, "aten::randn", []any{[]int64{20000}}, map[string]any{"dtype": tensor.Float64})
	require.NoError(t, err)
	var sum, sq float64
	for _, v := range n[0].(*tensor.Tensor).Float64s() {
		sum += v
		sq += v * v
	}
	assert.InDelta(t, 0, sum/20000, 0.05)
	assert.InDelta(t, 1, sq/20000, 0.05)

	p, err := optest.Call(t, "aten::randperm", []any{int64(50)}, nil)
	require.NoError(t, err)
	perm := p[0].(*tensor.Tensor)
	assert.Equal(t, tensor.Int64, perm.DType(), "dtype=4 in the schema is int64")
	seen := map[int64]bool{}
	for _, v := range perm.Int64s() {
		seen[v] = true
	}
	assert.Len(t, seen, 50)

	m, err := optest.Call(t, "aten::rand", []any{[]int64{2, 3}}, map[string]any{"device": "meta"})
	require.NoError(t, err)
	assert.True(t, m[0].(*tensor.Tensor).IsMeta())

	_, err = optest.Call(t, "aten::rand", []any{[]int64{2}}, map[string]any{"dtype": tensor.Int64})
	assert.ErrorContains(t, err, `argument 'dtype': "check_uniform_bounds" not implemented for 'Long'`)
	_, err = optest.Call(t, "aten::randn", []any{[]int64{-1}}, nil)
	assert.ErrorContains(t, err, "argument 'size'")
	_, err = optest.Call(t, "aten::randperm", []any{int64(-1)}, nil)
	assert.ErrorContains(t, err, "argument 'n'")
}

func TestArangeVectorBlocks(t *testing.T) {
	// torch.arange(0., 10., 0.1)[16:24] in PyTorch 1.13 (AVX2): element
	// 16+j of a vector block is float(float(1.6) + j*0.1).
	out, err := optest.Call(t, "aten::arange.start_step", []any{0.0, 10.0, 0.1}, nil)
	require.NoError(t, err)
	got := tensor.Values[float32](out[0].(*tensor.Tensor))
	require.Len(t, got, 100)
	base := float32(math.FMA(0.1, 16, 0))
	for j := range 8 {
		assert.Equal(t, float32(math.FMA(float64(j), 0.1, float64(base))), got[16+j])
	}
}
