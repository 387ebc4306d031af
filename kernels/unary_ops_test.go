package kernels_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Go's math.Log on amd64 is wrong for subnormal float64 inputs; PyTorch
// 1.13 gives the true logarithm (values from torch.log).
func TestLogSubnormal(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float64{1e-320, 5e-324}))
	out, err := optest.Call(t, "aten::log", []any{x}, nil)
	require.NoError(t, err)
	assert.InDeltaSlice(t, []float64{-736.8272408909739, -744.4400719213812}, tensor.Values[float64](out[0].(*tensor.Tensor)), 1e-10)
}

// pointwiseTensor returns a 1-d tensor of dtype dt holding vals.
func pointwiseTensor(t *testing.T, dt tensor.DType, vals ...float64) *tensor.Tensor {
	t.Helper()
	x, err := tensor.FromFloat64s(dt, vals, len(vals))
	require.NoError(t, err)
	return x
}

// TestPointwiseBadInput checks that the pointwise kernels gen_pw.py covers reject what
// PyTorch 1.13 rejects, with an error that blames the right argument.
func TestPointwiseBadInput(t *testing.T) {
	f32 := func(v ...float64) *tensor.Tensor { return pointwiseTensor(t, tensor.Float32, v...) }
	i64 := func(v ...float64) *tensor.Tensor { return pointwiseTensor(t, tensor.Int64, v...) }
	f16 := func(v ...float64) *tensor.Tensor { return pointwiseTensor(t, tensor.Float16, v...) }
	b := func(v ...float64) *tensor.Tensor { return pointwiseTensor(t, tensor.Bool, v...) }
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
		{"clamp_max uint8 overflow", "aten::clamp_max", []any{pointwiseTensor(t, tensor.Uint8, 1), 300}, nil, "max", "overflow"},
		{"clamp_min.Tensor shapes", "aten::clamp_min.Tensor", []any{f32(1, 2), f32(1, 2, 3)}, nil, "min", ""},
		{"floor_divide bool", "aten::floor_divide", []any{b(1), b(1)}, nil, "self", `"div_floor_cpu" not implemented for 'Bool'`},
		{"floor_divide by zero", "aten::floor_divide", []any{i64(1, 2), i64(0, 1)}, nil, "other", "ZeroDivisionError"},
		{"floor_divide.Scalar by zero", "aten::floor_divide.Scalar", []any{i64(1, 2), 0}, nil, "other", "ZeroDivisionError"},
		{"softplus int64", "aten::softplus", []any{i64(1)}, nil, "self", `"softplus_cpu" not implemented for 'Long'`},
		{"softplus beta overflow", "aten::softplus", []any{f32(1), 1e300}, nil, "beta", "overflow"},
		{"hardshrink float16", "aten::hardshrink", []any{f16(1)}, nil, "self", "'Half'"},
		{"hardshrink lambd overflow", "aten::hardshrink", []any{f32(1), 1e300}, nil, "lambd", "overflow"},
		{"mish bfloat16", "aten::mish", []any{pointwiseTensor(t, tensor.BFloat16, 1)}, nil, "self", `"mish_cpu" not implemented for 'BFloat16'`},
		{"mish int64", "aten::mish", []any{i64(1)}, nil, "self", "'Long'"},
		{"logit float16", "aten::logit", []any{f16(0.5)}, nil, "self", `"logit_cpu" not implemented for 'Half'`},
		{"threshold bool", "aten::threshold", []any{b(1), 0, 1}, nil, "self", `"threshold_cpu" not implemented for 'Bool'`},
		{"threshold uint8 overflow", "aten::threshold", []any{pointwiseTensor(t, tensor.Uint8, 1), 300, 1}, nil, "threshold", "overflow"},
		{"threshold float32 value overflow", "aten::threshold", []any{f32(1), 0, 1e300}, nil, "value", "overflow"},
		{"lerp end dtype", "aten::lerp.Scalar", []any{f32(1), pointwiseTensor(t, tensor.Float64, 1), 0.5}, nil, "end", "expected dtype float for `end` but got dtype double"},
		{"lerp weight dtype", "aten::lerp.Tensor", []any{f32(1), f32(1), pointwiseTensor(t, tensor.Float64, 1)}, nil, "weight", "`weight`"},
		{"lerp int64", "aten::lerp.Scalar", []any{i64(1), i64(2), 0.5}, nil, "self", `"lerp_kernel_scalar" not implemented for 'Long'`},
		{"lerp weight overflow", "aten::lerp.Scalar", []any{f32(1), f32(2), 1e300}, nil, "weight", "overflow"},
		{"lerp shapes", "aten::lerp.Scalar", []any{f32(1, 2), f32(1, 2, 3), 0.5}, nil, "end", ""},
		{"addcmul bool", "aten::addcmul", []any{b(1), b(1), b(1)}, nil, "self", `"addcmul_cpu_out" not implemented for 'Bool'`},
		{"addcmul shapes", "aten::addcmul", []any{f32(1, 2), f32(1, 2, 3), f32(1)}, nil, "tensor2", ""},
		{"addcmul value overflow", "aten::addcmul", []any{pointwiseTensor(t, tensor.Int8, 1), pointwiseTensor(t, tensor.Int8, 1), pointwiseTensor(t, tensor.Int8, 1)}, map[string]any{"value": 300}, "value", "overflow"},
		{"addcdiv integer", "aten::addcdiv", []any{f32(1), i64(1), i64(1)}, nil, "tensor2", "Integer division with addcdiv"},
		{"addcdiv float16", "aten::addcdiv", []any{f16(1), f16(1), f16(1)}, nil, "self", "'Half'"},
		{"hypot int64", "aten::hypot", []any{i64(1), i64(1)}, nil, "self", `"hypot_cpu" not implemented for 'Long'`},
		{"hypot float16", "aten::hypot", []any{f16(1), f16(1)}, nil, "self", "'Half'"},
		{"xlogy shapes", "aten::xlogy.Tensor", []any{f32(1, 2), f32(1, 2, 3)}, nil, "other", ""},
		{"copysign shapes", "aten::copysign.Tensor", []any{f32(1, 2), f32(1, 2, 3)}, nil, "other", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := optest.Call(t, tc.op, tc.args, tc.kwargs)
			require.Error(t, err)
			var ce *ops.CallError
			require.True(t, errors.As(err, &ce), "%v", err)
			assert.Equal(t, tc.arg, ce.Arg, "%v", err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// TestPointwiseMeta checks that meta tensors give the output dtype and shape
// without data, and skip the data-dependent dtype errors of CPU kernels.
func TestPointwiseMeta(t *testing.T) {
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
			out, err := optest.Call(t, tc.op, tc.args, nil)
			require.NoError(t, err)
			r := out[0].(*tensor.Tensor)
			assert.True(t, r.IsMeta())
			assert.Equal(t, tc.dt, r.DType())
			assert.Equal(t, tc.shape, r.Shape())
		})
	}
}

