package kernels_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/tensor"
)

// binaryF32 returns a float32 tensor of vals and shape.
func binaryF32(t *testing.T, vals []float64, shape ...int) *tensor.Tensor {
	t.Helper()
	x, err := tensor.FromFloat64s(tensor.Float32, vals, shape...)
	require.NoError(t, err)
	return x
}

// binaryInts returns a tensor of dtype dt holding vals.
func binaryInts(t *testing.T, dt tensor.DType, vals ...int64) *tensor.Tensor {
	t.Helper()
	x, err := tensor.FromInt64s(dt, vals, len(vals))
	require.NoError(t, err)
	return x
}

// callBinary1 calls op and returns its single tensor result.
func callBinary1(t *testing.T, name string, args []any, kwargs map[string]any) *tensor.Tensor {
	t.Helper()
	out, err := optest.Op(t, name).Call(args, kwargs)
	require.NoError(t, err)
	require.Len(t, out, 1)
	res, ok := out[0].(*tensor.Tensor)
	require.True(t, ok)
	return res
}

// TestBinaryOpsBadInput checks that bad arguments give an error naming the
// argument to blame, never a panic.
func TestBinaryOpsBadInput(t *testing.T) {
	f := func() *tensor.Tensor { return binaryF32(t, []float64{1, 2, 3}, 3) }
	b := func() *tensor.Tensor { return binaryInts(t, tensor.Bool, 1, 0, 1) }
	i := func() *tensor.Tensor { return binaryInts(t, tensor.Int64, 1, 0, 3) }
	i8 := func() *tensor.Tensor { return binaryInts(t, tensor.Int8, 1, 2, 3) }
	h := func() *tensor.Tensor { return f().To(tensor.Float16) }
	four := func() *tensor.Tensor { return binaryF32(t, []float64{1, 2, 3, 4}, 4) }
	cases := []struct {
		name   string
		op     string
		args   []any
		kwargs map[string]any
		arg    string // the argument the error must name
		msg    string // a fragment of the message
	}{
		{"sub bool tensors", "aten::sub.Tensor", []any{b(), b()}, nil, "other", "two bool tensors"},
		{"sub bool self", "aten::sub.Tensor", []any{b(), i()}, nil, "self", "bool tensor"},
		{"sub.Scalar bool self", "aten::sub.Scalar", []any{b(), int64(1)}, nil, "self", "bool tensor"},
		{"rsub bool self", "aten::rsub.Scalar", []any{b(), int64(1)}, nil, "self", "bool tensor"},
		{"sub float alpha on ints", "aten::sub.Tensor", []any{i(), i()}, map[string]any{"alpha": 0.5}, "alpha", "floating point"},
		{"add.Scalar float alpha on ints", "aten::add.Scalar", []any{i(), int64(1), 1.5}, nil, "alpha", "floating point"},
		{"alpha overflows int8", "aten::add.Scalar", []any{i8(), int64(1), int64(300)}, nil, "alpha", "int8_t without overflow"},
		{"alpha overflows float", "aten::rsub.Scalar", []any{f(), int64(1), 1e300}, nil, "alpha", "float without overflow"},
		{"broadcast mismatch", "aten::mul.Tensor", []any{f(), four()}, nil, "other", "must match"},
		{"div bad rounding mode", "aten::div.Tensor_mode", []any{f(), f()}, map[string]any{"rounding_mode": "round"}, "rounding_mode", "one of None"},
		{"div trunc bool", "aten::div.Tensor_mode", []any{b(), b()}, map[string]any{"rounding_mode": "trunc"}, "self", "Bool"},
		{"div floor int by zero", "aten::div.Tensor_mode", []any{i(), i()}, map[string]any{"rounding_mode": "floor"}, "other", "ZeroDivisionError"},
		{"div.Scalar_mode int by zero", "aten::div.Scalar_mode", []any{i(), int64(0)}, map[string]any{"rounding_mode": "trunc"}, "other", "ZeroDivisionError"},
		{"fmod int by zero", "aten::fmod.Tensor", []any{i(), i()}, nil, "other", "ZeroDivisionError"},
		{"remainder int by zero", "aten::remainder.Scalar", []any{i(), int64(0)}, nil, "other", "ZeroDivisionError"},
		{"fmod bool", "aten::fmod.Tensor", []any{b(), b()}, nil, "self", "fmod_cpu"},
		{"pow negative int exponent", "aten::pow.Tensor_Scalar", []any{i(), int64(-1)}, nil, "exponent", "negative integer powers"},
		{"pow exponent overflows half", "aten::pow.Tensor_Scalar", []any{h(), 1e5}, nil, "exponent", "at::Half without overflow"},
		{"pow bool tensors", "aten::pow.Tensor_Tensor", []any{b(), b()}, nil, "self", "Bool"},
		{"atan2 half", "aten::atan2", []any{h(), h()}, nil, "self", "atan2_cpu"},
		{"bitwise_and float", "aten::bitwise_and.Tensor", []any{f(), i()}, nil, "self", "bitwise_and_cpu"},
		{"bitwise_and.Scalar float", "aten::bitwise_and.Scalar", []any{f(), int64(1)}, nil, "self", "Float"},
		{"bitwise_not float", "aten::bitwise_not", []any{f()}, nil, "self", "bitwise_not_cpu"},
		{"where int condition", "aten::where.self", []any{i(), f(), f()}, nil, "condition", "boolean tensor"},
		{"where broadcast", "aten::where.self", []any{b(), f(), four()}, nil, "other", "must match"},
		{"clamp no bounds", "aten::clamp", []any{f()}, nil, "min", "At least one"},
		{"clamp half", "aten::clamp", []any{h(), 0.0, 1.0}, nil, "self", "clamp_scalar_cpu"},
		{"clamp min overflows int8", "aten::clamp", []any{i8(), int64(300)}, nil, "min", "int8_t without overflow"},
		{"clamp max overflows float", "aten::clamp", []any{f(), nil, -1e300}, nil, "max", "float without overflow"},
		{"comparison broadcast", "aten::lt.Tensor", []any{f(), four()}, nil, "other", "must match"},
		{"logical_and broadcast", "aten::logical_and", []any{f(), four()}, nil, "other", "must match"},
		{"Scalar given a tensor", "aten::eq.Scalar", []any{f(), f()}, nil, "other", "Scalar"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := optest.Op(t, tc.op).Call(tc.args, tc.kwargs)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "'"+tc.arg+"'")
			assert.Contains(t, err.Error(), tc.msg)
			assert.NotContains(t, err.Error(), "internal error")
		})
	}
}

