package kernels_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/tensor"
)

// vec is a 1-d float32 tensor of vals.
func vec(vals ...float64) *tensor.Tensor {
	return tensor.Must(tensor.FromFloat64s(tensor.Float32, vals, len(vals)))
}

// The messages are PyTorch 2.6's for the same calls.
func TestSortingSelectErrors(t *testing.T) {
	x := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{1, 2, 2, 3, 3, 1}, 2, 3))
	bools := tensor.Must(tensor.FromInt64s(tensor.Bool, []int64{1, 0}, 2))
	ints := tensor.Must(tensor.FromInt64s(tensor.Int64, []int64{1, 2}, 2))
	empty := f32s(2, 0)
	half := tensor.Scalar[float64](0.5)
	runErrorCases(t, []errorCase{
		{"kthvalue k=0", "aten::kthvalue", []any{x, 0}, nil, "k", "kthvalue(): selected number k out of range for dimension 1"},
		{"kthvalue k>n", "aten::kthvalue", []any{x, 4}, nil, "k", "kthvalue(): selected number k out of range for dimension 1"},
		{"kthvalue empty dim", "aten::kthvalue", []any{empty, 1}, nil, "dim", "kthvalue(): Expected reduction dim 1 to have non-zero size."},
		{"kthvalue bool", "aten::kthvalue", []any{bools, 1}, nil, "self", `"kthvalue_cpu" not implemented for 'Bool'`},
		{"median bool", "aten::median", []any{bools}, nil, "self", `"median_cpu" not implemented for 'Bool'`},
		{"median.dim empty dim", "aten::median.dim", []any{empty, 1}, nil, "dim", "median(): Expected reduction dim 1 to have non-zero size."},
		{"mode empty dim", "aten::mode", []any{empty, 1}, nil, "dim", "mode(): Expected reduction dim 1 to have non-zero size."},
		{"logcumsumexp int", "aten::logcumsumexp", []any{ints, 0}, nil, "self", `"logcumsumexp_out_cpu" not implemented for 'Long'`},
		{"quantile int", "aten::quantile", []any{ints, half}, nil, "self", "quantile() input tensor must be either float or double dtype"},
		{"quantile q dtype", "aten::quantile", []any{vec(1, 2), half}, nil, "q", "quantile() q tensor must be same dtype as the input tensor"},
		{"quantile q range", "aten::quantile", []any{vec(1, 2), vec(0.5, 1.5)}, nil, "q", "quantile() q values must be in the range [0, 1]"},
		{"quantile.scalar q range", "aten::quantile.scalar", []any{vec(1, 2), 1.5}, nil, "q", "quantile() q must be in the range [0, 1] but got 1.5"},
		{"quantile interpolation", "aten::quantile.scalar", []any{vec(1, 2), 0.5}, map[string]any{"interpolation": "foo"}, "interpolation",
			"quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got foo"},
		{"quantile empty", "aten::quantile.scalar", []any{vec(), 0.5}, nil, "self", "quantile() input tensor must be non-empty"},
		{"quantile 2-d q", "aten::quantile", []any{vec(1, 2), f32s(2, 2)}, nil, "q", "quantile() q must be a scalar or 1D tensor"},
		{"nanquantile empty", "aten::nanquantile.scalar", []any{empty, 0.5, 1}, nil, "self", "nanquantile() input tensor must be non-empty"},
	})
}

// The in-place helpers write the scan into their arguments.
func TestCumHelpers(t *testing.T) {
	v := tensor.Must(tensor.New(tensor.Float32, 3))
	i := tensor.Must(tensor.New(tensor.Int64, 3))
	_, err := optest.Call(t, "aten::_cummax_helper", []any{vec(1, 3, 2), v, i, 0}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float32{1, 3, 3}, tensor.Values[float32](v))
	assert.Equal(t, []int64{0, 1, 1}, tensor.Values[int64](i))
	_, err = optest.Call(t, "aten::_cummin_helper", []any{vec(2, 3, 1), v, i, 0}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float32{2, 2, 1}, tensor.Values[float32](v))
	assert.Equal(t, []int64{0, 0, 2}, tensor.Values[int64](i))
}

// The kernels of issue 14's families read strided inputs (a transposed
// view, a stepped slice) as their contiguous copies: the vectors, made
// from contiguous tensors, cannot express strides.
func TestStridedInputsMatchContiguous(t *testing.T) {
	base := tensor.Must(tensor.FromFloat64s(tensor.Float32,
		[]float64{3, 1, 2, 2, 0, 5, 1, 1, 4, 2, 3, 0, 7, 2, 2, 1, 0, 3, 3, 6, 1, 2, 5, 2}, 4, 6))
	tr := tensor.Must(base.Transpose(0, 1))   // 6x4, not contiguous
	sl := tensor.Must(base.Slice(1, 0, 6, 2)) // 4x3, stepped
	idx := tensor.Must(tensor.FromInt64s(tensor.Int64, []int64{0, 2, 1}, 3))
	mask := tensor.Must(tensor.Must(tensor.FromInt64s(tensor.Bool, []int64{1, 0, 1, 1}, 4, 1)).Expand(4, 3))
	for _, tc := range []struct {
		op   string
		x    *tensor.Tensor
		args []any
	}{
		{"aten::argsort", tr, []any{0}},
		{"aten::kthvalue", tr, []any{3, 0}},
		{"aten::median.dim", sl, []any{1}},
		{"aten::nanmedian.dim", tr, []any{0}},
		{"aten::mode", tr, []any{0}},
		{"aten::quantile.scalar", sl, []any{0.3, 0}},
		{"aten::cummax", tr, []any{0}},
		{"aten::logcumsumexp", sl, []any{1}},
		{"aten::count_nonzero", tr, []any{0}},
		{"aten::histc", tr, []any{4}},
		{"aten::_unique2", tr, []any{true, true, true}},
		{"aten::unique_dim", tr, []any{1}},
		{"aten::unique_consecutive", sl, []any{true, true, 0}},
		{"aten::take", tr, []any{idx}},
		{"aten::index_reduce", sl, []any{1, idx, sl, "amax"}},
		{"aten::masked_select", sl, []any{mask}},
		{"aten::diag", sl, []any{1}},
		{"aten::rot90", sl, []any{1}},
		{"aten::kron", sl, []any{tr}},
		{"aten::unfold", tr, []any{0, 2, 2}},
		{"aten::tensor_split.sections", tr, []any{4, 1}},
	} {
		got, err := optest.Call(t, tc.op, append([]any{tc.x}, tc.args...), nil)
		require.NoError(t, err, tc.op)
		require.False(t, tc.x.IsContiguous(), tc.op)
		want, err := optest.Call(t, tc.op, append([]any{tc.x.Contiguous()}, tc.args...), nil)
		require.NoError(t, err, tc.op)
		require.Len(t, got, len(want), tc.op)
		for i := range got {
			g, w := flatten(got[i]), flatten(want[i])
			require.Len(t, g, len(w), tc.op)
			for j := range g {
				assert.True(t, tensor.Equal(g[j], w[j]), "%s output %d", tc.op, i)
			}
		}
	}
}

// flatten returns a result as a list of tensors.
func flatten(v any) []*tensor.Tensor {
	if ts, ok := v.([]*tensor.Tensor); ok {
		return ts
	}
	return []*tensor.Tensor{v.(*tensor.Tensor)}
}