// TestPointwiseStrided checks kernels on non-contiguous inputs, which the
// conformance format cannot express.
func TestPointwiseStrided(t *testing.T) {
	x, err := tensor.FromFloat64s(tensor.Float64, []float64{0.5, -1.5, 2.5, -3.5, 4.5, math.Inf(1)}, 2, 3)
	require.NoError(t, err)
	xt := tensor.Must(x.Transpose(0, 1)) // [3,2]: 0.5 -3.5, -1.5 4.5, 2.5 inf
	out, err := optest.Call(t, "aten::trunc.default", []any{xt}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, -3, -1, 4, 2, math.Inf(1)}, out[0].(*tensor.Tensor).Float64s())

	lo, err := tensor.FromFloat64s(tensor.Float64, []float64{0, 0, 0}, 3, 1)
	require.NoError(t, err)
	out, err = optest.Call(t, "aten::clamp.Tensor", []any{xt, lo, nil}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{0.5, 0, 0, 4.5, 2.5, math.Inf(1)}, out[0].(*tensor.Tensor).Float64s())
}

// unaryTensor returns a tensor of dtype dt holding vals.
func unaryTensor(t *testing.T, dt tensor.DType, vals ...float64) *tensor.Tensor {
	t.Helper()
	x, err := tensor.FromFloat64s(dt, vals, len(vals))
	require.NoError(t, err)
	return x
}

