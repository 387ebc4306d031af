package kernels_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// errorCase is a call that must fail with an error naming arg and holding
// msg, the message PyTorch 2.6 raises for the same call.
type errorCase struct {
	name   string
	op     string
	args   []any
	kwargs map[string]any
	arg    string
	msg    string
}

func runErrorCases(t *testing.T, cases []errorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := optest.Call(t, tc.op, tc.args, tc.kwargs)
			require.Error(t, err)
			assert.ErrorContains(t, err, "argument '"+tc.arg+"'")
			assert.ErrorContains(t, err, tc.msg)
		})
	}
}

func f32s(shape ...int) *tensor.Tensor { return tensor.Must(tensor.New(tensor.Float32, shape...)) }

func TestConstraintErrors(t *testing.T) {
	runErrorCases(t, []errorCase{
		{"assert_scalar false", "aten::_assert_scalar", []any{ops.IntScalar(0), "u0 must be positive"}, nil, "self", "u0 must be positive"},
		{"assert_async zero", "aten::_assert_async", []any{f32s()}, nil, "self", "Expected Tensor with single nonzero value, but got zero"},
		{"assert_async.msg zero", "aten::_assert_async.msg", []any{f32s(), "nope"}, nil, "self", "nope"},
		{"assert_async two values", "aten::_assert_async", []any{f32s(2)}, nil, "self", "Boolean value of Tensor with more than one value is ambiguous"},
		{"constrain range", "aten::sym_constrain_range", []any{ops.IntScalar(7)}, map[string]any{"min": int64(0), "max": int64(5)}, "size", "Invalid value range for 7 between [0, 5]."},
		{"constrain min > max", "aten::sym_constrain_range", []any{ops.IntScalar(1)}, map[string]any{"min": int64(5), "max": int64(3)}, "max", "Max must be greater than or equal to min. Got min=5 max=3"},
		{"for size max 2", "aten::sym_constrain_range_for_size", []any{ops.IntScalar(1)}, map[string]any{"max": int64(2)}, "max", "Max value to constrain_range_for_size must be greater than 2. got: 2"},
		{"for size negative", "aten::sym_constrain_range_for_size", []any{ops.IntScalar(-1)}, nil, "size", "Invalid value range for -1 between [0, 9223372036854775807]."},
		{"metadata sizes", "aten::_assert_tensor_metadata", []any{f32s(2, 3), []int64{3, 2}}, nil, "size", "Tensor sizes mismatch!"},
		{"metadata dtype", "aten::_assert_tensor_metadata", []any{f32s(2, 3)}, map[string]any{"dtype": tensor.Float64}, "dtype", "Tensor dtype mismatch!"},
	})
}

func TestDepToken(t *testing.T) {
	// PyTorch 2.6: torch.ops.aten._make_dep_token() is float32 of shape ().
	out, err := optest.Call(t, "aten::_make_dep_token", nil, nil)
	require.NoError(t, err)
	tok := out[0].(*tensor.Tensor)
	assert.Equal(t, tensor.Float32, tok.DType())
	assert.Empty(t, tok.Shape())
}

func TestNewKernelErrors(t *testing.T) {
	b := tensor.Must(tensor.New(tensor.Bool, 2))
	runErrorCases(t, []errorCase{
		{"tril 1-d", "aten::tril", []any{f32s(3)}, nil, "self", "tril: input tensor must have at least 2 dimensions"},
		{"sdpa dtypes", "aten::scaled_dot_product_attention", []any{f32s(1, 1, 2, 2), tensor.Must(tensor.New(tensor.Float64, 1, 1, 2, 2)), f32s(1, 1, 2, 2)}, nil, "key",
			"Expected query, key, and value to have the same dtype, but got query.dtype: float key.dtype: double and value.dtype: float instead."},
		{"fake quant zero point", "aten::fake_quantize_per_tensor_affine", []any{f32s(2), 0.1, int64(300), int64(0), int64(255)}, nil, "zero_point", "`zero_point` must be between `quant_min` and `quant_max`."},
		{"fake quant range", "aten::fake_quantize_per_tensor_affine", []any{f32s(2), 0.1, int64(0), int64(10), int64(5)}, nil, "quant_min", "`quant_min` should be less than or equal to `quant_max`."},
		{"quantize has no dtype", "aten::quantize_per_tensor", []any{f32s(2), 0.1, int64(0), tensor.Uint8}, nil, "dtype", "gofx has no dtype for"},
		{"masked_fill value dims", "aten::masked_fill.Tensor", []any{f32s(2), b, f32s(2)}, nil, "value", "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s)."},
		{"item two elements", "aten::item", []any{f32s(2)}, nil, "self", "a Tensor with 2 elements cannot be converted to Scalar"},
		{"max empty", "aten::max", []any{f32s(0)}, nil, "self", "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."},
		{"aminmax empty", "aten::aminmax", []any{f32s(0)}, nil, "self", "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity."},
		{"linspace steps", "aten::linspace", []any{ops.IntScalar(0), ops.IntScalar(1), int64(-1)}, nil, "steps", "number of steps must be non-negative"},
		{"eye n", "aten::eye", []any{int64(-1)}, nil, "n", "n must be greater or equal to 0, got -1"},
		{"gru input size", "aten::gru_cell", []any{f32s(2, 3), f32s(2, 4), f32s(12, 5), f32s(12, 4)}, nil, "input", "input has inconsistent input_size: got 3 expected 5"},
		{"gru batch", "aten::gru_cell", []any{f32s(2, 3), f32s(3, 4), f32s(12, 3), f32s(12, 4)}, nil, "hx", "Input batch size 2 doesn't match hidden0 batch size 3"},
	})
}
