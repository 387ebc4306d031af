package kernels_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/tensor"
)

// patternTensor returns a tensor of dtype dt and shape filled with a
// deterministic pattern of small values.
func patternTensor(dt tensor.DType, shape ...int) *tensor.Tensor {
	n, err := tensor.Numel(shape)
	if err != nil {
		panic(err)
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = float64((i*7+3)%11) - 5
		if dt.IsFloat() {
			vals[i] /= 4
		}
	}
	return tensor.Must(tensor.FromFloat64s(dt, vals, shape...))
}

// randn returns a float tensor of normal values from a fixed seed.
func randn(dt tensor.DType, seed uint64, shape ...int) *tensor.Tensor {
	return tensor.Must(tensor.NewGenerator(seed).Randn(dt, shape...))
}

func TestLinearAlgebraBadInput(t *testing.T) {
	f32 := func(s ...int) *tensor.Tensor { return patternTensor(tensor.Float32, s...) }
	typed := func(dt tensor.DType, s ...int) *tensor.Tensor { return patternTensor(dt, s...) }
	idx := func(v ...int64) *tensor.Tensor { return tensor.Must(tensor.FromSlice(v)) }
	conv := func(x, w, b *tensor.Tensor, s, p, d []int64, tr bool, op []int64, g int64) []any {
		var bias any
		if b != nil {
			bias = b
		}
		return []any{x, w, bias, s, p, d, tr, op, g}
	}
	one, zero := []int64{1}, []int64{0}
	cases := []struct {
		name   string
		op     string
		args   []any
		kwargs map[string]any
		arg    string // argument the error must name
	}{
		{"mm 1-d self", "aten::mm", []any{f32(3), f32(3, 2)}, nil, "self"},
		{"mm 3-d mat2", "aten::mm", []any{f32(2, 3), f32(1, 3, 2)}, nil, "mat2"},
		{"mm shapes", "aten::mm", []any{f32(2, 3), f32(4, 2)}, nil, "mat2"},
		{"mm dtypes", "aten::mm", []any{f32(2, 3), typed(tensor.Float64, 3, 2)}, nil, "mat2"},
		{"mm float16", "aten::mm", []any{typed(tensor.Float16, 2, 3), typed(tensor.Float16, 3, 2)}, nil, "self"},
		{"mm bool", "aten::mm", []any{typed(tensor.Bool, 2, 3), typed(tensor.Bool, 3, 2)}, nil, "self"},
		{"bmm 2-d", "aten::bmm", []any{f32(2, 3), f32(2, 3, 2)}, nil, "self"},
		{"bmm batch", "aten::bmm", []any{f32(2, 2, 3), f32(3, 3, 2)}, nil, "mat2"},
		{"bmm inner", "aten::bmm", []any{f32(2, 2, 3), f32(2, 4, 2)}, nil, "mat2"},
		{"bmm dtypes", "aten::bmm", []any{f32(2, 2, 3), typed(tensor.Int64, 2, 3, 2)}, nil, "mat2"},
		{"addmm self shape", "aten::addmm", []any{f32(3), f32(2, 2), f32(2, 2)}, nil, "self"},
		{"addmm self rank", "aten::addmm", []any{f32(1, 2, 2), f32(2, 2), f32(2, 2)}, nil, "self"},
		{"addmm self dtype", "aten::addmm", []any{typed(tensor.Float64, 2), f32(2, 2), f32(2, 2)}, nil, "self"},
		{"addmm mat1 1-d", "aten::addmm", []any{f32(2), f32(2), f32(2, 2)}, nil, "mat1"},
		{"addmm shapes", "aten::addmm", []any{f32(2), f32(2, 3), f32(2, 2)}, nil, "mat2"},
		{"matmul 0-d", "aten::matmul", []any{f32(), f32(3)}, nil, "self"},
		{"matmul 0-d other", "aten::matmul", []any{f32(3), f32()}, nil, "other"},
		{"matmul dot sizes", "aten::matmul", []any{f32(3), f32(4)}, nil, "other"},
		{"matmul dot dtypes", "aten::matmul", []any{f32(3), typed(tensor.Float64, 3)}, nil, "other"},
		{"matmul mv sizes", "aten::matmul", []any{f32(2, 3), f32(4)}, nil, "other"},
		{"matmul batch", "aten::matmul", []any{f32(2, 3, 4), f32(3, 4, 5)}, nil, "other"},
		{"matmul batched inner", "aten::matmul", []any{f32(2, 3, 4), f32(2, 3, 5)}, nil, "other"},
		{"matmul float16", "aten::matmul", []any{typed(tensor.Float16, 2, 3), typed(tensor.Float16, 3)}, nil, "self"},
		{"linear 3-d weight", "aten::linear", []any{f32(2, 3), f32(1, 4, 3)}, nil, "weight"},
		{"linear shapes", "aten::linear", []any{f32(2, 3), f32(4, 2)}, nil, "weight"},
		{"linear 3-d shapes", "aten::linear", []any{f32(2, 2, 3), f32(4, 2), f32(4)}, nil, "weight"},
		{"linear bias shape", "aten::linear", []any{f32(2, 3), f32(4, 3), f32(5)}, nil, "bias"},
		{"linear 4-d bias shape", "aten::linear", []any{f32(1, 2, 2, 3), f32(4, 3), f32(2, 1, 2, 4)}, nil, "bias"},
		{"linear bias dtype", "aten::linear", []any{f32(2, 3), f32(4, 3), typed(tensor.Float64, 4)}, nil, "bias"},
		{"linear float bias into int", "aten::linear", []any{typed(tensor.Int64, 3), typed(tensor.Int64, 4, 3), f32(4)}, nil, "bias"},
		{"linear 1-d weight with bias", "aten::linear", []any{f32(2, 3), f32(3), f32(2)}, nil, "weight"},
		{"embedding 1-d weight", "aten::embedding", []any{f32(3), idx(1)}, nil, "weight"},
		{"embedding float indices", "aten::embedding", []any{f32(3, 2), f32(2)}, nil, "indices"},
		{"embedding index too big", "aten::embedding", []any{f32(3, 2), idx(0, 3)}, nil, "indices"},
		{"embedding negative index", "aten::embedding", []any{f32(3, 2), idx(-1)}, nil, "indices"},
		{"dropout p > 1", "aten::dropout", []any{f32(3), 1.5, false}, nil, "p"},
		{"dropout p < 0", "aten::dropout", []any{f32(3), -0.5, false}, nil, "p"},
		{"dropout p nan", "aten::dropout", []any{f32(3), math.NaN(), false}, nil, "p"},

		{"conv 2-d weight", "aten::convolution", conv(f32(1, 2, 5), f32(3, 2), nil, one, zero, one, false, zero, 1), nil, "weight"},
		{"conv groups 0", "aten::convolution", conv(f32(1, 2, 5, 5), f32(3, 2, 3, 3), nil, one, zero, one, false, zero, 0), nil, "groups"},
		{"conv stride list", "aten::convolution", conv(f32(1, 2, 5, 5), f32(3, 2, 3, 3), nil, []int64{1, 1, 1}, zero, one, false, zero, 1), nil, "stride"},
		{"conv empty stride", "aten::convolution", conv(f32(1, 2, 5, 5), f32(3, 2, 3, 3), nil, []int64{}, zero, one, false, zero, 1), nil, "stride"},
		{"conv output_padding list", "aten::convolution", conv(f32(1, 2, 5, 5), f32(3, 2, 3, 3), nil, one, zero, one, false, []int64{0, 0, 0}, 1), nil, "output_padding"},
		{"conv negative padding", "aten::convolution", conv(f32(1, 2, 5, 5), f32(3, 2, 3, 3), nil, one, []int64{-1}, one, false, zero, 1), nil, "padding"},
		{"conv negative output_padding", "aten::convolution", conv(f32(1, 2, 5, 5), f32(2, 3, 3, 3), nil, one, zero, one, true, []int64{-1}, 1), nil, "output_padding"},
		{"conv stride 0", "aten::convolution", conv(f32(1, 2, 5, 5), f32(3, 2, 3, 3), nil, zero, zero, one, false, zero, 1), nil, "stride"},
		{"conv dilation 0", "aten::convolution", conv(f32(1, 2, 5, 5), f32(3, 2, 3, 3), nil, one, zero, zero, false, zero, 1), nil, "dilation"},
		{"conv input rank", "aten::convolution", conv(f32(2, 5, 5), f32(3, 2, 3, 3), nil, one, zero, one, false, zero, 1), nil, "input"},
		{"conv groups above out channels", "aten::convolution", conv(f32(1, 4, 5, 5), f32(3, 1, 3, 3), nil, one, zero, one, false, zero, 4), nil, "weight"},
		{"conv groups divide", "aten::convolution", conv(f32(1, 4, 5, 5), f32(3, 2, 3, 3), nil, one, zero, one, false, zero, 2), nil, "weight"},
		{"conv channels", "aten::convolution", conv(f32(1, 3, 5, 5), f32(3, 2, 3, 3), nil, one, zero, one, false, zero, 1), nil, "input"},
		{"conv transposed channels", "aten::convolution", conv(f32(1, 3, 5, 5), f32(2, 3, 3, 3), nil, one, zero, one, true, zero, 1), nil, "input"},
		{"conv bias size", "aten::convolution", conv(f32(1, 2, 5, 5), f32(3, 2, 3, 3), f32(4), one, zero, one, false, zero, 1), nil, "bias"},
		{"conv bias rank", "aten::convolution", conv(f32(1, 2, 5, 5), f32(3, 2, 3, 3), f32(1, 3), one, zero, one, false, zero, 1), nil, "bias"},
		{"conv transposed bias size", "aten::convolution", conv(f32(1, 2, 5, 5), f32(2, 3, 3, 3), f32(2), one, zero, one, true, zero, 1), nil, "bias"},
		{"conv kernel too big", "aten::convolution", conv(f32(1, 2, 2, 5), f32(3, 2, 3, 3), nil, one, zero, one, false, zero, 1), nil, "input"},
		{"conv kernel size 0", "aten::convolution", conv(f32(1, 2, 5, 5), f32(3, 2, 0, 3), nil, one, zero, one, false, zero, 1), nil, "weight"},
		{"conv empty spatial input", "aten::convolution", conv(f32(1, 2, 0, 5), f32(3, 2, 1, 1), nil, one, one, one, false, zero, 1), nil, "input"},
		{"conv transposed output too small", "aten::convolution", conv(f32(1, 2, 1, 1), f32(2, 3, 3, 3), nil, one, []int64{3}, one, true, zero, 1), nil, "input"},
		{"conv output_padding too big", "aten::convolution", conv(f32(1, 2, 5, 5), f32(2, 3, 3, 3), nil, one, zero, one, true, one, 1), nil, "output_padding"},
		{"conv weight dtype", "aten::convolution", conv(f32(1, 2, 5, 5), typed(tensor.Float64, 3, 2, 3, 3), nil, one, zero, one, false, zero, 1), nil, "weight"},
		{"conv float16", "aten::convolution", conv(typed(tensor.Float16, 1, 2, 5, 5), typed(tensor.Float16, 3, 2, 3, 3), nil, one, zero, one, false, zero, 1), nil, "input"},
		{"conv int32 dilated", "aten::convolution", conv(typed(tensor.Int32, 1, 2, 5, 5), typed(tensor.Int32, 3, 2, 2, 2), nil, one, zero, []int64{2}, false, zero, 1), nil, "input"},
		{"conv uint8 transposed", "aten::convolution", conv(typed(tensor.Uint8, 1, 2, 5, 5), typed(tensor.Uint8, 2, 3, 2, 2), nil, one, zero, one, true, zero, 1), nil, "input"},
		{"conv2d 5-d input", "aten::conv2d", []any{f32(1, 1, 2, 5, 5), f32(3, 1, 3, 3)}, nil, "input"},
		{"conv2d 2-d input", "aten::conv2d", []any{f32(5, 5), f32(3, 1, 3, 3)}, nil, "input"},
		{"conv2d bias dtype", "aten::conv2d", []any{f32(1, 2, 5, 5), f32(3, 2, 3, 3), typed(tensor.Float64, 3)}, nil, "bias"},
		{"conv1d channels", "aten::conv1d", []any{f32(1, 2, 5), f32(3, 3, 3)}, nil, "input"},

		{"max_pool kernel_size empty", "aten::max_pool2d", []any{f32(1, 1, 4, 4), []int64{}}, nil, "kernel_size"},
		{"max_pool kernel_size 3", "aten::max_pool2d", []any{f32(1, 1, 4, 4), []int64{2, 2, 2}}, nil, "kernel_size"},
		{"max_pool kernel 0", "aten::max_pool2d", []any{f32(1, 1, 4, 4), []int64{0, 2}, []int64{1, 1}}, nil, "kernel_size"},
		{"max_pool stride 0", "aten::max_pool2d", []any{f32(1, 1, 4, 4), []int64{2, 2}, []int64{0, 0}}, nil, "stride"},
		{"max_pool negative stride", "aten::max_pool2d", []any{f32(1, 1, 4, 4), []int64{2, 2}, []int64{-1, -1}}, nil, "stride"},
		{"max_pool pad above half kernel", "aten::max_pool2d", []any{f32(1, 1, 4, 4), []int64{2, 2}, []int64{2, 2}, []int64{2, 2}}, nil, "padding"},
		{"max_pool negative pad", "aten::max_pool2d", []any{f32(1, 1, 4, 4), []int64{2, 2}, []int64{2, 2}, []int64{-1, -1}}, nil, "padding"},
		{"max_pool dilation 0", "aten::max_pool2d", []any{f32(1, 1, 4, 4), []int64{2, 2}, []int64{1, 1}, []int64{0, 0}, []int64{0, 0}}, nil, "dilation"},
		{"max_pool 2-d input", "aten::max_pool2d", []any{f32(4, 4), []int64{2, 2}}, nil, "self"},
		{"max_pool zero channels", "aten::max_pool2d", []any{f32(1, 0, 4, 4), []int64{2, 2}}, nil, "self"},
		{"max_pool output too small", "aten::max_pool2d", []any{f32(1, 1, 4, 4), []int64{5, 5}}, nil, "self"},
		{"max_pool int64", "aten::max_pool2d_with_indices", []any{typed(tensor.Int64, 1, 1, 4, 4), []int64{2, 2}}, nil, "self"},
		{"max_pool float16", "aten::max_pool2d", []any{typed(tensor.Float16, 1, 1, 4, 4), []int64{2, 2}}, nil, "self"},
		{"avg_pool divisor 0", "aten::avg_pool2d", []any{f32(1, 1, 4, 4), []int64{2, 2}, []int64{2, 2}, []int64{0, 0}, false, true, int64(0)}, nil, "divisor_override"},
		{"avg_pool padding 3", "aten::avg_pool2d", []any{f32(1, 1, 4, 4), []int64{2, 2}, []int64{2, 2}, []int64{0, 0, 0}}, nil, "padding"},
		{"avg_pool int32", "aten::avg_pool2d", []any{typed(tensor.Int32, 1, 1, 4, 4), []int64{2, 2}}, nil, "self"},
		{"avg_pool 5-d", "aten::avg_pool2d", []any{f32(1, 1, 1, 4, 4), []int64{2, 2}}, nil, "self"},
		{"adaptive negative size", "aten::adaptive_avg_pool2d", []any{f32(1, 2, 4, 4), []int64{-1, 2}}, nil, "output_size"},
		{"adaptive empty plane", "aten::adaptive_avg_pool2d", []any{f32(1, 2, 0, 4), []int64{2, 2}}, nil, "self"},
		{"adaptive 2-d input", "aten::adaptive_avg_pool2d", []any{f32(4, 4), []int64{2, 2}}, nil, "self"},
		{"adaptive 1x1 int", "aten::adaptive_avg_pool2d", []any{typed(tensor.Int64, 1, 2, 4, 4), []int64{1, 1}}, nil, "self"},
		{"adaptive 1x1 1-d", "aten::adaptive_avg_pool2d", []any{f32(4), []int64{1, 1}}, nil, "self"},
		{"_adaptive int", "aten::_adaptive_avg_pool2d", []any{typed(tensor.Int64, 1, 2, 4, 4), []int64{2, 2}}, nil, "self"},
		{"_adaptive float16", "aten::_adaptive_avg_pool2d", []any{typed(tensor.Float16, 1, 2, 4, 4), []int64{1, 1}}, nil, "self"},
		{"upsample both", "aten::upsample_nearest2d.vec", []any{f32(1, 1, 2, 2), []int64{4, 4}, []float64{2, 2}}, nil, "scale_factors"},
		{"upsample neither", "aten::upsample_nearest2d.vec", []any{f32(1, 1, 2, 2), nil, nil}, nil, "output_size"},
		{"upsample size count", "aten::upsample_nearest2d.vec", []any{f32(1, 1, 2, 2), []int64{4, 4, 4}, nil}, nil, "output_size"},
		{"upsample scale count", "aten::upsample_nearest2d.vec", []any{f32(1, 1, 2, 2), nil, []float64{2}}, nil, "scale_factors"},
		{"upsample 3-d", "aten::upsample_nearest2d.vec", []any{f32(1, 2, 2), []int64{4}, nil}, nil, "output_size"},
		{"upsample zero size", "aten::upsample_nearest2d.vec", []any{f32(1, 1, 2, 2), []int64{0, 4}, nil}, nil, "input"},
		{"upsample small scale", "aten::upsample_nearest2d.vec", []any{f32(1, 1, 2, 2), nil, []float64{0.1, 1}}, nil, "input"},
		{"upsample zero channels", "aten::upsample_nearest2d.vec", []any{f32(1, 0, 2, 2), []int64{4, 4}, nil}, nil, "input"},
		{"upsample int64", "aten::upsample_nearest2d.vec", []any{typed(tensor.Int64, 1, 1, 2, 2), []int64{4, 4}, nil}, nil, "input"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := optest.Call(t, tc.op, tc.args, tc.kwargs)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "argument '"+tc.arg+"'")
			assert.NotContains(t, err.Error(), "internal error")
		})
	}
}

