package kernels_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// redT returns a float tensor of dtype dt holding 0, 1, 2, ... scaled by
// 0.5 and shifted by -1, in the given shape.
func redT(dt tensor.DType, shape ...int) *tensor.Tensor {
	n, err := tensor.Numel(shape)
	if err != nil {
		panic(err)
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = float64(i)*0.5 - 1
	}
	return tensor.Must(tensor.FromFloat64s(dt, vals, shape...))
}

// redCall calls the operator called name.
func redCall(t *testing.T, name string, args []any, kwargs map[string]any) ([]any, error) {
	t.Helper()
	o, ok := ops.Global().Lookup(name)
	require.True(t, ok, name)
	return o.Call(args, kwargs)
}

func TestReduceBadInput(t *testing.T) {
	f32 := func(shape ...int) *tensor.Tensor { return redT(tensor.Float32, shape...) }
	i64 := func(shape ...int) *tensor.Tensor { return redT(tensor.Int64, shape...) }
	cases := []struct {
		name   string
		op     string
		args   []any
		kwargs map[string]any
		arg    string // the argument the error must blame
		msg    string // a substring of the error
	}{
		{"sum dim out of range", "aten::sum.dim_IntList", []any{f32(2, 3), []int64{2}}, nil, "dim", "out of range"},
		{"sum repeated dim", "aten::sum.dim_IntList", []any{f32(2, 3), []int64{1, -1}}, nil, "dim", "appears multiple times"},
		{"sum 0-d dim 1", "aten::sum.dim_IntList", []any{f32(), []int64{1}}, nil, "dim", "out of range"},
		{"mean of int64", "aten::mean.dim", []any{i64(2, 3), []int64{1}}, nil, "self", "Input dtype must be either a floating point"},
		{"mean with int dtype", "aten::mean.dim", []any{f32(2, 3), []int64{1}}, map[string]any{"dtype": tensor.Int64}, "dtype", "Optional dtype must be"},
		{"prod of float16", "aten::prod.dim_int", []any{redT(tensor.Float16, 2, 3), int64(1)}, nil, "self", `"prod_cpu" not implemented for 'Half'`},
		{"prod with bfloat16 dtype", "aten::prod.dim_int", []any{f32(2, 3), int64(1)}, map[string]any{"dtype": tensor.BFloat16}, "dtype", "BFloat16"},
		{"prod dim out of range", "aten::prod.dim_int", []any{f32(2, 3), int64(-3)}, nil, "dim", "out of range"},
		{"var of int", "aten::var.correction", []any{i64(2, 3), []int64{1}}, map[string]any{"correction": int64(1)}, "self", "only support floating point"},
		{"var repeated dim", "aten::var.correction", []any{f32(2, 3), []int64{0, 0}}, map[string]any{"correction": nil}, "dim", "appears multiple times"},
		{"amax of empty over size-0 dim", "aten::amax", []any{f32(0, 3), []int64{0}}, nil, "dim", "Expected reduction dim 0 to have non-zero size"},
		{"amin of empty without dims", "aten::amin", []any{f32(0, 3)}, nil, "self", "Specify the reduction dim"},
		{"any dim out of range", "aten::any.dim", []any{f32(2, 3), int64(2)}, nil, "dim", "out of range"},
		{"argmax of empty flattened", "aten::argmax", []any{f32(0, 3)}, nil, "self", "input.numel() == 0"},
		{"argmin of bool", "aten::argmin", []any{tensor.Must(tensor.FromSlice([]bool{true, false})), int64(0)}, nil, "self", `"argmin_cpu" not implemented for 'Bool'`},
		{"max.dim over empty dim", "aten::max.dim", []any{f32(0, 3), int64(0)}, nil, "dim", "max(): Expected reduction dim 0"},
		{"min.dim dim out of range", "aten::min.dim", []any{f32(2, 3), int64(5)}, nil, "dim", "out of range"},
		{"cumsum of float16", "aten::cumsum", []any{redT(tensor.Float16, 2, 3), int64(1)}, nil, "self", `"cumsum_out_cpu" not implemented for 'Half'`},
		{"cumsum with bool dtype", "aten::cumsum", []any{f32(2, 3), int64(1)}, map[string]any{"dtype": tensor.Bool}, "dtype", "'Bool'"},
		{"_softmax half_to_float", "aten::_softmax", []any{f32(2, 3), int64(1), true}, nil, "half_to_float", "not supported on CPU"},
		{"_softmax of int64", "aten::_softmax", []any{i64(2, 3), int64(0), false}, nil, "self", `"softmax_kernel_impl" not implemented for 'Long'`},
		{"_log_softmax of float16", "aten::_log_softmax", []any{redT(tensor.Float16, 2, 3), int64(1), false}, nil, "self", `"log_softmax_lastdim_kernel_impl" not implemented for 'Half'`},
		{"softmax dim out of range", "aten::softmax.int", []any{f32(2, 3), int64(2)}, nil, "dim", "out of range"},
		{"softmax with int dtype", "aten::softmax.int", []any{f32(2, 3), int64(1), tensor.Int64}, nil, "dtype", "'Long'"},
		{"layer norm without normalized dims", "aten::native_layer_norm", []any{f32(2, 3), []int64{}, nil, nil, 1e-5}, nil, "normalized_shape", "at least 1-dimensional"},
		{"layer norm shape mismatch", "aten::native_layer_norm", []any{f32(2, 3), []int64{4}, nil, nil, 1e-5}, nil, "normalized_shape", "expected input with shape [*, 4]"},
		{"layer norm weight shape", "aten::native_layer_norm", []any{f32(2, 3), []int64{3}, f32(4), nil, 1e-5}, nil, "weight", "same shape as normalized_shape"},
		{"layer norm bias dtype", "aten::native_layer_norm", []any{f32(2, 3), []int64{3}, nil, redT(tensor.Float64, 3), 1e-5}, nil, "bias", "expected scalar type Float but found Double"},
		{"layer norm of int", "aten::layer_norm", []any{i64(2, 3), []int64{3}}, nil, "input", `"LayerNormKernelImpl" not implemented for 'Long'`},
		{"group norm with no groups", "aten::native_group_norm", []any{f32(2, 6, 4), nil, nil, int64(2), int64(6), int64(4), int64(0), 1e-5}, nil, "group", "greater than 0"},
		{"group norm indivisible channels", "aten::native_group_norm", []any{f32(2, 6, 4), nil, nil, int64(2), int64(6), int64(4), int64(4), 1e-5}, nil, "group", "divisible by num_groups"},
		{"group norm weight size", "aten::native_group_norm", []any{f32(2, 6, 4), f32(5), nil, int64(2), int64(6), int64(4), int64(3), 1e-5}, nil, "weight", "size equal to the number of channels"},
		{"group norm numel mismatch", "aten::native_group_norm", []any{f32(2, 6, 4), nil, nil, int64(3), int64(6), int64(4), int64(3), 1e-5}, nil, "input", "N * C * HxW"},
		{"group norm negative N", "aten::native_group_norm", []any{f32(0, 6, 4), nil, nil, int64(-1), int64(6), int64(4), int64(3), 1e-5}, nil, "N", "negative"},
		{"batch norm of a vector", "aten::native_batch_norm", []any{f32(3), nil, nil, nil, nil, true, 0.1, 1e-5}, nil, "input", "Dimension out of range"},
		{"batch norm of a scalar", "aten::native_batch_norm", []any{f32(), nil, nil, nil, nil, true, 0.1, 1e-5}, nil, "input", "no dimensions"},
		{"batch norm eval without running_var", "aten::native_batch_norm", []any{f32(2, 3), nil, nil, f32(3), nil, false, 0.1, 1e-5}, nil, "running_var", "must be defined in evaluation mode"},
		{"batch norm running_mean size", "aten::batch_norm", []any{f32(2, 3), nil, nil, f32(4), f32(4), false, 0.1, 1e-5, false}, nil, "running_mean", "should contain 3 elements not 4"},
		{"batch norm mixed float64 weight", "aten::native_batch_norm", []any{f32(2, 3), redT(tensor.Float64, 3), nil, nil, nil, true, 0.1, 1e-5}, nil, "weight", "expect parameter to have scalar type of Float"},
		{"batch norm mixed float32 input", "aten::native_batch_norm", []any{redT(tensor.Float64, 2, 3), nil, nil, f32(3), f32(3), true, 0.1, 1e-5}, nil, "input", "expect input to have scalar type of BFloat16"},
		{"batch norm of int", "aten::native_batch_norm", []any{i64(2, 3), nil, nil, nil, nil, true, 0.1, 1e-5}, nil, "input", `"batch_norm" not implemented for 'Long'`},
		{"batch_norm eval without running_mean", "aten::batch_norm", []any{f32(2, 3), nil, nil, nil, f32(3), false, 0.1, 1e-5, false}, nil, "running_mean", "must be defined in evaluation mode"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, isMeta := range []bool{false, true} {
				args := tc.args
				if isMeta {
					args = make([]any, len(tc.args))
					for i, a := range tc.args {
						if x, ok := a.(*tensor.Tensor); ok {
							a = x.Meta()
						}
						args[i] = a
					}
				}
				_, err := redCall(t, tc.op, args, tc.kwargs)
				require.Error(t, err, "meta=%v", isMeta)
				var ce *ops.CallError
				require.True(t, errors.As(err, &ce), "meta=%v: %v", isMeta, err)
				assert.Equal(t, tc.arg, ce.Arg, "meta=%v: %v", isMeta, err)
				assert.Contains(t, err.Error(), tc.msg, "meta=%v", isMeta)
				assert.NotContains(t, err.Error(), "internal error", "meta=%v", isMeta)
			}
		})
	}
}

