package kernels_test

import (
	"errors"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// callReduceOverload calls the operator called name and fails the test on an error.
func callReduceOverload(t *testing.T, name string, args []any, kwargs map[string]any) []any {
	t.Helper()
	out, err := optest.Call(t, name, args, kwargs)
	require.NoError(t, err, name)
	return out
}

// reduceOverloadTensor returns a tensor of dt and shape holding vals.
func reduceOverloadTensor(dt tensor.DType, vals []float64, shape ...int) *tensor.Tensor {
	return tensor.Must(tensor.FromFloat64s(dt, vals, shape...))
}

// requireSameValues asserts that got and want have the same dtype, shape and values
// (NaN equal to NaN).
func requireSameValues(t *testing.T, want, got *tensor.Tensor, what string) {
	t.Helper()
	require.Equal(t, want.DType(), got.DType(), what)
	require.Equal(t, want.Shape(), got.Shape(), what)
	wv, gv := want.Float64s(), got.Float64s()
	for i := range wv {
		if math.IsNaN(wv[i]) {
			assert.True(t, math.IsNaN(gv[i]), "%s[%d]: got %v, want NaN", what, i, gv[i])
			continue
		}
		assert.Equal(t, wv[i], gv[i], "%s[%d]", what, i)
	}
}

// extraFiles are the extra case files of this file's ops; the value says
// whether the op's output depends on the input's values, so that its meta
// function must refuse.
var extraFiles = map[string]bool{
	"aten.any.default": false, "aten.mean.default": false, "aten.prod.default": false,
	"aten.var.dim": false, "aten.sort.default": false, "aten.sort.stable": false,
	"aten.topk.default": false, "aten.native_dropout.default": false,
	"aten._local_scalar_dense.default": true, "aten.nonzero.default": true,
}

// TestReduceOverloadsMetaExtra runs the extra cases of these ops with meta tensors: the
// output dtypes and shapes must match, and the data-dependent ops must say
// that they are.
func TestReduceOverloadsMetaExtra(t *testing.T) {
	files, byFile := casesByFile(t, "testdata/extra")
	seen := 0
	for _, f := range files {
		dataDependent, ok := extraFiles[f]
		if !ok {
			continue
		}
		seen++
		t.Run(f, func(t *testing.T) {
			for _, c := range byFile[f] {
				err := conformance.RunMeta(c)
				if dataDependent {
					require.Error(t, err, c.ID)
					assert.Contains(t, err.Error(), "data-dependent", c.ID)
					continue
				}
				assert.NoError(t, err, c.ID)
			}
		})
	}
	assert.Equal(t, len(extraFiles), seen)
}

// TestAnyDims checks any.dims (newer than PyTorch 1.13) against any.dim
// applied one dimension at a time, and its None and [] dims.
func TestAnyDims(t *testing.T) {
	vals := []float64{0, 0, 1, 0, 0, 0, math.NaN(), 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Uint8, tensor.Int64, tensor.Bool, tensor.BFloat16} {
		x := reduceOverloadTensor(dt, vals, 2, 3, 4)
		outDT := tensor.Bool
		if dt == tensor.Uint8 {
			outDT = tensor.Uint8
		}
		for _, tc := range []struct {
			dims    []int64
			keepdim bool
		}{{[]int64{0}, false}, {[]int64{0, 2}, false}, {[]int64{-1, 0}, true}, {[]int64{1}, true}, {[]int64{2, 1, 0}, false}} {
			got := callReduceOverload(t, "aten::any.dims", []any{x, tc.dims, tc.keepdim}, nil)[0].(*tensor.Tensor)
			// Reduce the dims from the highest down with any.dim.
			sorted := make([]int64, len(tc.dims))
			for i, d := range tc.dims {
				sorted[i] = (d + 3) % 3
			}
			slices.Sort(sorted)
			want := x
			for i := len(sorted) - 1; i >= 0; i-- {
				want = callReduceOverload(t, "aten::any.dim", []any{want, sorted[i], tc.keepdim}, nil)[0].(*tensor.Tensor)
			}
			requireSameValues(t, want, got, dt.String())
			meta := callReduceOverload(t, "aten::any.dims", []any{x.Meta(), tc.dims, tc.keepdim}, nil)[0].(*tensor.Tensor)
			assert.True(t, meta.IsMeta())
			assert.Equal(t, want.Shape(), meta.Shape())
			assert.Equal(t, outDT, meta.DType())
		}
		// dim None reduces everything, like aten::any.
		got := callReduceOverload(t, "aten::any.dims", []any{x, nil}, nil)[0].(*tensor.Tensor)
		want := callReduceOverload(t, "aten::any", []any{x}, nil)[0].(*tensor.Tensor)
		requireSameValues(t, want, got, "dim None")
		got = callReduceOverload(t, "aten::any.dims", []any{x, nil, true}, nil)[0].(*tensor.Tensor)
		assert.Equal(t, []int{1, 1, 1}, got.Shape())
		// dim [] reduces nothing: each element's truth value.
		got = callReduceOverload(t, "aten::any.dims", []any{x, []int64{}, true}, nil)[0].(*tensor.Tensor)
		require.Equal(t, outDT, got.DType())
		require.Equal(t, x.Shape(), got.Shape())
		assert.Equal(t, x.Bools(), got.Bools(), "dim []")
	}
	// 0-d and empty inputs.
	got := callReduceOverload(t, "aten::any.dims", []any{tensor.Scalar[float32](2), []int64{0}}, nil)[0].(*tensor.Tensor)
	assert.Equal(t, []int{}, got.Shape())
	assert.Equal(t, []bool{true}, got.Bools())
	got = callReduceOverload(t, "aten::any.dims", []any{tensor.Empty(tensor.Float32, 0, 3), []int64{0}, true}, nil)[0].(*tensor.Tensor)
	assert.Equal(t, []int{1, 3}, got.Shape())
	assert.Equal(t, []bool{false, false, false}, got.Bools())
}

// TestReduceOverloadsNonContiguous runs sort, topk, nonzero and _local_scalar_dense on
// transposed views: results must equal those of contiguous copies.
func TestReduceOverloadsNonContiguous(t *testing.T) {
	vals := []float64{3, 1, 2, 1, 0, 0, 5, math.NaN(), 2, 2, 1, 0}
	x := tensor.Must(reduceOverloadTensor(tensor.Float32, vals, 3, 4).Transpose(0, 1))
	xc := x.Contiguous()
	for _, tc := range []struct {
		op   string
		args func(*tensor.Tensor) []any
	}{
		{"aten::sort", func(x *tensor.Tensor) []any { return []any{x, int64(0), true} }},
		{"aten::topk", func(x *tensor.Tensor) []any { return []any{x, int64(2), int64(1), false, false} }},
		{"aten::nonzero", func(x *tensor.Tensor) []any { return []any{x} }},
	} {
		want := callReduceOverload(t, tc.op, tc.args(xc), nil)
		got := callReduceOverload(t, tc.op, tc.args(x), nil)
		for i := range want {
			requireSameValues(t, want[i].(*tensor.Tensor), got[i].(*tensor.Tensor), tc.op)
		}
	}
	// _local_scalar_dense reads the element at the view's offset.
	sel := tensor.Must(x.Select(0, 1))
	got := callReduceOverload(t, "aten::_local_scalar_dense", []any{sel}, nil)
	assert.Equal(t, []any{1.0}, got)
}

// TestReduceOverloadsBadInput checks that bad arguments give errors blaming them.
func TestReduceOverloadsBadInput(t *testing.T) {
	f32 := func(shape ...int) *tensor.Tensor { return reduceTensor(tensor.Float32, shape...) }
	i64 := func(shape ...int) *tensor.Tensor { return reduceTensor(tensor.Int64, shape...) }
	cases := []struct {
		name   string
		op     string
		args   []any
		kwargs map[string]any
		arg    string // the argument the error must blame
		msg    string // a substring of the error
	}{
		{"any.dims dim out of range", "aten::any.dims", []any{f32(2, 3), []int64{2}}, nil, "dim", "out of range"},
		{"any.dims repeated dim", "aten::any.dims", []any{f32(2, 3), []int64{0, -2}}, nil, "dim", "appears multiple times"},
		{"mean of int64", "aten::mean", []any{i64(2, 3)}, nil, "self", "Input dtype must be either a floating point"},
		{"mean of bool", "aten::mean", []any{reduceTensor(tensor.Bool, 2)}, nil, "self", "Got: Bool"},
		{"mean with int dtype", "aten::mean", []any{f32(2, 3)}, map[string]any{"dtype": tensor.Int32}, "dtype", "Optional dtype must be"},
		{"prod of float16", "aten::prod", []any{reduceTensor(tensor.Float16, 2, 3)}, nil, "self", `"prod_cpu" not implemented for 'Half'`},
		{"prod with bfloat16 dtype", "aten::prod", []any{f32(2, 3)}, map[string]any{"dtype": tensor.BFloat16}, "dtype", "BFloat16"},
		{"var.dim of int", "aten::var.dim", []any{i64(2, 3), []int64{1}}, nil, "self", "only support floating point"},
		{"var.dim dim out of range", "aten::var.dim", []any{f32(2, 3), []int64{-3}}, nil, "dim", "out of range"},
		{"var.dim repeated dim", "aten::var.dim", []any{f32(2, 3), []int64{1, 1}}, nil, "dim", "appears multiple times"},
		{"sort dim out of range", "aten::sort", []any{f32(2, 3), int64(2)}, nil, "dim", "out of range"},
		{"sort 0-d dim 1", "aten::sort", []any{f32(), int64(1)}, nil, "dim", "out of range"},
		{"sort.stable stable None", "aten::sort.stable", []any{f32(3)}, map[string]any{"stable": nil}, "stable", "has to have value"},
		{"sort.stable dim out of range", "aten::sort.stable", []any{f32(3)}, map[string]any{"stable": true, "dim": int64(-2)}, "dim", "out of range"},
		{"topk k too large", "aten::topk", []any{f32(2, 3), int64(4)}, nil, "k", "selected index k out of range"},
		{"topk negative k", "aten::topk", []any{f32(2, 3), int64(-1)}, nil, "k", "selected index k out of range"},
		{"topk 0-d k=2", "aten::topk", []any{f32(), int64(2)}, nil, "k", "out of range"},
		{"topk dim out of range", "aten::topk", []any{f32(2, 3), int64(1), int64(2)}, nil, "dim", "out of range"},
		{"topk float16", "aten::topk", []any{reduceTensor(tensor.Float16, 4), int64(1)}, nil, "self", `"topk_cpu" not implemented for 'Half'`},
		{"topk bool", "aten::topk", []any{reduceTensor(tensor.Bool, 4), int64(1)}, nil, "self", "'Bool'"},
		{"topk empty float16", "aten::topk", []any{reduceTensor(tensor.Float16, 0), int64(0)}, nil, "self", "'Half'"},
		{"_local_scalar_dense empty", "aten::_local_scalar_dense", []any{f32(0)}, nil, "self", "0 elements"},
		{"_local_scalar_dense meta", "aten::_local_scalar_dense", []any{f32().Meta()}, nil, "self", "data-dependent"},
		{"nonzero meta", "aten::nonzero", []any{f32(2, 3).Meta()}, nil, "self", "data-dependent output shape"},
		{"native_dropout p > 1", "aten::native_dropout", []any{f32(3), 1.5, true}, nil, "p", "bernoulli_ expects p to be in [0, 1], but got p=-0.5"},
		{"native_dropout p < 0", "aten::native_dropout", []any{f32(3), -0.5, true}, nil, "p", "got p=1.5"},
		{"native_dropout p nan", "aten::native_dropout", []any{f32(3), math.NaN(), true}, nil, "p", "got p=NaN"},
		{"native_dropout int64 train", "aten::native_dropout", []any{i64(3), 0.0, true}, nil, "input", "can't be cast to the desired output type Long"},
		{"native_dropout bool train", "aten::native_dropout", []any{reduceTensor(tensor.Bool, 3), 1.0, true}, nil, "input", "type Bool"},
		{"legit weight size", "aten::_native_batch_norm_legit", []any{f32(2, 3), f32(2), nil, f32(3), f32(3), true, 0.1, 1e-5}, nil, "weight", "should contain 3 elements"},
		{"legit 1-d input", "aten::_native_batch_norm_legit", []any{f32(3), nil, nil, f32(3), f32(3), false, 0.1, 1e-5}, nil, "input", "out of range"},
		{"legit running_var size", "aten::_native_batch_norm_legit", []any{f32(2, 3), nil, nil, f32(3), f32(4), false, 0.1, 1e-5}, nil, "running_var", "should contain 3 elements"},
		{"no_stats eval", "aten::_native_batch_norm_legit.no_stats", []any{f32(2, 3), nil, nil, false, 0.1, 1e-5}, nil, "training", "running_mean must be defined"},
		{"no_stats int input", "aten::_native_batch_norm_legit.no_stats", []any{i64(2, 3), nil, nil, true, 0.1, 1e-5}, nil, "input", "not implemented"},
		{"no_training bias size", "aten::_native_batch_norm_legit_no_training", []any{f32(2, 3), nil, f32(1), f32(3), f32(3), 0.1, 1e-5}, nil, "bias", "should contain 3 elements"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := optest.Call(t, tc.op, tc.args, tc.kwargs)
			require.Error(t, err)
			var ce *ops.CallError
			require.True(t, errors.As(err, &ce), "%T: %v", err, err)
			assert.Equal(t, tc.arg, ce.Arg, "%v", err)
			assert.Contains(t, err.Error(), tc.msg)
			assert.False(t, strings.Contains(err.Error(), "internal error"), "%v", err)
		})
	}
}