// TestLinearAlgebraMeta checks meta results of shape errors and of data-independent
// outputs for ops whose kernels refuse some dtypes.
func TestLinearAlgebraMeta(t *testing.T) {
	m := func(dt tensor.DType, s ...int) *tensor.Tensor { return tensor.Must(tensor.NewMeta(dt, s...)) }
	out := optest.Tensor(t, "aten::mm", []any{m(tensor.Float16, 2, 3), m(tensor.Float16, 3, 4)}, nil)
	assert.True(t, out.IsMeta())
	assert.Equal(t, []int{2, 4}, out.Shape())
	assert.Equal(t, tensor.Float16, out.DType())
	out = optest.Tensor(t, "aten::linear", []any{m(tensor.Float32, 2, 5, 3), m(tensor.Float32, 4, 3), m(tensor.Float32, 4)}, nil)
	assert.Equal(t, []int{2, 5, 4}, out.Shape())
	out = optest.Tensor(t, "aten::conv3d", []any{m(tensor.Float32, 4, 5, 5, 5), m(tensor.Float32, 6, 2, 3, 3, 3), nil, []int64{1, 1, 1}, []int64{1, 1, 1}, []int64{1, 1, 1}, int64(2)}, nil)
	assert.Equal(t, []int{6, 5, 5, 5}, out.Shape())
	outs, err := optest.Call(t, "aten::max_pool2d_with_indices", []any{m(tensor.Float32, 3, 7, 7), []int64{3, 3}, []int64{2, 2}, []int64{1, 1}, []int64{1, 1}, true}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{3, 4, 4}, outs[0].(*tensor.Tensor).Shape())
	assert.Equal(t, tensor.Int64, outs[1].(*tensor.Tensor).DType())
	_, err = optest.Call(t, "aten::mm", []any{m(tensor.Float32, 2, 3), m(tensor.Float32, 4, 4)}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "argument 'mat2'")
}

