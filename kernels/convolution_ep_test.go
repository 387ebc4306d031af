package kernels

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// epRand returns a deterministic tensor of dtype dt with values in [-2, 2).
func epRand(dt tensor.DType, seed int, shape ...int) *tensor.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Mod(float64((i+seed)*7919%1013)/253.25, 4) - 2
	}
	return tensor.Must(tensor.FromFloat64s(dt, v, shape...))
}

// epOperands returns a convolution's input [n, cin, h, h], weight (of a
// transposed one when transposed) and bias (nil unless bias) by epRand.
func epOperands(dt tensor.DType, n, cin, h, cout, k, g int, transposed, bias bool) (x, w, b *tensor.Tensor) {
	x = epRand(dt, 1, n, cin, h, h)
	ws := []int{cout, cin / g, k, k}
	if transposed {
		ws = []int{cin, cout / g, k, k}
	}
	w = epRand(dt, 2, ws...)
	if bias {
		b = epRand(dt, 3, cout)
	}
	return x, w, b
}

// TestConvolutionEpilogue checks the fused ops' entry against
// aten::convolution followed by the residual add and the clamp, on each
// path of the forward convolution (GEMM, 1×1, grouped, depthwise,
// transposed, a batch with packed weights) and dtype.
func TestConvolutionEpilogue(t *testing.T) {
	conv, ok := ops.Global().Lookup("aten::convolution")
	require.True(t, ok)
	cases := []struct {
		name             string
		n, cin, h, cout  int
		k, s, p, d, g    int
		transposed       bool
		dt               tensor.DType
		bias, res, clamp bool
		lo, hi           float64
	}{
		{"3x3 relu", 1, 4, 9, 6, 3, 1, 1, 1, 1, false, tensor.Float32, true, false, true, 0, math.Inf(1)},
		{"3x3 add relu", 2, 4, 9, 6, 3, 2, 1, 1, 1, false, tensor.Float32, true, true, true, 0, math.Inf(1)},
		{"1x1 add", 1, 8, 5, 8, 1, 1, 0, 1, 1, false, tensor.Float64, false, true, false, 0, 0},
		{"1x1 batch relu6", 3, 8, 5, 16, 1, 1, 0, 1, 1, false, tensor.Float32, true, false, true, 0, 6},
		{"depthwise hardtanh", 2, 6, 11, 6, 3, 2, 1, 1, 6, false, tensor.Float32, true, true, true, -0.5, 0.5},
		{"depthwise 5x5 relu", 1, 4, 12, 8, 5, 1, 2, 1, 4, false, tensor.Float64, true, false, true, 0, math.Inf(1)},
		{"grouped dilated", 2, 6, 10, 9, 3, 1, 2, 2, 3, false, tensor.Float64, true, true, true, 0, 6},
		{"transposed add relu", 1, 4, 6, 6, 3, 2, 1, 1, 2, true, tensor.Float32, true, true, true, 0, math.Inf(1)},
		{"int64 add relu", 1, 3, 6, 4, 3, 1, 1, 1, 1, false, tensor.Int64, true, true, true, 0, math.Inf(1)},
		{"bfloat16 relu", 1, 3, 6, 4, 3, 1, 1, 1, 1, false, tensor.BFloat16, true, false, true, 0, math.Inf(1)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x, w, bias := epOperands(tc.dt, tc.n, tc.cin, tc.h, tc.cout, tc.k, tc.g, tc.transposed, tc.bias)
			if tc.dt == tensor.Int64 {
				x, w = tensor.Must(tensor.FromInt64s(tc.dt, x.Int64s(), x.Shape()...)), tensor.Must(tensor.FromInt64s(tc.dt, w.Int64s(), w.Shape()...))
			}
			args := []any{x, w, bias, []int64{int64(tc.s)}, []int64{int64(tc.p)}, []int64{int64(tc.d)}, tc.transposed, []int64{0}, int64(tc.g)}
			ref, err := conv.Call(args, nil)
			require.NoError(t, err)
			want := ref[0].(*tensor.Tensor)
			var res *tensor.Tensor
			if tc.res {
				// A non-contiguous residual: the transpose of a transpose.
				r := epRand(tc.dt, 4, want.Shape()...)
				res = tensor.Must(tensor.Must(r.Transpose(2, 3)).Contiguous().Transpose(2, 3))
			}
			got, err := convolutionEpilogue(&ops.Call{}, x, w, bias, []int64{int64(tc.s)}, []int64{int64(tc.p)}, []int64{int64(tc.d)},
				tc.transposed, []int64{0}, int64(tc.g), res, tc.clamp, tc.lo, tc.hi)
			require.NoError(t, err)
			require.Equal(t, want.Shape(), got.Shape())
			require.Equal(t, tc.dt, got.DType())
			wv := want.Float64s()
			var rv []float64
			if res != nil {
				rv = res.Float64s()
			}
			gv := got.Float64s()
			for i, v := range wv {
				if rv != nil {
					v += rv[i]
				}
				if tc.clamp {
					v = math.Min(math.Max(v, tc.lo), tc.hi)
				}
				tol := 1e-9
				if tc.dt == tensor.Float32 {
					tol = 1e-5
				} else if tc.dt == tensor.BFloat16 {
					tol = 2e-2 * math.Max(1, math.Abs(v))
				}
				require.InDelta(t, v, gv[i], tol, "element %d", i)
			}
		})
	}
}