// reduceTensor returns a float tensor of dtype dt holding 0, 1, 2, ... scaled by
// 0.5 and shifted by -1, in the given shape.
func reduceTensor(dt tensor.DType, shape ...int) *tensor.Tensor {
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

func TestReduceBadInput(t *testing.T) {
	f32 := func(shape ...int) *tensor.Tensor { return reduceTensor(tensor.Float32, shape...) }
	i64 := func(shape ...int) *tensor.Tensor { return reduceTensor(tensor.Int64, shape...) }
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
		{"prod of float16", "aten::prod.dim_int", []any{reduceTensor(tensor.Float16, 2, 3), int64(1)}, nil, "self", `"prod_cpu" not implemented for 'Half'`},
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
		{"cumsum of float16", "aten::cumsum", []any{reduceTensor(tensor.Float16, 2, 3), int64(1)}, nil, "self", `"cumsum_out_cpu" not implemented for 'Half'`},
		{"cumsum with bool dtype", "aten::cumsum", []any{f32(2, 3), int64(1)}, map[string]any{"dtype": tensor.Bool}, "dtype", "'Bool'"},
		{"_softmax half_to_float", "aten::_softmax", []any{f32(2, 3), int64(1), true}, nil, "half_to_float", "not supported on CPU"},
		{"_softmax of int64", "aten::_softmax", []any{i64(2, 3), int64(0), false}, nil, "self", `"softmax_kernel_impl" not implemented for 'Long'`},
		{"_log_softmax of float16", "aten::_log_softmax", []any{reduceTensor(tensor.Float16, 2, 3), int64(1), false}, nil, "self", `"log_softmax_lastdim_kernel_impl" not implemented for 'Half'`},
		{"softmax dim out of range", "aten::softmax.int", []any{f32(2, 3), int64(2)}, nil, "dim", "out of range"},
		{"softmax with int dtype", "aten::softmax.int", []any{f32(2, 3), int64(1), tensor.Int64}, nil, "dtype", "'Long'"},
		{"layer norm without normalized dims", "aten::native_layer_norm", []any{f32(2, 3), []int64{}, nil, nil, 1e-5}, nil, "normalized_shape", "at least 1-dimensional"},
		{"layer norm shape mismatch", "aten::native_layer_norm", []any{f32(2, 3), []int64{4}, nil, nil, 1e-5}, nil, "normalized_shape", "expected input with shape [*, 4]"},
		{"layer norm weight shape", "aten::native_layer_norm", []any{f32(2, 3), []int64{3}, f32(4), nil, 1e-5}, nil, "weight", "same shape as normalized_shape"},
		{"layer norm bias dtype", "aten::native_layer_norm", []any{f32(2, 3), []int64{3}, nil, reduceTensor(tensor.Float64, 3), 1e-5}, nil, "bias", "expected scalar type Float but found Double"},
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
		{"batch norm mixed float64 weight", "aten::native_batch_norm", []any{f32(2, 3), reduceTensor(tensor.Float64, 3), nil, nil, nil, true, 0.1, 1e-5}, nil, "weight", "expect parameter to have scalar type of Float"},
		{"batch norm mixed float32 input", "aten::native_batch_norm", []any{reduceTensor(tensor.Float64, 2, 3), nil, nil, f32(3), f32(3), true, 0.1, 1e-5}, nil, "input", "expect input to have scalar type of BFloat16"},
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
				_, err := optest.Call(t, tc.op, args, tc.kwargs)
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

func TestReduceNonContiguousInputs(t *testing.T) {
	base := reduceTensor(tensor.Float64, 3, 4, 5)
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
		got, err := optest.Call(t, tc.op, tc.args(perm), kw)
		require.NoError(t, err, tc.op)
		want, err := optest.Call(t, tc.op, tc.args(dense), kw)
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
	x := reduceTensor(tensor.Float32, 300, 257)
	got, err := optest.Call(t, "aten::_softmax", []any{x, int64(1), false}, nil)
	require.NoError(t, err)
	sums, err := optest.Call(t, "aten::sum.dim_IntList", []any{x, []int64{1}}, nil)
	require.NoError(t, err)
	for _, r := range []int{0, 1, 150, 299} {
		row := tensor.Must(x.Select(0, r))
		one, err := optest.Call(t, "aten::_softmax", []any{row, int64(0), false}, nil)
		require.NoError(t, err)
		assert.Equal(t, one[0].(*tensor.Tensor).Float64s(), tensor.Must(got[0].(*tensor.Tensor).Select(0, r)).Float64s())
		s, err := optest.Call(t, "aten::sum.default", []any{row}, nil)
		require.NoError(t, err)
		assert.Equal(t, s[0].(*tensor.Tensor).Float64s()[0], sums[0].(*tensor.Tensor).Float64s()[r])
	}
}

func TestReduceIntegerExactness(t *testing.T) {
	// int64 values beyond 2^53 must not pass through float64.
	big := int64(1)<<62 + 1
	x := tensor.Must(tensor.FromSlice([]int64{big, big + 2, big + 1}))
	out, err := optest.Call(t, "aten::max.dim", []any{x, int64(0)}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int64{big + 2}, out[0].(*tensor.Tensor).Int64s())
	assert.Equal(t, []int64{1}, out[1].(*tensor.Tensor).Int64s())
	s, err := optest.Call(t, "aten::cumsum", []any{x, int64(0)}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int64{big, 2*big + 2, 3*big + 3}, s[0].(*tensor.Tensor).Int64s())
}

// TestReduceLeadingDims checks sum, mean, amax and amin of float32 and
// float64 tensors over leading and middle dims (the in-place column
// folds) against direct loops: sums in float64 in row order rounded to
// the dtype, extremes with NaN propagating; values include ties, signed
// zeros, infinities and NaN.
func TestReduceLeadingDims(t *testing.T) {
	r := mrand.New(mrand.NewPCG(21, 4))
	for range 60 {
		a, b, c := 1+r.IntN(5), 1+r.IntN(7), 1+r.IntN(40)
		checkLeading[float32](t, r, a, b, c)
		checkLeading[float64](t, r, a, b, c)
	}
}

func checkLeading[T poolFloat](t *testing.T, r *mrand.Rand, a, b, c int) {
	t.Helper()
	x := tricky[T](r, a*b*c)
	if r.IntN(3) == 0 { // no NaN or infinity: sums stay finite
		for i, v := range x {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				x[i] = 1
			}
		}
	}
	in := fromValues(x, a, b, c)
	at := func(i, j, k int) T { return x[(i*b+j)*c+k] }
	for _, dims := range [][]int64{{0}, {1}, {0, 1}} {
		// The reduced (i, j) of each output element k (of kept i or j).
		kept := a
		if len(dims) == 2 {
			kept = 1
		} else if dims[0] == 0 {
			kept = b
		}
		var sum, mx, mn []T
		for o := range kept {
			for k := range c {
				var s float64
				hi, lo := T(math.Inf(-1)), T(math.Inf(1))
				nan := false
				for i := range a {
					for j := range b {
						if len(dims) == 1 && (dims[0] == 0 && j != o || dims[0] == 1 && i != o) {
							continue
						}
						v := at(i, j, k)
						s += float64(v)
						nan = nan || v != v
						hi, lo = max(hi, v), min(lo, v)
					}
				}
				if nan {
					hi, lo = T(math.NaN()), T(math.NaN())
				}
				sum, mx, mn = append(sum, T(s)), append(mx, hi), append(mn, lo)
			}
		}
		name := fmt.Sprintf("%T [%d,%d,%d] dims %v", x[0], a, b, c, dims)
		got := func(op string, args ...any) []T {
			return tensor.Values[T](poolCall(t, op, append([]any{in}, args...)...)[0].(*tensor.Tensor))
		}
		// Sums may differ from the plain loop's in the last bits (float64
		// sums are compensated); extremes are exact, zeros of either sign
		// equal.
		tol := 1e-6
		if _, ok := any(x).([]float64); ok {
			tol = 1e-12
		}
		close := func(g, w T) bool {
			d, m := math.Abs(float64(g)-float64(w)), math.Max(1, math.Abs(float64(w)))
			return g == w || g != g && w != w || d <= tol*m
		}
		check := func(op string, got, want []T, eq func(g, w T) bool) {
			t.Helper()
			for i := range want {
				if !eq(got[i], want[i]) {
					t.Fatalf("%s %s: element %d: got %v, want %v", op, name, i, got[i], want[i])
				}
			}
		}
		exact := func(g, w T) bool { return g == w || g != g && w != w }
		check("sum", got("aten::sum.dim_IntList", dims), sum, close)
		check("amax", got("aten::amax", dims), mx, exact)
		check("amin", got("aten::amin", dims), mn, exact)
		n := float64(len(x) / (kept * c))
		mean := make([]T, len(sum))
		for i, v := range sum {
			mean[i] = T(float64(v) / n)
		}
		check("mean", got("aten::mean.dim", dims), mean, close)
	}
}