func TestReduceBatchNormUpdatesRunningStats(t *testing.T) {
	// Two samples, two channels, two positions: channel 0 holds 1, 2, 3, 4
	// and channel 1 holds 10, 10, 10, 10.
	x := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{1, 2, 10, 10, 3, 4, 10, 10}, 2, 2, 2))
	rm := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{1, 2}, 2))
	rv := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{3, 4}, 2))
	out, err := redCall(t, "aten::native_batch_norm", []any{x, nil, nil, rm, rv, true, 0.25, 1e-5}, nil)
	require.NoError(t, err)
	// Running stats: momentum*batch + (1-momentum)*running, with the
	// unbiased variance (5/3 for 1..4, 0 for the constant channel).
	assert.InDeltaSlice(t, []float64{0.25*2.5 + 0.75*1, 0.25*10 + 0.75*2}, rm.Float64s(), 1e-6)
	assert.InDeltaSlice(t, []float64{0.25*5.0/3 + 0.75*3, 0.75 * 4}, rv.Float64s(), 1e-6)
	// Saved statistics use the biased variance (1.25 and 0).
	assert.InDeltaSlice(t, []float64{2.5, 10}, out[1].(*tensor.Tensor).Float64s(), 1e-6)
	assert.InDeltaSlice(t, []float64{1 / math.Sqrt(1.25+1e-5), 1 / math.Sqrt(1e-5)}, out[2].(*tensor.Tensor).Float64s(), 1e-3)

	// The composite batch_norm updates them too; eval mode leaves them.
	_, err = redCall(t, "aten::batch_norm", []any{x, nil, nil, rm, rv, false, 0.25, 1e-5, false}, nil)
	require.NoError(t, err)
	assert.InDeltaSlice(t, []float64{0.25*2.5 + 0.75*1, 0.25*10 + 0.75*2}, rm.Float64s(), 1e-6)
}

