package kernels_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// fusedRand returns a deterministic tensor with values in [-2, 2).
func fusedRand(t *testing.T, dt tensor.DType, seed int, shape ...int) *tensor.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Mod(float64((i+seed)*7919%1013)/253.25, 4) - 2
	}
	x, err := tensor.FromFloat64s(dt, v, shape...)
	require.NoError(t, err)
	return x
}

// call runs the operator name and returns its tensor result or error.
func call(t *testing.T, name string, args []any, kwargs map[string]any) (*tensor.Tensor, error) {
	out, err := optest.Call(t, name, args, kwargs)
	if err != nil {
		return nil, err
	}
	return out[0].(*tensor.Tensor), nil
}

// TestFusedOps checks each gofx:: fused operator against the aten
// operators it replaces (what its decomposition computes), on the fast
// paths (float32, float64) and the general ones (integers, a residual
// that broadcasts or has another dtype, transposed and grouped
// convolutions, no bias, one-sided clamps), values and dtypes alike, and
// on meta tensors (shapes and dtypes).
func TestFusedOps(t *testing.T) {
	type tc struct {
		name  string
		fused string
		args  []any
		ref   func(t *testing.T) (*tensor.Tensor, error)
	}
	var cases []tc
	convCase := func(name string, dt tensor.DType, x, w, b *tensor.Tensor, stride, pad []int64, transposed bool, outPad []int64, groups int64) {
		conv := []any{x, w, b, stride, pad, []int64{1, 1}, transposed, outPad, groups}
		ref := func(t *testing.T) (*tensor.Tensor, error) { return call(t, "aten::convolution", conv, nil) }
		with := func(extra ...any) []any { return append(append([]any{}, conv...), extra...) }
		cases = append(cases,
			tc{name + "/relu", "gofx::convolution_relu", with(), func(t *testing.T) (*tensor.Tensor, error) {
				y, err := ref(t)
				if err != nil {
					return nil, err
				}
				return call(t, "aten::relu", []any{y}, nil)
			}},
			tc{name + "/hardtanh", "gofx::convolution_hardtanh", with(0.0, 6.0), func(t *testing.T) (*tensor.Tensor, error) {
				y, err := ref(t)
				if err != nil {
					return nil, err
				}
				return call(t, "aten::hardtanh", []any{y, 0.0, 6.0}, nil)
			}},
			tc{name + "/clamp_min", "gofx::convolution_clamp", with(0.5, nil), func(t *testing.T) (*tensor.Tensor, error) {
				y, err := ref(t)
				if err != nil {
					return nil, err
				}
				return call(t, "aten::clamp", []any{y, 0.5, nil}, nil)
			}},
			tc{name + "/clamp_max", "gofx::convolution_clamp", with(nil, 1), func(t *testing.T) (*tensor.Tensor, error) {
				y, err := ref(t)
				if err != nil {
					return nil, err
				}
				return call(t, "aten::clamp", []any{y, nil, 1}, nil)
			}},
		)
		y, err := call(t, "aten::convolution", conv, nil)
		require.NoError(t, err, name)
		for i, other := range []*tensor.Tensor{
			fusedRand(t, dt, 5, y.Shape()...),             // same shape: the epilogue
			fusedRand(t, dt, 6, 1, y.Size(1), 1, 1),       // broadcasts
			fusedRand(t, tensor.Float64, 7, y.Shape()...), // promotes
		} {
			cases = append(cases, tc{name + "/add_relu/" + string(rune('a'+i)), "gofx::convolution_add_relu", with(other), func(t *testing.T) (*tensor.Tensor, error) {
				y, err := ref(t)
				if err != nil {
					return nil, err
				}
				if y, err = call(t, "aten::add.Tensor", []any{y, other}, nil); err != nil {
					return nil, err
				}
				return call(t, "aten::relu", []any{y}, nil)
			}})
		}
	}
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64, tensor.Int64, tensor.BFloat16} {
		x := fusedRand(t, dt, 1, 2, 4, 7, 6)
		convCase(dt.String()+"/3x3", dt, x, fusedRand(t, dt, 2, 6, 4, 3, 3), fusedRand(t, dt, 3, 6), []int64{1, 1}, []int64{1, 1}, false, []int64{0, 0}, 1)
		convCase(dt.String()+"/1x1_nobias", dt, x, fusedRand(t, dt, 2, 5, 4, 1, 1), nil, []int64{2, 1}, []int64{0, 0}, false, []int64{0, 0}, 1)
		convCase(dt.String()+"/depthwise", dt, x, fusedRand(t, dt, 2, 4, 1, 3, 3), fusedRand(t, dt, 3, 4), []int64{1, 1}, []int64{1, 1}, false, []int64{0, 0}, 4)
		convCase(dt.String()+"/transposed", dt, x, fusedRand(t, dt, 2, 4, 3, 3, 3), fusedRand(t, dt, 3, 3), []int64{2, 2}, []int64{1, 1}, true, []int64{1, 0}, 1)
	}
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64, tensor.Int64} {
		a, w, b := fusedRand(t, dt, 1, 5, 7), fusedRand(t, dt, 2, 3, 7), fusedRand(t, dt, 3, 3)
		wt, err := w.T()
		require.NoError(t, err)
		relu := func(name string, args []any, kw map[string]any) func(t *testing.T) (*tensor.Tensor, error) {
			return func(t *testing.T) (*tensor.Tensor, error) {
				y, err := call(t, name, args, kw)
				if err != nil {
					return nil, err
				}
				return call(t, "aten::relu", []any{y}, nil)
			}
		}
		n := dt.String()
		cases = append(cases,
			tc{n + "/addmm_relu", "gofx::addmm_relu", []any{b, a, wt}, relu("aten::addmm", []any{b, a, wt}, nil)},
			tc{n + "/addmm_relu_2d_bias", "gofx::addmm_relu", []any{fusedRand(t, dt, 4, 5, 3), a, wt}, relu("aten::addmm", []any{fusedRand(t, dt, 4, 5, 3), a, wt}, nil)},
			tc{n + "/linear_relu", "gofx::linear_relu", []any{a, w, b}, relu("aten::linear", []any{a, w, b}, nil)},
			tc{n + "/linear_relu_nobias", "gofx::linear_relu", []any{a, w}, relu("aten::linear", []any{a, w}, nil)},
			tc{n + "/linear_relu_3d", "gofx::linear_relu", []any{fusedRand(t, dt, 4, 2, 5, 7), w, b}, relu("aten::linear", []any{fusedRand(t, dt, 4, 2, 5, 7), w, b}, nil)},
		)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, wantErr := c.ref(t)
			got, err := call(t, c.fused, c.args, nil)
			if wantErr != nil {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, want.DType(), got.DType())
			require.Equal(t, want.Shape(), got.Shape())
			tol := 1e-5
			if got.DType() == tensor.BFloat16 {
				tol = 2e-2
			}
			assert.True(t, tensor.AllClose(got, want, tol, tol, true), "got %v\nwant %v", got, want)
			// The meta function gives the same shape and dtype.
			margs := make([]any, len(c.args))
			for i, a := range c.args {
				if x, ok := a.(*tensor.Tensor); ok && x != nil {
					a = x.Meta()
				}
				margs[i] = a
			}
			m, err := call(t, c.fused, margs, nil)
			require.NoError(t, err)
			assert.True(t, m.IsMeta())
			assert.Equal(t, want.Shape(), m.Shape())
			assert.Equal(t, want.DType(), m.DType())
		})
	}
}