// TestConvolutionEpilogueErrors checks that a residual of the wrong shape
// or dtype is an error naming it.
func TestConvolutionEpilogueErrors(t *testing.T) {
	x, w := epRand(tensor.Float32, 1, 1, 2, 5, 5), epRand(tensor.Float32, 2, 3, 2, 3, 3)
	one, zero := []int64{1}, []int64{0}
	_, err := convolutionEpilogue(&ops.Call{}, x, w, nil, one, zero, one, false, zero, 1, epRand(tensor.Float32, 3, 1, 3, 5, 5), true, 0, 6)
	require.ErrorContains(t, err, "residual")
	_, err = convolutionEpilogue(&ops.Call{}, x, w, nil, one, zero, one, false, zero, 1, epRand(tensor.Float64, 3, 1, 3, 3, 3), true, 0, 6)
	require.ErrorContains(t, err, "residual")
	_, err = convolutionEpilogue(&ops.Call{}, x, w, nil, one, zero, one, false, zero, 1, nil, true, math.NaN(), 6)
	require.Error(t, err)
	m, err := convolutionEpilogue(&ops.Call{}, x.Meta(), w.Meta(), nil, one, zero, one, false, zero, 1, nil, true, 0, 6)
	require.NoError(t, err)
	require.Equal(t, []int{1, 3, 3, 3}, m.Shape())
}

// TestConvolutionDirtyPool runs aten::convolution with the buffer pool
// holding a NaN-filled buffer of the output's size, the one its output
// then reuses: every path must write every output element (the GEMM
// paths take their output uninitialized, tensor.EmptyUninit) or clear
// it first.
func TestConvolutionDirtyPool(t *testing.T) {
	conv, ok := ops.Global().Lookup("aten::convolution")
	require.True(t, ok)
	cases := []struct {
		name            string
		n, cin, h, cout int
		k, s, p, g      int
		transposed      bool
		dt              tensor.DType
		bias            bool
	}{
		{"3x3", 1, 4, 20, 8, 3, 1, 1, 1, false, tensor.Float32, true},
		{"3x3 no bias", 1, 4, 20, 8, 3, 1, 1, 1, false, tensor.Float64, false},
		{"1x1", 2, 8, 16, 8, 1, 1, 0, 1, false, tensor.Float32, false},
		{"1x1 stride 2", 1, 16, 33, 16, 1, 2, 0, 1, false, tensor.Float32, true},
		{"7x7 stride 2", 1, 3, 40, 8, 7, 2, 3, 1, false, tensor.Float32, true},
		{"grouped", 2, 8, 16, 8, 3, 1, 1, 2, false, tensor.Float64, true},
		{"depthwise", 1, 8, 20, 8, 3, 1, 1, 8, false, tensor.Float32, true},
		{"transposed", 1, 8, 12, 8, 3, 2, 1, 1, true, tensor.Float32, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x, w, b := epOperands(tc.dt, tc.n, tc.cin, tc.h, tc.cout, tc.k, tc.g, tc.transposed, tc.bias)
			s, p := int64(tc.s), int64(tc.p)
			args := []any{x, w, b, []int64{s, s}, []int64{p, p}, []int64{1, 1}, tc.transposed, []int64{0, 0}, int64(tc.g)}
			run := func() *tensor.Tensor {
				out, err := conv.Call(args, nil)
				require.NoError(t, err)
				return out[0].(*tensor.Tensor)
			}
			want := run()
			require.GreaterOrEqual(t, want.Numel()*tc.dt.Size(), 4096, "the output must be large enough to be pooled")
			dirty := tensor.Must(tensor.New(tc.dt, want.Shape()...))
			require.NotZero(t, dirty.StorageKey().Born(), "the dirty buffer must be poolable")
			if tc.dt == tensor.Float32 {
				for i, d := 0, tensor.Data[float32](dirty); i < len(d); i++ {
					d[i] = float32(math.NaN())
				}
			} else {
				for i, d := 0, tensor.Data[float64](dirty); i < len(d); i++ {
					d[i] = math.NaN()
				}
			}
			first := func(x *tensor.Tensor) any {
				if tc.dt == tensor.Float32 {
					return &tensor.Data[float32](x)[0]
				}
				return &tensor.Data[float64](x)[0]
			}
			buf := first(dirty)
			tensor.Recycle(dirty.StorageKey())
			got := run()
			require.Equal(t, buf, first(got), "the output must reuse the dirty buffer")
			require.Equal(t, want.Float64s(), got.Float64s())
		})
	}
}