// TestBinaryOpsNonContiguous checks that strided (transposed, expanded) inputs
// are read in logical order.
func TestBinaryOpsNonContiguous(t *testing.T) {
	x := binaryF32(t, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	xt, err := x.T() // [[1 4] [2 5] [3 6]]
	require.NoError(t, err)
	y := binaryF32(t, []float64{10, 20}, 2)
	got := callBinary1(t, "aten::sub.Tensor", []any{xt, y}, map[string]any{"alpha": int64(2)})
	assert.Equal(t, []int{3, 2}, got.Shape())
	assert.Equal(t, []float64{-19, -36, -18, -35, -17, -34}, got.Float64s())

	cond, err := tensor.FromSlice([]bool{true, false}, 2)
	require.NoError(t, err)
	got = callBinary1(t, "aten::where.self", []any{cond, xt, y}, nil)
	assert.Equal(t, []float64{1, 20, 2, 20, 3, 20}, got.Float64s())

	got = callBinary1(t, "aten::gt.Scalar", []any{xt, 2.5}, nil)
	assert.Equal(t, []bool{false, true, false, true, true, true}, got.Bools())
}

// TestBinaryOpsSemantics spot-checks PyTorch 1.13 results that the conformance
// vectors do not pin down.
func TestBinaryOpsSemantics(t *testing.T) {
	// Integer floor division rounds toward -inf, trunc toward zero.
	a := binaryInts(t, tensor.Int64, 7, -7, 7, -7)
	d := binaryInts(t, tensor.Int64, 2, 2, -2, -2)
	got := callBinary1(t, "aten::div.Tensor_mode", []any{a, d}, map[string]any{"rounding_mode": "floor"})
	assert.Equal(t, tensor.Int64, got.DType())
	assert.Equal(t, []int64{3, -4, -4, 3}, got.Int64s())
	got = callBinary1(t, "aten::div.Tensor_mode", []any{a, d}, map[string]any{"rounding_mode": "trunc"})
	assert.Equal(t, []int64{3, -3, -3, 3}, got.Int64s())
	got = callBinary1(t, "aten::remainder.Tensor", []any{a, d}, nil)
	assert.Equal(t, []int64{1, 1, -1, -1}, got.Int64s())
	got = callBinary1(t, "aten::fmod.Tensor", []any{a, d}, nil)
	assert.Equal(t, []int64{1, -1, 1, -1}, got.Int64s())

	// Floor division of ±inf by a finite number is NaN (through fmod).
	got = callBinary1(t, "aten::div.Tensor_mode", []any{binaryF32(t, []float64{math.Inf(1)}, 1), binaryF32(t, []float64{2}, 1)},
		map[string]any{"rounding_mode": "floor"})
	assert.True(t, math.IsNaN(got.Float64s()[0]))

	// A scalar is cast to the tensor's dtype: uint8 wraps.
	u := binaryInts(t, tensor.Uint8, 250, 3)
	got = callBinary1(t, "aten::add.Scalar", []any{u, int64(300)}, nil)
	assert.Equal(t, tensor.Uint8, got.DType())
	assert.Equal(t, []int64{38, 47}, got.Int64s())
	got = callBinary1(t, "aten::eq.Scalar", []any{u, int64(-6)}, nil)
	assert.Equal(t, []bool{true, false}, got.Bools())

	// Integer powers are exact, negative exponents follow powi.
	got = callBinary1(t, "aten::pow.Tensor_Tensor", []any{binaryInts(t, tensor.Int64, 1, -1, 2, 3), binaryInts(t, tensor.Int64, -5, -3, -1, 39)}, nil)
	assert.Equal(t, []int64{1, -1, 0, 4052555153018976267}, got.Int64s())

	// clamp: an int tensor with a float bound computes in float32; min >
	// max gives max.
	got = callBinary1(t, "aten::clamp", []any{binaryInts(t, tensor.Int64, 1, 5), 3.5, 2.0}, nil)
	assert.Equal(t, tensor.Float32, got.DType())
	assert.Equal(t, []float64{2, 2}, got.Float64s())

	// Bool operands: mul is logical and, maximum is logical or.
	bt := binaryInts(t, tensor.Bool, 1, 0, 1)
	bf := binaryInts(t, tensor.Bool, 0, 0, 1)
	assert.Equal(t, []bool{false, false, true}, callBinary1(t, "aten::mul.Tensor", []any{bt, bf}, nil).Bools())
	assert.Equal(t, []bool{true, false, true}, callBinary1(t, "aten::maximum", []any{bt, bf}, nil).Bools())
	assert.Equal(t, []bool{false, true, false}, callBinary1(t, "aten::bitwise_not", []any{bt}, nil).Bools())
}

// TestBinaryOpsMeta checks output dtypes and shapes on meta tensors, including
// checks that need no data.
func TestBinaryOpsMeta(t *testing.T) {
	m := func(dt tensor.DType, shape ...int) *tensor.Tensor {
		x, err := tensor.NewMeta(dt, shape...)
		require.NoError(t, err)
		return x
	}
	cases := []struct {
		op    string
		args  []any
		dt    tensor.DType
		shape []int
	}{
		{"aten::div.Tensor", []any{m(tensor.Int64, 2, 1), m(tensor.Int32, 3)}, tensor.Float32, []int{2, 3}},
		{"aten::div.Scalar_mode", []any{m(tensor.Int8, 4), int64(0), "floor"}, tensor.Int8, []int{4}},
		{"aten::mul.Scalar", []any{m(tensor.Bool, 4), 2.5}, tensor.Float32, []int{4}},
		{"aten::lt.Scalar", []any{m(tensor.Float16, 2, 2), int64(1)}, tensor.Bool, []int{2, 2}},
		{"aten::where.self", []any{m(tensor.Bool, 3, 1), m(tensor.Int8, 1, 4), m(tensor.Uint8)}, tensor.Int8, []int{3, 4}},
		{"aten::clamp", []any{m(tensor.Bool, 5), int64(0)}, tensor.Int64, []int{5}},
		{"aten::pow.Tensor_Scalar", []any{m(tensor.Int32, 3), 0.5}, tensor.Float32, []int{3}},
		{"aten::pow.Scalar", []any{int64(2), m(tensor.Uint8, 0, 2)}, tensor.Uint8, []int{0, 2}},
		{"aten::isnan", []any{m(tensor.BFloat16, 7)}, tensor.Bool, []int{7}},
		{"aten::fmod.Tensor", []any{m(tensor.Int64, 2), m(tensor.Int64, 2)}, tensor.Int64, []int{2}},
	}
	for _, tc := range cases {
		t.Run(tc.op, func(t *testing.T) {
			args := tc.args
			var kwargs map[string]any
			if tc.op == "aten::div.Scalar_mode" {
				args, kwargs = args[:2], map[string]any{"rounding_mode": args[2]}
			}
			got := callBinary1(t, tc.op, args, kwargs)
			assert.True(t, got.IsMeta())
			assert.Equal(t, tc.dt, got.DType())
			assert.Equal(t, tc.shape, got.Shape())
		})
	}
}

func TestOutVariant(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float32{1, -1}))
	y := tensor.Must(tensor.FromSlice([]float32{1, 1}))
	out := tensor.Empty(tensor.Float32, 2)
	res, err := optest.Call(t, "aten::atan2.out", []any{x, y}, map[string]any{"out": out})
	require.NoError(t, err)
	assert.Same(t, out, res[0])
	assert.InDeltaSlice(t, []float32{0.7853982, -0.7853982}, tensor.Values[float32](out), 1e-7)
	_, err = optest.Call(t, "aten::atan2.out", []any{x, y}, map[string]any{"out": tensor.Empty(tensor.Int64, 2)})
	assert.ErrorContains(t, err, "result type Float can't be cast to the desired output type Long")
	// An out= of another shape is resized, as ATen's resize_output does:
	// the result is a view of out's storage.
	big := tensor.Empty(tensor.Float32, 3)
	res, err = optest.Call(t, "aten::atan2.out", []any{x, y}, map[string]any{"out": big})
	require.NoError(t, err)
	got := res[0].(*tensor.Tensor)
	assert.Equal(t, []int{2}, got.Shape())
	assert.True(t, got.SharesStorage(big))
	assert.InDeltaSlice(t, []float32{0.7853982, -0.7853982}, tensor.Values[float32](got), 1e-7)
}