// TestFusedOpsNaN: NaN stays NaN through the fused epilogue, as through
// aten::relu and aten::clamp.
func TestFusedOpsNaN(t *testing.T) {
	x := fusedRand(t, tensor.Float32, 1, 1, 1, 3, 3)
	tensor.Data[float32](x)[4] = float32(math.NaN())
	w := fusedRand(t, tensor.Float32, 2, 1, 1, 1, 1)
	for _, name := range []string{"gofx::convolution_relu", "gofx::convolution_hardtanh", "gofx::convolution_clamp"} {
		args := []any{x, w, nil, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}, false, []int64{0, 0}, int64(1)}
		if name != "gofx::convolution_relu" {
			args = append(args, -1.0, 1.0)
		}
		y, err := call(t, name, args, nil)
		require.NoError(t, err, name)
		assert.True(t, math.IsNaN(float64(tensor.Values[float32](y)[4])), name)
	}
}

// TestFusedOpsErrors: bad arguments are the aten operators' errors,
// naming the argument.
func TestFusedOpsErrors(t *testing.T) {
	x := fusedRand(t, tensor.Float32, 1, 1, 2, 4, 4)
	w := fusedRand(t, tensor.Float32, 2, 3, 2, 3, 3)
	conv := []any{x, w, nil, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}, false, []int64{0, 0}, int64(1)}
	_, err := call(t, "gofx::convolution_clamp", append(append([]any{}, conv...), nil, nil), nil)
	assert.ErrorContains(t, err, "gofx::convolution_clamp")
	_, err = call(t, "gofx::convolution_add_relu", append(append([]any{}, conv...), fusedRand(t, tensor.Float32, 3, 5, 5)), nil)
	var ce *ops.CallError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "gofx::convolution_add_relu", ce.Op)
	_, err = call(t, "gofx::convolution_relu", []any{x, fusedRand(t, tensor.Float32, 2, 3, 5, 3, 3), nil, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}, false, []int64{0, 0}, int64(1)}, nil)
	assert.Error(t, err)
	_, err = call(t, "gofx::addmm_relu", []any{fusedRand(t, tensor.Float32, 1, 3), fusedRand(t, tensor.Float32, 2, 2, 4), fusedRand(t, tensor.Float32, 3, 5, 3)}, nil)
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "gofx::addmm_relu", ce.Op)
}

