package kernels_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/tensor"
)

// The messages are PyTorch 2.6's for the same calls (gen_14d.py's
// operators), except native_channel_shuffle's groups outside [1, C], where
// PyTorch divides by zero or reads out of range.
func TestLeftoverErrors(t *testing.T) {
	typed := func(dt tensor.DType) *tensor.Tensor { return tensor.Empty(dt, 2) }
	x := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 5, 2))
	e := func(dt tensor.DType, n int) []*tensor.Tensor {
		out := make([]*tensor.Tensor, n)
		for i := range out {
			out[i] = tensor.Empty(dt, 0)
		}
		return out
	}
	runErrorCases(t, []errorCase{
		{"erfcx bfloat16", "aten::special_erfcx", []any{typed(tensor.BFloat16)}, nil, "self", `"erfcx_cpu" not implemented for 'BFloat16'`},
		{"erfcx half", "aten::special_erfcx", []any{typed(tensor.Float16)}, nil, "self", `"erfcx_cpu" not implemented for 'Half'`},
		{"log_ndtr bfloat16", "aten::special_log_ndtr", []any{typed(tensor.BFloat16)}, nil, "self", `"log_ndtr_cpu" not implemented for 'BFloat16'`},
		{"log_ndtr half", "aten::special_log_ndtr", []any{typed(tensor.Float16)}, nil, "self", `"log_ndtr_cpu" not implemented for 'Half'`},
		{"native_channel_shuffle 1-d", "aten::native_channel_shuffle", []any{f32s(4), 2}, nil, "self", "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
		{"native_channel_shuffle zero groups", "aten::native_channel_shuffle", []any{f32s(1, 4, 2), 0}, nil, "groups", "groups must be between 1 and the 4 channels, got 0"},
		{"native_channel_shuffle too many groups", "aten::native_channel_shuffle", []any{f32s(1, 4, 2), 5}, nil, "groups", "groups must be between 1 and the 4 channels, got 5"},
		{"split_copy out count", "aten::split_copy.Tensor_out", []any{x, 2, 0}, map[string]any{"out": e(tensor.Float32, 1)}, "out",
			"split_copy_Tensor_out() expected an out= argument of size 3, got size 1"},
		{"unbind_copy out count", "aten::unbind_copy.int_out", []any{x, 1}, map[string]any{"out": e(tensor.Float32, 3)}, "out",
			"unbind_copy_int_out() expected an out= argument of size 2, got size 3"},
		{"split_copy copies into out's shape", "aten::split_copy.Tensor_out", []any{x, 3, 0},
			map[string]any{"out": []*tensor.Tensor{tensor.Empty(tensor.Float64, 3, 2), tensor.Empty(tensor.Float32, 1, 2)}}, "out",
			"output with shape [1, 2] doesn't match the broadcast shape [2, 2]"},
		{"split_with_sizes_copy out count", "aten::split_with_sizes_copy.out", []any{x, []int64{2, 3}, 0}, map[string]any{"out": e(tensor.Float32, 3)}, "out",
			"split_with_sizes_copy_out() expected an out= argument of size 2, got size 3"},
		{"split_with_sizes_copy dtype", "aten::split_with_sizes_copy.out", []any{x, []int64{2, 3}, 0}, map[string]any{"out": e(tensor.Int64, 2)}, "out",
			"Expected out tensor to have dtype float, but got long int instead"},
		{"unsafe_split dtype", "aten::unsafe_split.Tensor_out", []any{x, 3, 0}, map[string]any{"out": e(tensor.Float64, 2)}, "out",
			"Expected out tensor to have dtype float, but got double instead"},
		{"normal.out dtype", "aten::normal.out", []any{f32s(3, 4), 1.0, 2.0}, map[string]any{"out": tensor.Empty(tensor.Float64, 0)}, "out",
			"Expected out tensor to have dtype float, but got double instead"},
		{"normal.out std", "aten::normal.out", []any{f32s(3, 4), 1.0, -2.0}, map[string]any{"out": tensor.Empty(tensor.Float32, 0)}, "std",
			"normal expects std >= 0.0, but found std -2"},
		{"_native_batch_norm_legit.out dtype", "aten::_native_batch_norm_legit.out",
			[]any{f32s(2, 3, 4), f32s(3), f32s(3), f32s(3), f32s(3), true, 0.1, 1e-5},
			map[string]any{"out": tensor.Empty(tensor.Float64, 0), "save_mean": tensor.Empty(tensor.Float32, 0), "save_invstd": tensor.Empty(tensor.Float32, 0)}, "out",
			"Expected out tensor to have dtype float, but got double instead"},
	})
}