// requireClose asserts that got and want have the same dtype and shape and
// values within tol.
func requireClose(t *testing.T, want, got *tensor.Tensor, tol float64) {
	t.Helper()
	require.Equal(t, want.DType(), got.DType())
	require.Equal(t, want.Shape(), got.Shape())
	w, g := want.Float64s(), got.Float64s()
	for i := range w {
		if math.Abs(w[i]-g[i]) > tol*(1+math.Abs(w[i])) {
			t.Fatalf("element %d: got %v, want %v", i, g[i], w[i])
		}
	}
}

// TestLinearAlgebraNonContiguous runs kernels on strided views and checks them
// against contiguous copies.
func TestLinearAlgebraNonContiguous(t *testing.T) {
	a := randn(tensor.Float32, 1, 6, 5)
	b := randn(tensor.Float32, 2, 4, 6)
	at := tensor.Must(a.T()) // [5, 6] column-major
	bt := tensor.Must(b.T()) // [6, 4] column-major
	want := optest.Tensor(t, "aten::mm", []any{at.Contiguous(), bt.Contiguous()}, nil)
	requireClose(t, want, optest.Tensor(t, "aten::mm", []any{at, bt}, nil), 1e-6)
	sl := tensor.Must(randn(tensor.Float32, 3, 6, 9).Slice(1, 1, 9, 2)) // [6, 4] with row stride 9
	want = optest.Tensor(t, "aten::mm", []any{at.Contiguous(), sl.Contiguous()}, nil)
	requireClose(t, want, optest.Tensor(t, "aten::mm", []any{at, sl}, nil), 1e-6)
	ints := tensor.Must(patternTensor(tensor.Int64, 4, 3).T())
	want = optest.Tensor(t, "aten::mm", []any{ints.Contiguous(), patternTensor(tensor.Int64, 4, 2)}, nil)
	requireClose(t, want, optest.Tensor(t, "aten::mm", []any{ints, patternTensor(tensor.Int64, 4, 2)}, nil), 0)

	x := tensor.Must(randn(tensor.Float32, 4, 1, 5, 6, 3).Permute(0, 3, 1, 2)) // [1, 3, 5, 6] channels-last
	w := randn(tensor.Float32, 5, 2, 3, 3, 3)
	args := func(x *tensor.Tensor) []any {
		return []any{x, w, nil, []int64{1}, []int64{1}, []int64{1}, false, []int64{0}, int64(1)}
	}
	want = optest.Tensor(t, "aten::convolution", args(x.Contiguous()), nil)
	requireClose(t, want, optest.Tensor(t, "aten::convolution", args(x), nil), 1e-6)

	want = optest.Tensor(t, "aten::max_pool2d", []any{x.Contiguous(), []int64{2, 2}}, nil)
	requireClose(t, want, optest.Tensor(t, "aten::max_pool2d", []any{x, []int64{2, 2}}, nil), 0)
	want = optest.Tensor(t, "aten::avg_pool2d", []any{x.Contiguous(), []int64{2, 2}}, nil)
	requireClose(t, want, optest.Tensor(t, "aten::avg_pool2d", []any{x, []int64{2, 2}}, nil), 0)
	want = optest.Tensor(t, "aten::upsample_nearest2d.vec", []any{x.Contiguous(), []int64{7, 9}, nil}, nil)
	requireClose(t, want, optest.Tensor(t, "aten::upsample_nearest2d.vec", []any{x, []int64{7, 9}, nil}, nil), 0)
	emb := tensor.Must(randn(tensor.Float32, 6, 4, 5).T())
	want = optest.Tensor(t, "aten::embedding", []any{emb.Contiguous(), tensor.Must(tensor.FromSlice([]int64{4, 0, 2}))}, nil)
	requireClose(t, want, optest.Tensor(t, "aten::embedding", []any{emb, tensor.Must(tensor.FromSlice([]int64{4, 0, 2}))}, nil), 0)
}