// FuzzFusedConv compares gofx's fused convolutions (relu, hardtanh,
// clamp, add+relu) with aten::convolution followed by the aten operators
// they replace, on generated 2-d shapes (groups, depthwise, strides,
// padding, dilation, transposed), bounds and residuals (of the result's
// shape, or a per-channel one that broadcasts), in float32 and float64:
// the same values (the same product, the epilogue applied after it), or
// the same error, never a panic.
func FuzzFusedConv(f *testing.F) {
	f.Add(uint64(1), uint8(3), uint8(1), uint8(4), uint8(1), uint8(9), uint8(7), uint8(3), uint8(1), uint8(1), uint8(1), false, uint8(0), int8(0), int8(6))
	f.Add(uint64(2), uint8(1), uint8(1), uint8(1), uint8(8), uint8(12), uint8(11), uint8(5), uint8(2), uint8(2), uint8(1), false, uint8(1), int8(-1), int8(1))
	f.Add(uint64(3), uint8(2), uint8(2), uint8(2), uint8(3), uint8(5), uint8(6), uint8(3), uint8(2), uint8(1), uint8(2), true, uint8(2), int8(3), int8(-2))
	f.Add(uint64(4), uint8(1), uint8(1), uint8(2), uint8(6), uint8(14), uint8(3), uint8(3), uint8(3), uint8(3), uint8(2), false, uint8(3), int8(0), int8(0))
	f.Add(uint64(5), uint8(1), uint8(0), uint8(5), uint8(0), uint8(10), uint8(10), uint8(2), uint8(0), uint8(1), uint8(0), false, uint8(4), int8(0), int8(0))
	f.Fuzz(func(t *testing.T, seed uint64, cig, cog, groups, n, h, w, k, s, p, d uint8, transposed bool, kind uint8, lo, hi int8) {
		ci, co, g := 1+int(cig%4), 1+int(cog%4), 1+int(groups%6)
		nb, hh, ww := 1+int(n%2), 1+int(h%16), 1+int(w%16)
		kk, ss, pp, dd := 1+int(k%5), 1+int(s%3), int(p%4), 1+int(d%3)
		cin, cout := ci*g, co*g
		wshape := []int{cout, ci, kk, kk}
		if transposed {
			wshape = []int{cin, co, kk, kk}
		}
		for _, dt := range []tensor.DType{tensor.Float64, tensor.Float32} {
			x := randn(dt, seed, nb, cin, hh, ww)
			wt := randn(dt, seed+1, wshape...)
			b := randn(dt, seed+2, cout)
			conv := []any{x, wt, b, []int64{int64(ss)}, []int64{int64(pp)}, []int64{int64(dd)}, transposed, []int64{0}, int64(g)}
			y, convErr := call(t, "aten::convolution", conv, nil)
			var fused string
			var extra []any
			chain := func(y *tensor.Tensor) (*tensor.Tensor, error) { return call(t, "aten::relu", []any{y}, nil) }
			switch kind % 5 {
			case 0:
				fused = "gofx::convolution_relu"
			case 1:
				fused, extra = "gofx::convolution_hardtanh", []any{float64(lo) / 2, float64(hi) / 2}
				chain = func(y *tensor.Tensor) (*tensor.Tensor, error) {
					return call(t, "aten::hardtanh", []any{y, extra[0], extra[1]}, nil)
				}
			case 2, 3:
				var mn, mx any = float64(lo) / 2, float64(hi) / 2
				if kind%5 == 3 {
					mx = nil
				}
				fused, extra = "gofx::convolution_clamp", []any{mn, mx}
				chain = func(y *tensor.Tensor) (*tensor.Tensor, error) { return call(t, "aten::clamp", []any{y, mn, mx}, nil) }
			default:
				if convErr != nil {
					return
				}
				other := randn(dt, seed+3, y.Shape()...)
				if lo%2 != 0 {
					other = randn(dt, seed+3, 1, y.Size(1), 1, 1)
				}
				fused, extra = "gofx::convolution_add_relu", []any{other}
				chain = func(y *tensor.Tensor) (*tensor.Tensor, error) {
					sum, err := call(t, "aten::add.Tensor", []any{y, other}, nil)
					if err != nil {
						return nil, err
					}
					return call(t, "aten::relu", []any{sum}, nil)
				}
			}
			got, err := call(t, fused, append(append([]any{}, conv...), extra...), nil)
			if convErr != nil {
				require.Error(t, err, "%s: aten::convolution refused: %v", fused, convErr)
				return
			}
			want, wantErr := chain(y)
			if wantErr != nil {
				require.Error(t, err, "%s: the chain refused: %v", fused, wantErr)
				return
			}
			require.NoError(t, err, fused)
			requireClose(t, want, got, 1e-6)
		}
	})
}