func TestReduceNonContiguousInputs(t *testing.T) {
	base := redT(tensor.Float64, 3, 4, 5)
	perm := tensor.Must(base.Permute(2, 0, 1)) // [5, 3, 4], not contiguous
	require.False(t, perm.IsContiguous())
	dense := perm.Clone()
	for _, tc := range []struct {
		op   string
		args func(x *tensor.Tensor) []any
	}{
		{"aten::sum.dim_IntList", func(x *tensor.Tensor) []any { return []any{x, []int64{0, 2}, true} }},
		{"aten::var.correction", func(x *tensor.Tensor) []any { return []any{x, []int64{-1}} }},
		{"aten::amax", func(x *tensor.Tensor) []any { return []any{x, []int64{1}} }},
		{"aten::argmin", func(x *tensor.Tensor) []any { return []any{x} }},
		{"aten::cumsum", func(x *tensor.Tensor) []any { return []any{x, int64(1)} }},
		{"aten::_log_softmax", func(x *tensor.Tensor) []any { return []any{x, int64(0), false} }},
		{"aten::native_layer_norm", func(x *tensor.Tensor) []any { return []any{x, []int64{3, 4}, nil, nil, 1e-5} }},
	} {
		var kw map[string]any
		if tc.op == "aten::var.correction" {
			kw = map[string]any{"correction": nil}
		}
		got, err := redCall(t, tc.op, tc.args(perm), kw)
		require.NoError(t, err, tc.op)
		want, err := redCall(t, tc.op, tc.args(dense), kw)
		require.NoError(t, err, tc.op)
		for i := range want {
			g, w := got[i].(*tensor.Tensor), want[i].(*tensor.Tensor)
			assert.Equal(t, w.Shape(), g.Shape(), tc.op)
			assert.Equal(t, w.Float64s(), g.Float64s(), tc.op)
		}
	}
}

func TestReduceLargeRowsMatchSmall(t *testing.T) {
	// 300 rows of 257 elements go through parallelFor; each row reduced on
	// its own must give the same values.
	x := redT(tensor.Float32, 300, 257)
	got, err := redCall(t, "aten::_softmax", []any{x, int64(1), false}, nil)
	require.NoError(t, err)
	sums, err := redCall(t, "aten::sum.dim_IntList", []any{x, []int64{1}}, nil)
	require.NoError(t, err)
	for _, r := range []int{0, 1, 150, 299} {
		row := tensor.Must(x.Select(0, r))
		one, err := redCall(t, "aten::_softmax", []any{row, int64(0), false}, nil)
		require.NoError(t, err)
		assert.Equal(t, one[0].(*tensor.Tensor).Float64s(), tensor.Must(got[0].(*tensor.Tensor).Select(0, r)).Float64s())
		s, err := redCall(t, "aten::sum.default", []any{row}, nil)
		require.NoError(t, err)
		assert.Equal(t, s[0].(*tensor.Tensor).Float64s()[0], sums[0].(*tensor.Tensor).Float64s()[r])
	}
}

func TestReduceIntegerExactness(t *testing.T) {
	// int64 values beyond 2^53 must not pass through float64.
	big := int64(1)<<62 + 1
	x := tensor.Must(tensor.FromSlice([]int64{big, big + 2, big + 1}))
	out, err := redCall(t, "aten::max.dim", []any{x, int64(0)}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int64{big + 2}, out[0].(*tensor.Tensor).Int64s())
	assert.Equal(t, []int64{1}, out[1].(*tensor.Tensor).Int64s())
	s, err := redCall(t, "aten::cumsum", []any{x, int64(0)}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int64{big, 2*big + 2, 3*big + 3}, s[0].(*tensor.Tensor).Int64s())
}