// TestListOut checks the out= overloads with a list of outs against their
// functional overloads (whose own PyTorch cases run in TestConformance):
// split_copy and unbind_copy copy into out= tensors of any dtype the result
// casts to (as PyTorch 2.6 does: an int64 out gets the truncated values),
// split_with_sizes_copy and the unsafe splits resize theirs.
func TestListOut(t *testing.T) {
	x := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{0, 1.5, 2, 3, 4, 5, 6, 7, 8, 9}, 5, 2))
	want, err := optest.Call(t, "aten::split_copy.Tensor", []any{x, 2, 0}, nil)
	require.NoError(t, err)
	parts := want[0].([]*tensor.Tensor)

	outs := []*tensor.Tensor{tensor.Empty(tensor.Int64, 2, 2), tensor.Empty(tensor.Float32, 2, 2), tensor.Empty(tensor.Float64, 1, 2)}
	got, err := optest.Call(t, "aten::split_copy.Tensor_out", []any{x, 2, 0}, map[string]any{"out": outs})
	require.NoError(t, err)
	assert.Empty(t, got, "split_copy.Tensor_out returns ()")
	assert.Equal(t, []int64{0, 1, 2, 3}, outs[0].Int64s())
	for i := 1; i < 3; i++ {
		assert.Equal(t, parts[i].Float64s(), outs[i].Float64s())
	}

	cols := []*tensor.Tensor{tensor.Empty(tensor.Float32, 5), tensor.Empty(tensor.Float32, 5)}
	_, err = optest.Call(t, "aten::unbind_copy.int_out", []any{x, 1}, map[string]any{"out": cols})
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 2, 4, 6, 8}, cols[0].Float64s())
	assert.Equal(t, []float64{1.5, 3, 5, 7, 9}, cols[1].Float64s())

	for _, name := range []string{"aten::split_with_sizes_copy.out", "aten::unsafe_split_with_sizes.out"} {
		empty := []*tensor.Tensor{tensor.Empty(tensor.Float32, 0), tensor.Empty(tensor.Float32, 0)}
		_, err = optest.Call(t, name, []any{x, []int64{2, 3}, 0}, map[string]any{"out": empty})
		require.NoError(t, err, name)
		assert.Equal(t, []int{2, 2}, empty[0].Shape(), name)
		assert.Equal(t, []int{3, 2}, empty[1].Shape(), name)
		assert.Equal(t, []float64{4, 5, 6, 7, 8, 9}, empty[1].Float64s(), name)
	}

	meta := []*tensor.Tensor{tensor.Must(tensor.NewMeta(tensor.Float32, 2, 2)), tensor.Must(tensor.NewMeta(tensor.Float32, 2, 2)), tensor.Must(tensor.NewMeta(tensor.Float32, 1, 2))}
	_, err = optest.Call(t, "aten::split_copy.Tensor_out", []any{x.Meta(), 2, 0}, map[string]any{"out": meta})
	require.NoError(t, err, "meta")
}

// TestBatchNormLegitOutStats checks that _native_batch_norm_legit.out
// updates running_mean and running_var as the functional overload does.
func TestBatchNormLegitOutStats(t *testing.T) {
	in := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 2, 3, 2))
	stats := func() (*tensor.Tensor, *tensor.Tensor) {
		return tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{0, 0, 0}, 3)), tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{1, 1, 1}, 3))
	}
	m1, v1 := stats()
	_, err := optest.Call(t, "aten::_native_batch_norm_legit", []any{in, nil, nil, m1, v1, true, 0.1, 1e-5}, nil)
	require.NoError(t, err)
	m2, v2 := stats()
	e := func() *tensor.Tensor { return tensor.Empty(tensor.Float32, 0) }
	_, err = optest.Call(t, "aten::_native_batch_norm_legit.out", []any{in, nil, nil, m2, v2, true, 0.1, 1e-5},
		map[string]any{"out": e(), "save_mean": e(), "save_invstd": e()})
	require.NoError(t, err)
	assert.Equal(t, m1.Float64s(), m2.Float64s())
	assert.Equal(t, v1.Float64s(), v2.Float64s())
	assert.NotEqual(t, []float64{0, 0, 0}, m2.Float64s())
}

// TestEinsumSublist checks that torch.einsum's sublist form fails saying
// that the variadic arguments do not bind.
func TestEinsumSublist(t *testing.T) {
	x := f32s(2, 3)
	_, err := optest.Call(t, "aten::einsum.sublist", []any{x, []int64{0, 1}, []int64{1}}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "einsum.sublist")
	assert.Contains(t, err.Error(), "does not bind variadic arguments")
}
