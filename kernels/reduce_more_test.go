package kernels_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// rxCall calls the operator called name and fails the test on an error.
func rxCall(t *testing.T, name string, args []any, kwargs map[string]any) []any {
	t.Helper()
	out, err := redCall(t, name, args, kwargs)
	require.NoError(t, err, name)
	return out
}

// rxF returns a tensor of dt and shape holding vals.
func rxF(dt tensor.DType, vals []float64, shape ...int) *tensor.Tensor {
	return tensor.Must(tensor.FromFloat64s(dt, vals, shape...))
}

// rxSame asserts that got and want have the same dtype, shape and values
// (NaN equal to NaN).
func rxSame(t *testing.T, want, got *tensor.Tensor, what string) {
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

// rxExtraFiles are the extra case files of this file's ops; the value says
// whether the op's output depends on the input's values, so that its meta
// function must refuse.
var rxExtraFiles = map[string]bool{
	"aten.any.default": false, "aten.mean.default": false, "aten.prod.default": false,
	"aten.var.dim": false, "aten.sort.default": false, "aten.sort.stable": false,
	"aten.topk.default": false, "aten.native_dropout.default": false,
	"aten._local_scalar_dense.default": true, "aten.nonzero.default": true,
}

// TestRxMetaExtra runs the extra cases of these ops with meta tensors: the
// output dtypes and shapes must match, and the data-dependent ops must say
// that they are.
func TestRxMetaExtra(t *testing.T) {
	files, byFile := casesByFile(t, "testdata/extra")
	seen := 0
	for _, f := range files {
		dataDependent, ok := rxExtraFiles[f]
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
	assert.Equal(t, len(rxExtraFiles), seen)
}

// TestRxAnyDims checks any.dims (newer than PyTorch 1.13) against any.dim
// applied one dimension at a time, and its None and [] dims.
func TestRxAnyDims(t *testing.T) {
	vals := []float64{0, 0, 1, 0, 0, 0, math.NaN(), 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Uint8, tensor.Int64, tensor.Bool, tensor.BFloat16} {
		x := rxF(dt, vals, 2, 3, 4)
		outDT := tensor.Bool
		if dt == tensor.Uint8 {
			outDT = tensor.Uint8
		}
		for _, tc := range []struct {
			dims    []int64
			keepdim bool
		}{{[]int64{0}, false}, {[]int64{0, 2}, false}, {[]int64{-1, 0}, true}, {[]int64{1}, true}, {[]int64{2, 1, 0}, false}} {
			got := rxCall(t, "aten::any.dims", []any{x, tc.dims, tc.keepdim}, nil)[0].(*tensor.Tensor)
			// Reduce the dims from the highest down with any.dim.
			sorted := make([]int64, len(tc.dims))
			for i, d := range tc.dims {
				sorted[i] = (d + 3) % 3
			}
			slices.Sort(sorted)
			want := x
			for i := len(sorted) - 1; i >= 0; i-- {
				want = rxCall(t, "aten::any.dim", []any{want, sorted[i], tc.keepdim}, nil)[0].(*tensor.Tensor)
			}
			rxSame(t, want, got, dt.String())
			meta := rxCall(t, "aten::any.dims", []any{x.Meta(), tc.dims, tc.keepdim}, nil)[0].(*tensor.Tensor)
			assert.True(t, meta.IsMeta())
			assert.Equal(t, want.Shape(), meta.Shape())
			assert.Equal(t, outDT, meta.DType())
		}
		// dim None reduces everything, like aten::any.
		got := rxCall(t, "aten::any.dims", []any{x, nil}, nil)[0].(*tensor.Tensor)
		want := rxCall(t, "aten::any", []any{x}, nil)[0].(*tensor.Tensor)
		rxSame(t, want, got, "dim None")
		got = rxCall(t, "aten::any.dims", []any{x, nil, true}, nil)[0].(*tensor.Tensor)
		assert.Equal(t, []int{1, 1, 1}, got.Shape())
		// dim [] reduces nothing: each element's truth value.
		got = rxCall(t, "aten::any.dims", []any{x, []int64{}, true}, nil)[0].(*tensor.Tensor)
		require.Equal(t, outDT, got.DType())
		require.Equal(t, x.Shape(), got.Shape())
		assert.Equal(t, x.Bools(), got.Bools(), "dim []")
	}
	// 0-d and empty inputs.
	got := rxCall(t, "aten::any.dims", []any{tensor.Scalar[float32](2), []int64{0}}, nil)[0].(*tensor.Tensor)
	assert.Equal(t, []int{}, got.Shape())
	assert.Equal(t, []bool{true}, got.Bools())
	got = rxCall(t, "aten::any.dims", []any{tensor.Empty(tensor.Float32, 0, 3), []int64{0}, true}, nil)[0].(*tensor.Tensor)
	assert.Equal(t, []int{1, 3}, got.Shape())
	assert.Equal(t, []bool{false, false, false}, got.Bools())
}

// TestRxBatchNormLegit checks the _native_batch_norm_legit overloads (newer
// than PyTorch 1.13) against native_batch_norm on the same inputs,
// including the in-place update of the running statistics.
func TestRxBatchNormLegit(t *testing.T) {
	n := 2 * 3 * 4
	xv := make([]float64, n)
	for i := range xv {
		xv[i] = math.Sin(float64(i)*1.3) * 2
	}
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
		x := rxF(dt, xv, 2, 3, 4)
		w := rxF(dt, []float64{0.5, -1, 2}, 3)
		b := rxF(dt, []float64{0.1, 0, -0.3}, 3)
		stats := func() (*tensor.Tensor, *tensor.Tensor) {
			return rxF(dt, []float64{0.2, -0.1, 0.3}, 3), rxF(dt, []float64{1.5, 0.7, 2}, 3)
		}
		for _, training := range []bool{true, false} {
			rm1, rv1 := stats()
			want := rxCall(t, "aten::native_batch_norm", []any{x, w, b, rm1, rv1, training, 0.1, 1e-5}, nil)
			rm2, rv2 := stats()
			got := rxCall(t, "aten::_native_batch_norm_legit", []any{x, w, b, rm2, rv2, training, 0.1, 1e-5}, nil)
			require.Len(t, got, 3)
			for i := range want {
				rxSame(t, want[i].(*tensor.Tensor), got[i].(*tensor.Tensor), "legit output")
			}
			rxSame(t, rm1, rm2, "running_mean")
			rxSame(t, rv1, rv2, "running_var")
			if !training {
				rm3, rv3 := stats()
				got := rxCall(t, "aten::_native_batch_norm_legit_no_training", []any{x, w, b, rm3, rv3, 0.1, 1e-5}, nil)
				for i := range want {
					rxSame(t, want[i].(*tensor.Tensor), got[i].(*tensor.Tensor), "no_training output")
				}
				assert.Equal(t, []int{0}, got[1].(*tensor.Tensor).Shape())
			}
		}
		want := rxCall(t, "aten::native_batch_norm", []any{x, nil, b, nil, nil, true, 0.1, 1e-5}, nil)
		got := rxCall(t, "aten::_native_batch_norm_legit.no_stats", []any{x, nil, b, true, 0.1, 1e-5}, nil)
		for i := range want {
			rxSame(t, want[i].(*tensor.Tensor), got[i].(*tensor.Tensor), "no_stats output")
		}
		// Meta tensors give the shapes only.
		rm, rv := stats()
		meta := rxCall(t, "aten::_native_batch_norm_legit", []any{x.Meta(), w.Meta(), b.Meta(), rm.Meta(), rv.Meta(), true, 0.1, 1e-5}, nil)
		assert.Equal(t, []int{2, 3, 4}, meta[0].(*tensor.Tensor).Shape())
		assert.Equal(t, []int{3}, meta[1].(*tensor.Tensor).Shape())
		meta = rxCall(t, "aten::_native_batch_norm_legit_no_training", []any{x.Meta(), nil, nil, rm.Meta(), rv.Meta(), 0.1, 1e-5}, nil)
		assert.Equal(t, []int{0}, meta[2].(*tensor.Tensor).Shape())
		assert.True(t, meta[0].(*tensor.Tensor).IsMeta())
		meta = rxCall(t, "aten::_native_batch_norm_legit.no_stats", []any{x.Meta(), nil, nil, true, 0.1, 1e-5}, nil)
		assert.Equal(t, []int{3}, meta[2].(*tensor.Tensor).Shape())
	}
}

// TestRxNonContiguous runs sort, topk, nonzero and _local_scalar_dense on
// transposed views: results must equal those of contiguous copies.
func TestRxNonContiguous(t *testing.T) {
	vals := []float64{3, 1, 2, 1, 0, 0, 5, math.NaN(), 2, 2, 1, 0}
	x := tensor.Must(rxF(tensor.Float32, vals, 3, 4).Transpose(0, 1))
	xc := x.Contiguous()
	for _, tc := range []struct {
		op   string
		args func(*tensor.Tensor) []any
	}{
		{"aten::sort", func(x *tensor.Tensor) []any { return []any{x, int64(0), true} }},
		{"aten::topk", func(x *tensor.Tensor) []any { return []any{x, int64(2), int64(1), false, false} }},
		{"aten::nonzero", func(x *tensor.Tensor) []any { return []any{x} }},
	} {
		want := rxCall(t, tc.op, tc.args(xc), nil)
		got := rxCall(t, tc.op, tc.args(x), nil)
		for i := range want {
			rxSame(t, want[i].(*tensor.Tensor), got[i].(*tensor.Tensor), tc.op)
		}
	}
	// _local_scalar_dense reads the element at the view's offset.
	sel := tensor.Must(x.Select(0, 1))
	got := rxCall(t, "aten::_local_scalar_dense", []any{sel}, nil)
	assert.Equal(t, []any{1.0}, got)
}

// TestRxBadInput checks that bad arguments give errors blaming them.
func TestRxBadInput(t *testing.T) {
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
		{"any.dims dim out of range", "aten::any.dims", []any{f32(2, 3), []int64{2}}, nil, "dim", "out of range"},
		{"any.dims repeated dim", "aten::any.dims", []any{f32(2, 3), []int64{0, -2}}, nil, "dim", "appears multiple times"},
		{"mean of int64", "aten::mean", []any{i64(2, 3)}, nil, "self", "Input dtype must be either a floating point"},
		{"mean of bool", "aten::mean", []any{redT(tensor.Bool, 2)}, nil, "self", "Got: Bool"},
		{"mean with int dtype", "aten::mean", []any{f32(2, 3)}, map[string]any{"dtype": tensor.Int32}, "dtype", "Optional dtype must be"},
		{"prod of float16", "aten::prod", []any{redT(tensor.Float16, 2, 3)}, nil, "self", `"prod_cpu" not implemented for 'Half'`},
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
		{"topk float16", "aten::topk", []any{redT(tensor.Float16, 4), int64(1)}, nil, "self", `"topk_cpu" not implemented for 'Half'`},
		{"topk bool", "aten::topk", []any{redT(tensor.Bool, 4), int64(1)}, nil, "self", "'Bool'"},
		{"topk empty float16", "aten::topk", []any{redT(tensor.Float16, 0), int64(0)}, nil, "self", "'Half'"},
		{"_local_scalar_dense empty", "aten::_local_scalar_dense", []any{f32(0)}, nil, "self", "0 elements"},
		{"_local_scalar_dense meta", "aten::_local_scalar_dense", []any{f32().Meta()}, nil, "self", "data-dependent"},
		{"nonzero meta", "aten::nonzero", []any{f32(2, 3).Meta()}, nil, "self", "data-dependent output shape"},
		{"native_dropout random", "aten::native_dropout", []any{f32(3), 0.5, true}, nil, "train", "random generator"},
		{"native_dropout random train None", "aten::native_dropout", []any{f32(3), 0.25, nil}, nil, "train", "random generator"},
		{"native_dropout p > 1", "aten::native_dropout", []any{f32(3), 1.5, true}, nil, "p", "bernoulli_ expects p to be in [0, 1], but got p=-0.5"},
		{"native_dropout p < 0", "aten::native_dropout", []any{f32(3), -0.5, true}, nil, "p", "got p=1.5"},
		{"native_dropout p nan", "aten::native_dropout", []any{f32(3), math.NaN(), true}, nil, "p", "got p=NaN"},
		{"native_dropout int64 train", "aten::native_dropout", []any{i64(3), 0.0, true}, nil, "input", "can't be cast to the desired output type Long"},
		{"native_dropout bool train", "aten::native_dropout", []any{redT(tensor.Bool, 3), 1.0, true}, nil, "input", "type Bool"},
		{"legit weight size", "aten::_native_batch_norm_legit", []any{f32(2, 3), f32(2), nil, f32(3), f32(3), true, 0.1, 1e-5}, nil, "weight", "should contain 3 elements"},
		{"legit 1-d input", "aten::_native_batch_norm_legit", []any{f32(3), nil, nil, f32(3), f32(3), false, 0.1, 1e-5}, nil, "input", "out of range"},
		{"legit running_var size", "aten::_native_batch_norm_legit", []any{f32(2, 3), nil, nil, f32(3), f32(4), false, 0.1, 1e-5}, nil, "running_var", "should contain 3 elements"},
		{"no_stats eval", "aten::_native_batch_norm_legit.no_stats", []any{f32(2, 3), nil, nil, false, 0.1, 1e-5}, nil, "training", "running_mean must be defined"},
		{"no_stats int input", "aten::_native_batch_norm_legit.no_stats", []any{i64(2, 3), nil, nil, true, 0.1, 1e-5}, nil, "input", "not implemented"},
		{"no_training bias size", "aten::_native_batch_norm_legit_no_training", []any{f32(2, 3), nil, f32(1), f32(3), f32(3), 0.1, 1e-5}, nil, "bias", "should contain 3 elements"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := redCall(t, tc.op, tc.args, tc.kwargs)
			require.Error(t, err)
			var ce *ops.CallError
			require.True(t, errors.As(err, &ce), "%T: %v", err, err)
			assert.Equal(t, tc.arg, ce.Arg, "%v", err)
			assert.Contains(t, err.Error(), tc.msg)
			assert.False(t, strings.Contains(err.Error(), "internal error"), "%v", err)
		})
	}
}

// TestRxNativeDropoutAliasing checks that eval native_dropout returns a
// copy, not the input, and that empty input comes back as itself.
func TestRxNativeDropoutAliasing(t *testing.T) {
	x := rxF(tensor.Float32, []float64{1, 2}, 2)
	out := rxCall(t, "aten::native_dropout", []any{x, 0.5, false}, nil)
	assert.False(t, out[0].(*tensor.Tensor).SharesStorage(x))
	e := tensor.Empty(tensor.Int32, 0, 2)
	out = rxCall(t, "aten::native_dropout", []any{e, 0.5, true}, nil)
	assert.Same(t, e, out[0])
	assert.Equal(t, tensor.Int32, out[1].(*tensor.Tensor).DType())
}