// TestUnaryOpsUnaryBadInput checks that the unary kernels reject what PyTorch 1.13
// rejects, with an error that blames the right argument.
func TestUnaryOpsUnaryBadInput(t *testing.T) {
	f32 := func() *tensor.Tensor { return unaryTensor(t, tensor.Float32, -1, 0, 2) }
	i64 := func() *tensor.Tensor { return unaryTensor(t, tensor.Int64, -1, 0, 2) }
	b := func() *tensor.Tensor { return unaryTensor(t, tensor.Bool, 1, 0) }
	for _, tc := range []struct {
		name   string
		op     string
		args   []any
		kwargs map[string]any
		arg    string // the argument the error must blame
		msg    string // a part of the message
	}{
		{"abs of bool", "aten::abs.default", []any{b()}, nil, "self", "Bool"},
		{"neg of bool", "aten::neg.default", []any{b()}, nil, "self", "Negation"},
		{"ceil of bool", "aten::ceil.default", []any{b()}, nil, "self", "Bool"},
		{"floor of bool", "aten::floor.default", []any{b()}, nil, "self", "Bool"},
		{"round of bool", "aten::round.default", []any{b()}, nil, "self", "Bool"},
		{"relu of bool", "aten::relu.default", []any{b()}, nil, "self", "Boolean inputs"},
		{"relu6 of bool", "aten::relu6.default", []any{b()}, nil, "self", "Bool inputs"},
		{"hardtanh of bool", "aten::hardtanh.default", []any{b()}, nil, "self", "Bool inputs"},
		{"cos of float16", "aten::cos.default", []any{unaryTensor(t, tensor.Float16, 1)}, nil, "self", "'Half'"},
		{"relu of float16", "aten::relu.default", []any{unaryTensor(t, tensor.Float16, 1)}, nil, "self", "'Half'"},
		{"silu of int64", "aten::silu.default", []any{i64()}, nil, "self", "'Long'"},
		{"hardsigmoid of uint8", "aten::hardsigmoid.default", []any{unaryTensor(t, tensor.Uint8, 1)}, nil, "self", "'Byte'"},
		{"hardswish of bool", "aten::hardswish.default", []any{b()}, nil, "self", "'Bool'"},
		{"leaky_relu of int32", "aten::leaky_relu.default", []any{unaryTensor(t, tensor.Int32, 1)}, nil, "self", "'Int'"},
		{"elu of int8", "aten::elu.default", []any{unaryTensor(t, tensor.Int8, 1)}, nil, "self", "'Char'"},
		{"gelu of int16", "aten::gelu.default", []any{unaryTensor(t, tensor.Int16, 1)}, nil, "self", "'Short'"},
		{"gelu approximate Tanh", "aten::gelu.default", []any{f32()}, map[string]any{"approximate": "Tanh"}, "approximate", "none or tanh"},
		{"gelu approximate empty", "aten::gelu.default", []any{f32()}, map[string]any{"approximate": ""}, "approximate", "none or tanh"},
		{"hardtanh uint8 negative min", "aten::hardtanh.default", []any{unaryTensor(t, tensor.Uint8, 1), -1, 3}, nil, "min_val", "unsigned"},
		{"hardtanh int8 min overflows", "aten::hardtanh.default", []any{unaryTensor(t, tensor.Int8, 1), -200, 3}, nil, "min_val", "overflow"},
		{"hardtanh int64 NaN max", "aten::hardtanh.default", []any{i64(), -1, math.NaN()}, nil, "max_val", "overflow"},
		{"hardtanh int64 infinite min", "aten::hardtanh.default", []any{i64(), math.Inf(-1), 1}, nil, "min_val", "overflow"},
		{"hardtanh float32 max overflows", "aten::hardtanh.default", []any{f32(), -1.0, 1e300}, nil, "max_val", "overflow"},
		{"hardtanh bfloat16 min overflows", "aten::hardtanh.default", []any{unaryTensor(t, tensor.BFloat16, 1), -3.399e38, 1.0}, nil, "min_val", "overflow"},
		{"leaky_relu float32 slope overflows", "aten::leaky_relu.default", []any{f32(), 1e300}, nil, "negative_slope", "overflow"},
		{"elu float32 alpha overflows", "aten::elu.default", []any{f32(), -1e300}, nil, "alpha", "overflow"},
		{"elu float32 input_scale overflows", "aten::elu.default", []any{f32(), 1, 1, 1e39}, nil, "input_scale", "overflow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := optest.Call(t, tc.op, tc.args, tc.kwargs)
			require.Error(t, err)
			var ce *ops.CallError
			require.True(t, errors.As(err, &ce), "%v", err)
			assert.Equal(t, tc.arg, ce.Arg, "%v", err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// TestUnaryOpsUnaryValues checks a few results against values PyTorch 1.13 gives.
func TestUnaryOpsUnaryValues(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name   string
		op     string
		args   []any
		kwargs map[string]any
		dt     tensor.DType
		want   []float64
	}{
		{"sign of NaN is 0", "aten::sign.default", []any{unaryTensor(t, tensor.Float32, nan, -2, 0, 3)}, nil, tensor.Float32, []float64{0, -1, 0, 1}},
		{"sign of bool", "aten::sign.default", []any{unaryTensor(t, tensor.Bool, 1, 0)}, nil, tensor.Bool, []float64{1, 0}},
		{"abs wraps int8 minimum", "aten::abs.default", []any{unaryTensor(t, tensor.Int8, -128, -3)}, nil, tensor.Int8, []float64{-128, 3}},
		{"neg wraps uint8", "aten::neg.default", []any{unaryTensor(t, tensor.Uint8, 0, 1, 255)}, nil, tensor.Uint8, []float64{0, 255, 1}},
		{"round half to even", "aten::round.default", []any{unaryTensor(t, tensor.Float32, -2.5, -0.5, 0.5, 1.5, 2.5)}, nil, tensor.Float32, []float64{-2, 0, 0, 2, 2}},
		{"floor of int keeps dtype", "aten::floor.default", []any{unaryTensor(t, tensor.Int32, -3, 4)}, nil, tensor.Int32, []float64{-3, 4}},
		{"exp of int64 is float32", "aten::exp.default", []any{unaryTensor(t, tensor.Int64, 0)}, nil, tensor.Float32, []float64{1}},
		{"reciprocal of bool is float32", "aten::reciprocal.default", []any{unaryTensor(t, tensor.Bool, 1, 0)}, nil, tensor.Float32, []float64{1, math.Inf(1)}},
		{"relu keeps NaN", "aten::relu.default", []any{unaryTensor(t, tensor.Float64, nan, -1, 2)}, nil, tensor.Float64, []float64{nan, 0, 2}},
		{"relu6 of int8", "aten::relu6.default", []any{unaryTensor(t, tensor.Int8, -5, 3, 9)}, nil, tensor.Int8, []float64{0, 3, 6}},
		{"hardtanh truncates int bounds", "aten::hardtanh.default", []any{unaryTensor(t, tensor.Int64, -5, 0, 5), -2.7, 2.7}, nil, tensor.Int64, []float64{-2, 0, 2}},
		{"hardtanh min > max gives max", "aten::hardtanh.default", []any{unaryTensor(t, tensor.Float32, -3, 0, 3), 2.0, -1.0}, nil, tensor.Float32, []float64{-1, -1, -1}},
		{"hardtanh NaN bound gives NaN", "aten::hardtanh.default", []any{unaryTensor(t, tensor.Float32, -3, 0, 3), nan, 1.0}, nil, tensor.Float32, []float64{nan, nan, nan}},
		{"leaky_relu bool slope", "aten::leaky_relu.default", []any{unaryTensor(t, tensor.Float32, -2, 2), true}, nil, tensor.Float32, []float64{-2, 2}},
		{"elu defaults", "aten::elu.default", []any{unaryTensor(t, tensor.Float64, 0, 1)}, nil, tensor.Float64, []float64{0, 1}},
		{"gelu tanh of 0", "aten::gelu.default", []any{unaryTensor(t, tensor.Float32, 0)}, map[string]any{"approximate": "tanh"}, tensor.Float32, []float64{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := optest.Call(t, tc.op, tc.args, tc.kwargs)
			require.NoError(t, err)
			got := out[0].(*tensor.Tensor)
			require.Equal(t, tc.dt, got.DType())
			vals := got.Float64s()
			require.Len(t, vals, len(tc.want))
			for i, w := range tc.want {
				if math.IsNaN(w) {
					assert.True(t, math.IsNaN(vals[i]), "element %d: %v", i, vals[i])
					continue
				}
				assert.Equal(t, w, vals[i], "element %d", i)
			}
		})
	}
}

// TestUnaryOpsUnaryMetaHalf checks that meta tensors of float16 get an output
// dtype and shape from ops whose CPU kernels lack float16, as PyTorch's meta
// functions do, and that non-contiguous inputs are read in logical order.
func TestUnaryOpsUnaryMetaHalf(t *testing.T) {
	m, err := tensor.NewMeta(tensor.Float16, 2, 3)
	require.NoError(t, err)
	out, err := optest.Call(t, "aten::cos.default", []any{m}, nil)
	require.NoError(t, err)
	got := out[0].(*tensor.Tensor)
	assert.True(t, got.IsMeta())
	assert.Equal(t, tensor.Float16, got.DType())
	assert.Equal(t, []int{2, 3}, got.Shape())

	x, err := tensor.FromFloat64s(tensor.Float32, []float64{-1, 2, -3, 4, -5, 6}, 2, 3)
	require.NoError(t, err)
	xt, err := x.Transpose(0, 1)
	require.NoError(t, err)
	out, err = optest.Call(t, "aten::abs.default", []any{xt}, nil)
	require.NoError(t, err)
	got = out[0].(*tensor.Tensor)
	assert.Equal(t, []int{3, 2}, got.Shape())
	assert.Equal(t, []float64{1, 4, 2, 5, 3, 6}, got.Float64s())
}
