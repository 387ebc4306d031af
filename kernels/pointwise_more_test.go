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

// pwCall calls the operator called name with args and kwargs.
func pwCall(t *testing.T, name string, args []any, kwargs map[string]any) ([]any, error) {
	t.Helper()
	op, ok := ops.Global().Lookup(name)
	require.True(t, ok, name)
	return op.Call(args, kwargs)
}

// pwT returns a 1-d tensor of dtype dt holding vals.
func pwT(t *testing.T, dt tensor.DType, vals ...float64) *tensor.Tensor {
	t.Helper()
	x, err := tensor.FromFloat64s(dt, vals, len(vals))
	require.NoError(t, err)
	return x
}

// TestPwBadInput checks that the kernels of pointwise_more.go reject what
// PyTorch 1.13 rejects, with an error that blames the right argument.
func TestPwBadInput(t *testing.T) {
	f32 := func(v ...float64) *tensor.Tensor { return pwT(t, tensor.Float32, v...) }
	i64 := func(v ...float64) *tensor.Tensor { return pwT(t, tensor.Int64, v...) }
	f16 := func(v ...float64) *tensor.Tensor { return pwT(t, tensor.Float16, v...) }
	b := func(v ...float64) *tensor.Tensor { return pwT(t, tensor.Bool, v...) }
	for _, tc := range []struct {
		name   string
		op     string
		args   []any
		kwargs map[string]any
		arg    string // the argument the error must blame
		msg    string // a part of the message
	}{
		{"acos of float16", "aten::acos.default", []any{f16(1)}, nil, "self", `"acos_vml_cpu" not implemented for 'Half'`},
		{"cosh of float16", "aten::cosh.default", []any{f16(1)}, nil, "self", `"cosh_cpu" not implemented for 'Half'`},
		{"log2 of float16", "aten::log2.default", []any{f16(1)}, nil, "self", "'Half'"},
		{"trunc of bool", "aten::trunc.default", []any{b(1)}, nil, "self", `"trunc_vml_cpu" not implemented for 'Bool'`},
		{"trunc of float16", "aten::trunc.default", []any{f16(1)}, nil, "self", "'Half'"},
		{"frac of int64", "aten::frac.default", []any{i64(1)}, nil, "self", `"frac_cpu" not implemented for 'Long'`},
		{"frac of bool", "aten::frac.default", []any{b(1)}, nil, "self", "'Bool'"},
		{"erfc of float16", "aten::erfc.default", []any{f16(1)}, nil, "self", "'Half'"},
		{"logical_xor shapes", "aten::logical_xor", []any{f32(1, 2), f32(1, 2, 3)}, nil, "other", ""},
		{"bitwise_or float", "aten::bitwise_or.Tensor", []any{f32(1), i64(1)}, nil, "self", `"bitwise_or_cpu" not implemented for 'Float'`},
		{"bitwise_or float Scalar", "aten::bitwise_or.Scalar", []any{i64(1), 2.5}, nil, "self", "'Float'"},
		{"bitwise_xor float", "aten::bitwise_xor.Tensor", []any{f16(1), f16(1)}, nil, "self", `"bitwise_xor_cpu" not implemented for 'Half'`},
		{"bitwise_xor shapes", "aten::bitwise_xor.Tensor", []any{i64(1, 2), i64(1, 2, 3)}, nil, "other", ""},
		{"clamp.Tensor no bounds", "aten::clamp.Tensor", []any{f32(1)}, nil, "min", "At least one of 'min' or 'max'"},
		{"clamp.Tensor bool", "aten::clamp.Tensor", []any{b(1), b(0), b(1)}, nil, "self", `"clamp_cpu" not implemented for 'Bool'`},
		{"clamp.Tensor float16", "aten::clamp.Tensor", []any{f16(1), f16(0), f16(1)}, nil, "self", "'Half'"},
		{"clamp.Tensor shapes", "aten::clamp.Tensor", []any{f32(1, 2), f32(1, 2, 3), f32(1)}, nil, "max", ""},
		{"clamp.Tensor min shape", "aten::clamp.Tensor", []any{f32(1, 2), f32(1, 2, 3)}, nil, "min", ""},
		{"clamp_min float16", "aten::clamp_min", []any{f16(1), 0}, nil, "self", `"clamp_min_cpu" not implemented for 'Half'`},
		{"clamp_max uint8 overflow", "aten::clamp_max", []any{pwT(t, tensor.Uint8, 1), 300}, nil, "max", "overflow"},
		{"clamp_min.Tensor shapes", "aten::clamp_min.Tensor", []any{f32(1, 2), f32(1, 2, 3)}, nil, "min", ""},
		{"floor_divide bool", "aten::floor_divide", []any{b(1), b(1)}, nil, "self", `"div_floor_cpu" not implemented for 'Bool'`},
		{"floor_divide by zero", "aten::floor_divide", []any{i64(1, 2), i64(0, 1)}, nil, "other", "ZeroDivisionError"},
		{"floor_divide.Scalar by zero", "aten::floor_divide.Scalar", []any{i64(1, 2), 0}, nil, "other", "ZeroDivisionError"},
		{"softplus int64", "aten::softplus", []any{i64(1)}, nil, "self", `"softplus_cpu" not implemented for 'Long'`},
		{"softplus beta overflow", "aten::softplus", []any{f32(1), 1e300}, nil, "beta", "overflow"},
		{"hardshrink float16", "aten::hardshrink", []any{f16(1)}, nil, "self", "'Half'"},
		{"hardshrink lambd overflow", "aten::hardshrink", []any{f32(1), 1e300}, nil, "lambd", "overflow"},
		{"mish bfloat16", "aten::mish", []any{pwT(t, tensor.BFloat16, 1)}, nil, "self", `"mish_cpu" not implemented for 'BFloat16'`},
		{"mish int64", "aten::mish", []any{i64(1)}, nil, "self", "'Long'"},
		{"logit float16", "aten::logit", []any{f16(0.5)}, nil, "self", `"logit_cpu" not implemented for 'Half'`},
		{"threshold bool", "aten::threshold", []any{b(1), 0, 1}, nil, "self", `"threshold_cpu" not implemented for 'Bool'`},
		{"threshold uint8 overflow", "aten::threshold", []any{pwT(t, tensor.Uint8, 1), 300, 1}, nil, "threshold", "overflow"},
		{"threshold float32 value overflow", "aten::threshold", []any{f32(1), 0, 1e300}, nil, "value", "overflow"},
		{"lerp end dtype", "aten::lerp.Scalar", []any{f32(1), pwT(t, tensor.Float64, 1), 0.5}, nil, "end", "expected dtype float for `end` but got dtype double"},
		{"lerp weight dtype", "aten::lerp.Tensor", []any{f32(1), f32(1), pwT(t, tensor.Float64, 1)}, nil, "weight", "`weight`"},
		{"lerp int64", "aten::lerp.Scalar", []any{i64(1), i64(2), 0.5}, nil, "self", `"lerp_kernel_scalar" not implemented for 'Long'`},
		{"lerp weight overflow", "aten::lerp.Scalar", []any{f32(1), f32(2), 1e300}, nil, "weight", "overflow"},
		{"lerp shapes", "aten::lerp.Scalar", []any{f32(1, 2), f32(1, 2, 3), 0.5}, nil, "end", ""},
		{"addcmul bool", "aten::addcmul", []any{b(1), b(1), b(1)}, nil, "self", `"addcmul_cpu_out" not implemented for 'Bool'`},
		{"addcmul shapes", "aten::addcmul", []any{f32(1, 2), f32(1, 2, 3), f32(1)}, nil, "tensor2", ""},
		{"addcmul value overflow", "aten::addcmul", []any{pwT(t, tensor.Int8, 1), pwT(t, tensor.Int8, 1), pwT(t, tensor.Int8, 1)}, map[string]any{"value": 300}, "value", "overflow"},
		{"addcdiv integer", "aten::addcdiv", []any{f32(1), i64(1), i64(1)}, nil, "tensor2", "Integer division with addcdiv"},
		{"addcdiv float16", "aten::addcdiv", []any{f16(1), f16(1), f16(1)}, nil, "self", "'Half'"},
		{"hypot int64", "aten::hypot", []any{i64(1), i64(1)}, nil, "self", `"hypot_cpu" not implemented for 'Long'`},
		{"hypot float16", "aten::hypot", []any{f16(1), f16(1)}, nil, "self", "'Half'"},
		{"xlogy shapes", "aten::xlogy.Tensor", []any{f32(1, 2), f32(1, 2, 3)}, nil, "other", ""},
		{"copysign shapes", "aten::copysign.Tensor", []any{f32(1, 2), f32(1, 2, 3)}, nil, "other", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := pwCall(t, tc.op, tc.args, tc.kwargs)
			require.Error(t, err)
			var ce *ops.CallError
			require.True(t, errors.As(err, &ce), "%v", err)
			assert.Equal(t, tc.arg, ce.Arg, "%v", err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// TestPwMeta checks that meta tensors give the output dtype and shape
// without data, and skip the data-dependent dtype errors of CPU kernels.
func TestPwMeta(t *testing.T) {
	m := func(dt tensor.DType, shape ...int) *tensor.Tensor {
		x, err := tensor.NewMeta(dt, shape...)
		require.NoError(t, err)
		return x
	}
	for _, tc := range []struct {
		op    string
		args  []any
		dt    tensor.DType
		shape []int
	}{
		{"aten::acos.default", []any{m(tensor.Int32, 2, 3)}, tensor.Float32, []int{2, 3}},
		{"aten::cosh.default", []any{m(tensor.BFloat16, 4)}, tensor.BFloat16, []int{4}},
		{"aten::trunc.default", []any{m(tensor.Int8, 4)}, tensor.Int8, []int{4}},
		{"aten::isinf", []any{m(tensor.Float64, 0, 2)}, tensor.Bool, []int{0, 2}},
		{"aten::logical_xor", []any{m(tensor.Float32, 2, 1), m(tensor.Int64, 3)}, tensor.Bool, []int{2, 3}},
		{"aten::bitwise_or.Scalar", []any{m(tensor.Bool, 2), int64(3)}, tensor.Int64, []int{2}},
		{"aten::clamp.Tensor", []any{m(tensor.Int64, 3), m(tensor.Float32, 2, 1), m(tensor.Float64)}, tensor.Float32, []int{2, 3}},
		{"aten::clamp.Tensor", []any{m(tensor.Float16, 3), m(tensor.Float16, 1), m(tensor.Float16, 1)}, tensor.Float16, []int{3}},
		{"aten::square", []any{m(tensor.Bool, 2)}, tensor.Int64, []int{2}},
		{"aten::clamp_min", []any{m(tensor.Int32, 2), 1.5}, tensor.Float32, []int{2}},
		{"aten::clamp_max", []any{m(tensor.Int16, 2), math.NaN()}, tensor.Float32, []int{2}},
		{"aten::floor_divide.Scalar", []any{m(tensor.Bool, 2), 2}, tensor.Int64, []int{2}},
		{"aten::logit", []any{m(tensor.Uint8, 2)}, tensor.Float32, []int{2}},
		{"aten::lerp.Tensor", []any{m(tensor.Float32, 2, 1), m(tensor.Float32, 3), m(tensor.Float32)}, tensor.Float32, []int{2, 3}},
		{"aten::addcmul", []any{m(tensor.Int64, 3), m(tensor.Float32, 2, 1), m(tensor.Float64)}, tensor.Float32, []int{2, 3}},
		{"aten::addcdiv", []any{m(tensor.Int64, 3), m(tensor.Float32, 3), m(tensor.Int64, 3)}, tensor.Float32, []int{3}},
		{"aten::xlogy.Scalar_Self", []any{2, m(tensor.Int8, 4)}, tensor.Float32, []int{4}},
		{"aten::hypot", []any{m(tensor.Float32, 3), m(tensor.Float64, 3)}, tensor.Float64, []int{3}},
		{"aten::nan_to_num", []any{m(tensor.BFloat16, 0)}, tensor.BFloat16, []int{0}},
	} {
		t.Run(tc.op, func(t *testing.T) {
			out, err := pwCall(t, tc.op, tc.args, nil)
			require.NoError(t, err)
			r := out[0].(*tensor.Tensor)
			assert.True(t, r.IsMeta())
			assert.Equal(t, tc.dt, r.DType())
			assert.Equal(t, tc.shape, r.Shape())
		})
	}
}

// TestPwStrided checks kernels on non-contiguous inputs, which the
// conformance format cannot express.
func TestPwStrided(t *testing.T) {
	x, err := tensor.FromFloat64s(tensor.Float64, []float64{0.5, -1.5, 2.5, -3.5, 4.5, math.Inf(1)}, 2, 3)
	require.NoError(t, err)
	xt := tensor.Must(x.Transpose(0, 1)) // [3,2]: 0.5 -3.5, -1.5 4.5, 2.5 inf
	out, err := pwCall(t, "aten::trunc.default", []any{xt}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, -3, -1, 4, 2, math.Inf(1)}, out[0].(*tensor.Tensor).Float64s())

	lo, err := tensor.FromFloat64s(tensor.Float64, []float64{0, 0, 0}, 3, 1)
	require.NoError(t, err)
	out, err = pwCall(t, "aten::clamp.Tensor", []any{xt, lo, nil}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{0.5, 0, 0, 4.5, 2.5, math.Inf(1)}, out[0].(*tensor.Tensor).Float64s())
}