// TestLinearAlgebraLargeMatmul checks products large enough for gonum's parallel
// blocks and the integer loop's row split against a float64 reference.
func TestLinearAlgebraLargeMatmul(t *testing.T) {
	a := randn(tensor.Float64, 3, 130, 70)
	b := randn(tensor.Float64, 4, 70, 150)
	av, bv := a.Float64s(), b.Float64s()
	ref := make([]float64, 130*150)
	for i := range 130 {
		for k := range 70 {
			for j := range 150 {
				ref[i*150+j] += av[i*70+k] * bv[k*150+j]
			}
		}
	}
	want := tensor.Must(tensor.FromFloat64s(tensor.Float64, ref, 130, 150))
	requireClose(t, want, optest.Tensor(t, "aten::mm", []any{a, b}, nil), 1e-12)
	requireClose(t, want.To(tensor.Float32), optest.Tensor(t, "aten::mm", []any{a.To(tensor.Float32), b.To(tensor.Float32)}, nil), 1e-4)
	ai, bi := patternTensor(tensor.Int64, 130, 70), patternTensor(tensor.Int64, 70, 150)
	aiv, biv := ai.Int64s(), bi.Int64s()
	iref := make([]int64, 130*150)
	for i := range 130 {
		for k := range 70 {
			for j := range 150 {
				iref[i*150+j] += aiv[i*70+k] * biv[k*150+j]
			}
		}
	}
	requireClose(t, tensor.Must(tensor.FromInt64s(tensor.Int64, iref, 130, 150)), optest.Tensor(t, "aten::mm", []any{ai, bi}, nil), 0)
}

