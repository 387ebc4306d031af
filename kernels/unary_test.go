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

// ew2Call calls the operator called name with args and kwargs.
func ew2Call(t *testing.T, name string, args []any, kwargs map[string]any) ([]any, error) {
	t.Helper()
	op, ok := ops.Global().Lookup(name)
	require.True(t, ok, name)
	return op.Call(args, kwargs)
}

// ew2T returns a tensor of dtype dt holding vals.
func ew2T(t *testing.T, dt tensor.DType, vals ...float64) *tensor.Tensor {
	t.Helper()
	x, err := tensor.FromFloat64s(dt, vals, len(vals))
	require.NoError(t, err)
	return x
}

// TestEw2UnaryBadInput checks that the unary kernels reject what PyTorch 1.13
// rejects, with an error that blames the right argument.
func TestEw2UnaryBadInput(t *testing.T) {
	f32 := func() *tensor.Tensor { return ew2T(t, tensor.Float32, -1, 0, 2) }
	i64 := func() *tensor.Tensor { return ew2T(t, tensor.Int64, -1, 0, 2) }
	b := func() *tensor.Tensor { return ew2T(t, tensor.Bool, 1, 0) }
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
		{"cos of float16", "aten::cos.default", []any{ew2T(t, tensor.Float16, 1)}, nil, "self", "'Half'"},
		{"relu of float16", "aten::relu.default", []any{ew2T(t, tensor.Float16, 1)}, nil, "self", "'Half'"},
		{"silu of int64", "aten::silu.default", []any{i64()}, nil, "self", "'Long'"},
		{"hardsigmoid of uint8", "aten::hardsigmoid.default", []any{ew2T(t, tensor.Uint8, 1)}, nil, "self", "'Byte'"},
		{"hardswish of bool", "aten::hardswish.default", []any{b()}, nil, "self", "'Bool'"},
		{"leaky_relu of int32", "aten::leaky_relu.default", []any{ew2T(t, tensor.Int32, 1)}, nil, "self", "'Int'"},
		{"elu of int8", "aten::elu.default", []any{ew2T(t, tensor.Int8, 1)}, nil, "self", "'Char'"},
		{"gelu of int16", "aten::gelu.default", []any{ew2T(t, tensor.Int16, 1)}, nil, "self", "'Short'"},
		{"gelu approximate Tanh", "aten::gelu.default", []any{f32()}, map[string]any{"approximate": "Tanh"}, "approximate", "none or tanh"},
		{"gelu approximate empty", "aten::gelu.default", []any{f32()}, map[string]any{"approximate": ""}, "approximate", "none or tanh"},
		{"hardtanh uint8 negative min", "aten::hardtanh.default", []any{ew2T(t, tensor.Uint8, 1), -1, 3}, nil, "min_val", "unsigned"},
		{"hardtanh int8 min overflows", "aten::hardtanh.default", []any{ew2T(t, tensor.Int8, 1), -200, 3}, nil, "min_val", "overflow"},
		{"hardtanh int64 NaN max", "aten::hardtanh.default", []any{i64(), -1, math.NaN()}, nil, "max_val", "overflow"},
		{"hardtanh int64 infinite min", "aten::hardtanh.default", []any{i64(), math.Inf(-1), 1}, nil, "min_val", "overflow"},
		{"hardtanh float32 max overflows", "aten::hardtanh.default", []any{f32(), -1.0, 1e300}, nil, "max_val", "overflow"},
		{"hardtanh bfloat16 min overflows", "aten::hardtanh.default", []any{ew2T(t, tensor.BFloat16, 1), -3.399e38, 1.0}, nil, "min_val", "overflow"},
		{"leaky_relu float32 slope overflows", "aten::leaky_relu.default", []any{f32(), 1e300}, nil, "negative_slope", "overflow"},
		{"elu float32 alpha overflows", "aten::elu.default", []any{f32(), -1e300}, nil, "alpha", "overflow"},
		{"elu float32 input_scale overflows", "aten::elu.default", []any{f32(), 1, 1, 1e39}, nil, "input_scale", "overflow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ew2Call(t, tc.op, tc.args, tc.kwargs)
			require.Error(t, err)
			var ce *ops.CallError
			require.True(t, errors.As(err, &ce), "%v", err)
			assert.Equal(t, tc.arg, ce.Arg, "%v", err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// TestEw2UnaryValues checks a few results against values PyTorch 1.13 gives.
func TestEw2UnaryValues(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name   string
		op     string
		args   []any
		kwargs map[string]any
		dt     tensor.DType
		want   []float64
	}{
		{"sign of NaN is 0", "aten::sign.default", []any{ew2T(t, tensor.Float32, nan, -2, 0, 3)}, nil, tensor.Float32, []float64{0, -1, 0, 1}},
		{"sign of bool", "aten::sign.default", []any{ew2T(t, tensor.Bool, 1, 0)}, nil, tensor.Bool, []float64{1, 0}},
		{"abs wraps int8 minimum", "aten::abs.default", []any{ew2T(t, tensor.Int8, -128, -3)}, nil, tensor.Int8, []float64{-128, 3}},
		{"neg wraps uint8", "aten::neg.default", []any{ew2T(t, tensor.Uint8, 0, 1, 255)}, nil, tensor.Uint8, []float64{0, 255, 1}},
		{"round half to even", "aten::round.default", []any{ew2T(t, tensor.Float32, -2.5, -0.5, 0.5, 1.5, 2.5)}, nil, tensor.Float32, []float64{-2, 0, 0, 2, 2}},
		{"floor of int keeps dtype", "aten::floor.default", []any{ew2T(t, tensor.Int32, -3, 4)}, nil, tensor.Int32, []float64{-3, 4}},
		{"exp of int64 is float32", "aten::exp.default", []any{ew2T(t, tensor.Int64, 0)}, nil, tensor.Float32, []float64{1}},
		{"reciprocal of bool is float32", "aten::reciprocal.default", []any{ew2T(t, tensor.Bool, 1, 0)}, nil, tensor.Float32, []float64{1, math.Inf(1)}},
		{"relu keeps NaN", "aten::relu.default", []any{ew2T(t, tensor.Float64, nan, -1, 2)}, nil, tensor.Float64, []float64{nan, 0, 2}},
		{"relu6 of int8", "aten::relu6.default", []any{ew2T(t, tensor.Int8, -5, 3, 9)}, nil, tensor.Int8, []float64{0, 3, 6}},
		{"hardtanh truncates int bounds", "aten::hardtanh.default", []any{ew2T(t, tensor.Int64, -5, 0, 5), -2.7, 2.7}, nil, tensor.Int64, []float64{-2, 0, 2}},
		{"hardtanh min > max gives max", "aten::hardtanh.default", []any{ew2T(t, tensor.Float32, -3, 0, 3), 2.0, -1.0}, nil, tensor.Float32, []float64{-1, -1, -1}},
		{"hardtanh NaN bound gives NaN", "aten::hardtanh.default", []any{ew2T(t, tensor.Float32, -3, 0, 3), nan, 1.0}, nil, tensor.Float32, []float64{nan, nan, nan}},
		{"leaky_relu bool slope", "aten::leaky_relu.default", []any{ew2T(t, tensor.Float32, -2, 2), true}, nil, tensor.Float32, []float64{-2, 2}},
		{"elu defaults", "aten::elu.default", []any{ew2T(t, tensor.Float64, 0, 1)}, nil, tensor.Float64, []float64{0, 1}},
		{"gelu tanh of 0", "aten::gelu.default", []any{ew2T(t, tensor.Float32, 0)}, map[string]any{"approximate": "tanh"}, tensor.Float32, []float64{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := ew2Call(t, tc.op, tc.args, tc.kwargs)
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

// TestEw2UnaryMetaHalf checks that meta tensors of float16 get an output
// dtype and shape from ops whose CPU kernels lack float16, as PyTorch's meta
// functions do, and that non-contiguous inputs are read in logical order.
func TestEw2UnaryMetaHalf(t *testing.T) {
	m, err := tensor.NewMeta(tensor.Float16, 2, 3)
	require.NoError(t, err)
	out, err := ew2Call(t, "aten::cos.default", []any{m}, nil)
	require.NoError(t, err)
	got := out[0].(*tensor.Tensor)
	assert.True(t, got.IsMeta())
	assert.Equal(t, tensor.Float16, got.DType())
	assert.Equal(t, []int{2, 3}, got.Shape())

	x, err := tensor.FromFloat64s(tensor.Float32, []float64{-1, 2, -3, 4, -5, 6}, 2, 3)
	require.NoError(t, err)
	xt, err := x.Transpose(0, 1)
	require.NoError(t, err)
	out, err = ew2Call(t, "aten::abs.default", []any{xt}, nil)
	require.NoError(t, err)
	got = out[0].(*tensor.Tensor)
	assert.Equal(t, []int{3, 2}, got.Shape())
	assert.Equal(t, []float64{1, 4, 2, 5, 3, 6}, got.Float64s())
}