// TestLinearPaths checks linear's folded path (a contiguous input of 3 or
// more dimensions times weight.t(), the bias added in the GEMM's final
// stores) and addmm's bias epilogue (a row, a column, a scalar, a full
// matrix; beta and alpha not 1; float64 and bfloat16) against matmul
// followed by add, computed through the other operators.
func TestLinearPaths(t *testing.T) {
	for _, tc := range []struct {
		name    string
		x, w, b []int
		permute bool
	}{
		{"3-d", []int{2, 5, 8}, []int{6, 8}, []int{6}, false},
		{"4-d", []int{2, 3, 5, 8}, []int{6, 8}, []int{6}, false},
		{"4-d not contiguous", []int{2, 3, 8, 5}, []int{6, 8}, []int{6}, true},
		{"4-d broadcast bias", []int{2, 3, 5, 8}, []int{6, 8}, []int{5, 6}, false},
		{"batch 1 classifier", []int{1, 512}, []int{1000, 512}, []int{1000}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := randn(tensor.Float32, 1, tc.x...)
			if tc.permute {
				x = tensor.Must(x.Transpose(-1, -2))
			}
			w, b := randn(tensor.Float32, 2, tc.w...), randn(tensor.Float32, 3, tc.b...)
			got := optest.Tensor(t, "aten::linear", []any{x, w, b}, nil)
			prod := optest.Tensor(t, "aten::matmul", []any{x, tensor.Must(w.T())}, nil)
			requireClose(t, optest.Tensor(t, "aten::add.Tensor", []any{prod, b}, nil), got, 1e-5)
		})
	}
	for _, tc := range []struct {
		name        string
		dt          tensor.DType
		bias        []int
		beta, alpha float64
	}{
		{"row", tensor.Float32, []int{7}, 1, 1},
		{"row beta alpha", tensor.Float32, []int{1, 7}, 0.5, -2},
		{"column", tensor.Float32, []int{5, 1}, 2, 1},
		{"scalar", tensor.Float32, []int{}, 1, 0.5},
		{"matrix", tensor.Float32, []int{5, 7}, 0.25, 1},
		{"float64 row", tensor.Float64, []int{7}, 1.5, 1},
		{"bfloat16 row", tensor.BFloat16, []int{7}, 1, 1},
		{"vector times matrix", tensor.Float32, []int{7}, 1, 1},
	} {
		t.Run("addmm "+tc.name, func(t *testing.T) {
			m := 5
			if tc.name == "vector times matrix" {
				m = 1
			}
			self := randn(tc.dt, 4, tc.bias...)
			if len(tc.bias) == 2 && tc.bias[0] == 5 {
				self = randn(tc.dt, 4, m, tc.bias[1])
				if tc.bias[1] == 1 {
					self = randn(tc.dt, 4, m, 1)
				}
			}
			a, b := randn(tc.dt, 5, m, 40), randn(tc.dt, 6, 7, 40)
			bt := tensor.Must(b.T())
			got := optest.Tensor(t, "aten::addmm", []any{self, a, bt}, map[string]any{"beta": tc.beta, "alpha": tc.alpha})
			prod := optest.Tensor(t, "aten::mul.Scalar", []any{optest.Tensor(t, "aten::mm", []any{a, bt}, nil), tc.alpha}, nil)
			scaled := optest.Tensor(t, "aten::mul.Scalar", []any{self, tc.beta}, nil)
			tol := 1e-5
			if tc.dt == tensor.BFloat16 {
				tol = 2e-2
			}
			requireClose(t, optest.Tensor(t, "aten::add.Tensor", []any{scaled, prod}, nil), got, tol)
		})
	}
}
