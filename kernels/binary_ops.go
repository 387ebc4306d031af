package kernels

import (
	"fmt"
	"math"

	"github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Binary elementwise ops, ATen's BinaryOps.cpp: add, sub, rsub, mul, div,
// floor_divide, fmod, remainder, maximum, minimum, atan2, the comparisons,
// logical and bitwise and/or/xor, copysign, hypot and xlogy, with PyTorch
// 1.13's CPU semantics:
//
//   - A Scalar operand is a wrapped number: it takes part in type promotion
//     with the lowest priority (ops.ResultType) and is then cast to the
//     compute dtype with a plain C++ static_cast (an int wraps, a double
//     rounds), as TensorIterator does.
//   - A Python bool passed for a Scalar argument reaches ATen as the int 0
//     or 1 through torch.ops.aten, so bool Scalars count as ints here.
//   - Scalars that ATen converts with Scalar::to<T>() (alpha, clamp's
//     bounds, pow's exponent) are range-checked like c10::checked_convert.
//   - float16 and bfloat16 math follows ATen's loops: a C++ operator on
//     Half/BFloat16 values rounds its float32 result to the dtype.
//   - Where the reference build's AVX2 kernels round differently in the
//     explicitly vectorized part of an inner loop and in its scalar tail
//     (add's alpha, SLEEF's fmod in fmod/remainder/floor division, pow's
//     exponent), vecRegion (tensor_iterator.go) tells the parts apart
//     from the shapes, as TensorIterator lays the loops out for contiguous
//     inputs.

// registerBinaryOps registers the kernels of binary_ops.go.
func registerBinaryOps() {
	registerBoth("aten::add.Tensor", addTensor)
	registerBoth("aten::add.Scalar", addScalar)
	registerBoth("aten::sub.Tensor", subTensor)
	registerBoth("aten::sub.Scalar", subScalar)
	registerBoth("aten::rsub.Scalar", rsubScalar)
	registerBoth("aten::rsub.Tensor", rsubTensor)
	registerBoth("aten::mul.Tensor", mul)
	registerBoth("aten::mul.Scalar", mul)
	registerBoth("aten::div.Tensor", divKernel)
	registerBoth("aten::div.Scalar", divKernel)
	registerBoth("aten::div.Tensor_mode", divMode)
	registerBoth("aten::div.Scalar_mode", divMode)
	registerBoth("aten::fmod.Tensor", fmodKernel)
	registerBoth("aten::fmod.Scalar", fmodKernel)
	registerBoth("aten::remainder.Tensor", remainder)
	registerBoth("aten::remainder.Scalar", remainder)
	registerBoth("aten::remainder.Scalar_Tensor", remainder)
	registerBoth("aten::maximum", maximum)
	registerBoth("aten::minimum", minimum)
	registerBoth("aten::atan2", atan2)
	for _, name := range []string{"eq", "ne", "lt", "le", "gt", "ge"} {
		k := compare(name)
		registerBoth("aten::"+name+".Tensor", k)
		registerBoth("aten::"+name+".Scalar", k)
	}
	registerBoth("aten::logical_and", logicalAnd)
	registerBoth("aten::logical_or", logicalOr)
	registerBoth("aten::bitwise_and.Tensor", bitwiseAnd)
	registerBoth("aten::bitwise_and.Scalar", bitwiseAnd)
	registerBoth("aten::bitwise_and.Scalar_Tensor", bitwiseAnd)
	registerBoth("aten::logical_xor", logicalXor)
	for _, o := range []string{"Tensor", "Scalar", "Scalar_Tensor"} {
		registerBoth("aten::bitwise_or."+o, bitwise("bitwise_or_cpu", func(x, y int64) int64 { return x | y }))
		registerBoth("aten::bitwise_xor."+o, bitwise("bitwise_xor_cpu", func(x, y int64) int64 { return x ^ y }))
	}
	registerBoth("aten::floor_divide", floorDivide("aten::div.Tensor_mode"))
	registerBoth("aten::floor_divide.Scalar", floorDivide("aten::div.Scalar_mode"))
	for _, o := range []string{"Tensor", "Scalar_Other", "Scalar_Self"} {
		registerBoth("aten::xlogy."+o, xlogy)
	}
	registerBoth("aten::copysign.Tensor", copysign)
	registerBoth("aten::copysign.Scalar", copysign)
	registerBoth("aten::hypot", hypot)
}

// addTensor is aten::add.Tensor: self + alpha*other with type promotion and
// broadcasting; alpha is checked and cast to the result dtype as PyTorch
// does (see axpy).
func addTensor(c *ops.Call) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	return axpy(c, o, o.a, o.b, scalarArg(c, "alpha"))
}

// binaryOperands holds the two operands of a binary op: a Scalar operand is a
// 0-d tensor of its own kind (int64 or float64), not yet cast.
type binaryOperands struct {
	a, b  *tensor.Tensor
	dt    tensor.DType // at::result_type of the operands
	shape []int        // broadcast shape
}

// scalarArg returns the Scalar argument name, a bool turned into the int
// 0 or 1 as torch.ops.aten passes it to ATen.
func scalarArg(c *ops.Call, name string) ops.Scalar {
	return noBool(c.Scalar(name))
}

// noBool returns s with a bool replaced by the int 0 or 1.
func noBool(s ops.Scalar) ops.Scalar {
	if s.IsBool() {
		return ops.IntScalar(s.Int())
	}
	return s
}

// wrapScalar returns s as a 0-d tensor of its own kind: int64 or float64.
func wrapScalar(s ops.Scalar) *tensor.Tensor {
	if s.IsFloat() {
		return s.Tensor(tensor.Float64)
	}
	return s.Tensor(tensor.Int64)
}

// binary reads the operands aName and bName of a binary op, each a
// Tensor or a Scalar argument, and returns them with their result dtype and
// broadcast shape.
func binary(c *ops.Call, aName, bName string) (*binaryOperands, error) {
	var o binaryOperands
	var prom [2]any
	for i, name := range []string{aName, bName} {
		var t *tensor.Tensor
		switch v := c.Arg(name).(type) {
		case *tensor.Tensor:
			t = v
			prom[i] = v
		case ops.Scalar:
			s := noBool(v)
			t = wrapScalar(s)
			prom[i] = s
		default:
			return nil, c.Errorf(name, "expected a Tensor or a number, got %T", v)
		}
		if i == 0 {
			o.a = t
		} else {
			o.b = t
		}
	}
	dt, err := ops.ResultType(prom[0], prom[1])
	if err != nil {
		return nil, err
	}
	o.dt = dt
	if o.shape, err = broadcast(c, bName, o.a, o.b); err != nil {
		return nil, err
	}
	return &o, nil
}

// isMeta reports whether an operand is a meta tensor.
func (o *binaryOperands) isMeta() bool { return meta(o.a, o.b) }

// cast converts both operands to dt, as TensorIterator casts its inputs to
// the common dtype.
func (o *binaryOperands) cast(dt tensor.DType) (a, b *tensor.Tensor) {
	return to(o.a, dt), to(o.b, dt)
}

// fits reports whether s converts to dt without overflow under
// c10::checked_convert's rules: anything converts to bool, infinities and
// NaN to floating dtypes, and a negative int to uint8 down to -255 (it
// wraps).
func fits(s ops.Scalar, dt tensor.DType) bool {
	var lo, hi float64
	switch dt {
	case tensor.Bool, tensor.Float64:
		return true
	case tensor.Float32:
		lo, hi = -math.MaxFloat32, math.MaxFloat32
	case tensor.Float16:
		lo, hi = -65504, 65504
	case tensor.BFloat16:
		lo, hi = -3.3895313892515355e38, 3.3895313892515355e38
	case tensor.Int64:
		lo, hi = math.MinInt64, math.MaxInt64
	case tensor.Int32:
		lo, hi = math.MinInt32, math.MaxInt32
	case tensor.Int16:
		lo, hi = math.MinInt16, math.MaxInt16
	case tensor.Int8:
		lo, hi = math.MinInt8, math.MaxInt8
	case tensor.Uint8:
		lo, hi = -255, 255
		if s.IsFloat() {
			lo = 0
		}
	}
	if s.IsFloat() {
		v := s.Float()
		if dt.IsFloat() {
			return math.IsInf(v, 0) || math.IsNaN(v) || (v >= lo && v <= hi)
		}
		return !math.IsNaN(v) && v >= lo && v <= hi
	}
	if dt == tensor.Int64 {
		return true
	}
	v := s.Int()
	return float64(v) >= lo && float64(v) <= hi
}

// checkFits returns ATen's overflow error, blaming arg, unless s
// converts to dt.
func checkFits(c *ops.Call, arg string, s ops.Scalar, dt tensor.DType) error {
	if !fits(s, dt) {
		return c.Errorf(arg, "value cannot be converted to type %s without overflow", cppTypeName(dt))
	}
	return nil
}

// negScalar returns -s.
func negScalar(s ops.Scalar) ops.Scalar {
	if s.IsFloat() {
		return ops.FloatScalar(-s.Float())
	}
	return ops.IntScalar(-s.Int())
}

// subCheck is ATen's sub_check: subtraction rejects bool tensors.
func subCheck(c *ops.Call, self, other *tensor.Tensor, selfName, otherName string) error {
	sb := self != nil && self.DType() == tensor.Bool
	ob := other != nil && other.DType() == tensor.Bool
	switch {
	case sb && ob:
		return c.Errorf(otherName, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.")
	case sb:
		return c.Errorf(selfName, "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
	case ob:
		return c.Errorf(otherName, "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
	}
	return nil
}

// axpy returns x + alpha*y over o's shape in dtype o.dt, as ATen's add
// kernel computes it: after alpha_check, alpha is converted to the dtype
// (checked); float32 and float64 use a fused multiply-add (the compiler
// contracts ATen's loop) except where alpha*y is hoisted out of it, float16
// rounds the product and the sum, bfloat16 too outside the vectorized
// part.
func axpy(c *ops.Call, o *binaryOperands, x, y *tensor.Tensor, alpha ops.Scalar) ([]any, error) {
	dt := o.dt
	if alpha.IsFloat() && !dt.IsFloat() {
		return nil, c.Errorf("alpha", "For integral input tensors, argument alpha must not be a floating point number.")
	}
	if err := checkFits(c, "alpha", alpha, dt); err != nil {
		return nil, err
	}
	if meta(x, y) {
		return one(tensor.Must(empty(true, dt, o.shape))), nil
	}
	x, y = to(x, dt), to(y, dt)
	ai := alpha.Int()
	if dt == tensor.Bool {
		ai = b2i(alpha.Float() != 0)
	}
	fi := func(p, q int64) int64 { return p + ai*q }
	var ff floatFn2
	switch dt {
	case tensor.Float32, tensor.Float64:
		af := roundTo(dt, alpha.Float())
		if af == 1 || af == -1 {
			// A multiply-add by ±1 is the plain sum or difference
			// everywhere: typed vector loops over runs.
			op := vec.Add
			if af == -1 {
				op = vec.Sub
			}
			return one(binaryRuns(op, x, y, o.shape, dt)), nil
		}
		n, bc := innerRun(o.shape, x.Shape(), y.Shape())
		if !bc[1] || bc[0] {
			ff = func(p, q float64) float64 { return fma(dt, af, q, p) }
			break
		}
		// y is constant along the inner loop: ATen's explicitly vectorized
		// part (two AVX2 vectors at a time) and the first element of the
		// rest use a fused multiply-add; the compiler vectorizes the rest
		// in SSE chunks (4 floats, 2 doubles) with alpha*y hoisted and
		// rounded, and fuses again the last elements that fill no chunk.
		sse := 4
		if dt == tensor.Float64 {
			sse = 2
		}
		nv := n / vecWidth(dt) * vecWidth(dt)
		hoistEnd := nv + 1 + (n-nv-1)/sse*sse
		return one(mapIndexed(x, y, o.shape, dt, func(k int, p, q float64) float64 {
			if i := k % n; i > nv && i < hoistEnd {
				return p + roundTo(dt, af*q)
			}
			return fma(dt, af, q, p)
		})), nil
	case tensor.Float16:
		af := roundTo(dt, alpha.Float())
		ff = func(p, q float64) float64 { return p + roundTo(dt, af*q) }
	case tensor.BFloat16:
		// The vectorized part fuses in float32, the rest rounds the
		// product to bfloat16.
		af := roundTo(dt, alpha.Float())
		inVec := vecRegion(dt, o.shape, x.Shape(), y.Shape())
		return one(mapIndexed(x, y, o.shape, dt, func(k int, p, q float64) float64 {
			if inVec(k) {
				return roundTo(dt, fma(tensor.Float32, af, q, p))
			}
			return roundTo(dt, p+roundTo(dt, af*q))
		})), nil
	}
	return one(mapBinary(x, y, o.shape, dt, ff, fi)), nil
}

// fma returns a*b + c rounded once to dt (float32 or float64), for a, b
// and c of that dtype. For float32 the double result is rounded to odd
// first, so that rounding it again to float32 is exact.
func fma(dt tensor.DType, a, b, c float64) float64 {
	if dt != tensor.Float32 {
		return math.FMA(a, b, c)
	}
	p := a * b // exact: float32 significands have 24 bits
	s := p + c
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return s
	}
	v := s - p
	e := (p - (s - v)) + (c - v) // s + e == p + c exactly (TwoSum)
	if e != 0 && math.Float64bits(s)&1 == 0 {
		s = math.Nextafter(s, math.Copysign(math.Inf(1), e))
	}
	return float64(float32(s))
}

// toward0f returns the float32 next to v toward zero, as SLEEF's
// toward0f does (v itself for zero).
func toward0f(v float32) float32 {
	if v == 0 {
		return 0
	}
	return math.Float32frombits(math.Float32bits(v) - 1)
}

// toward0 is toward0f for float64.
func toward0(v float64) float64 {
	if v == 0 {
		return 0
	}
	return math.Float64frombits(math.Float64bits(v) - 1)
}

// sleefFmod returns the fmod of SLEEF's AVX2 functions, which ATen's
// vectorized float, double and bfloat16 loops use: exact like C's fmod,
// except that it gives NaN when |x| times the reciprocal of |y| overflows
// (huge quotients).
func sleefFmod(dt tensor.DType) func(x, y float64) float64 {
	if dt == tensor.Float64 {
		return func(x, y float64) float64 {
			nu, de := math.Abs(x), math.Abs(y)
			if de < 0x1p-1022 {
				nu, de = nu*0x1p54, de*0x1p54
			}
			if math.IsInf(toward0(nu)*toward0(1/de), 0) {
				return math.NaN()
			}
			return math.Mod(x, y)
		}
	}
	return func(x, y float64) float64 {
		nu, de := float32(math.Abs(x)), float32(math.Abs(y))
		if de < 0x1p-126 {
			nu, de = nu*0x1p25, de*0x1p25
		}
		if p := toward0f(nu) * toward0f(1/de); math.IsInf(float64(p), 0) {
			return math.NaN()
		}
		return math.Mod(x, y)
	}
}

// addScalar is aten::add.Scalar: self + alpha*other.
func addScalar(c *ops.Call) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	return axpy(c, o, o.a, o.b, scalarArg(c, "alpha"))
}

// sub implements sub.Tensor and sub.Scalar: self - alpha*other.
func sub(c *ops.Call) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	if err := subCheck(c, c.Tensor("self"), c.Tensor("other"), "self", "other"); err != nil {
		return nil, err
	}
	alpha := scalarArg(c, "alpha")
	return axpy(c, o, o.a, o.b, negScalar(alpha))
}

// subTensor is aten::sub.Tensor: self - alpha*other.
func subTensor(c *ops.Call) ([]any, error) { return sub(c) }

// subScalar is aten::sub.Scalar: self - alpha*other.
func subScalar(c *ops.Call) ([]any, error) { return sub(c) }

// rsub implements rsub.Scalar and rsub.Tensor: other - alpha*self.
func rsub(c *ops.Call) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	if err := subCheck(c, c.Tensor("other"), c.Tensor("self"), "other", "self"); err != nil {
		return nil, err
	}
	alpha := scalarArg(c, "alpha")
	return axpy(c, o, o.b, o.a, negScalar(alpha))
}

// rsubScalar is aten::rsub.Scalar: other - alpha*self.
func rsubScalar(c *ops.Call) ([]any, error) { return rsub(c) }

// rsubTensor is aten::rsub.Tensor: other - alpha*self.
func rsubTensor(c *ops.Call) ([]any, error) { return rsub(c) }

// mul is aten::mul.Tensor and aten::mul.Scalar (bool * bool is logical
// and).
func mul(c *ops.Call) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	a, b := o.cast(o.dt)
	if fastFloat(o.dt, a, b) {
		return one(binaryRuns(vec.Mul, a, b, o.shape, o.dt)), nil
	}
	return one(mapBinary(a, b, o.shape, o.dt,
		func(x, y float64) float64 { return x * y },
		func(x, y int64) int64 { return x * y })), nil
}

// divKernel is aten::div.Tensor and aten::div.Scalar: true division, integer
// and bool inputs computing in float32.
func divKernel(c *ops.Call) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	return trueDiv(o), nil
}

// trueDiv returns o.a / o.b in floatType(o.dt).
func trueDiv(o *binaryOperands) []any {
	dt := floatType(o.dt)
	a, b := o.cast(dt)
	if fastFloat(dt, a, b) && !o.isMeta() {
		return one(binaryRuns(vec.Div, a, b, o.shape, dt))
	}
	return one(mapBinary(a, b, o.shape, dt, func(x, y float64) float64 { return x / y }, nil))
}

// checkNoZero returns ATen's ZeroDivisionError, blaming arg, when the
// integral divisor b (already in the compute dtype) has a zero and the
// result is not empty.
func checkNoZero(c *ops.Call, arg string, b *tensor.Tensor, shape []int) error {
	if b.IsMeta() {
		return nil
	}
	n, _ := tensor.Numel(shape)
	if n == 0 {
		return nil
	}
	for _, v := range b.Int64s() {
		if v == 0 {
			return c.Errorf(arg, "ZeroDivisionError")
		}
	}
	return nil
}

// divMode is aten::div.Tensor_mode and aten::div.Scalar_mode:
// rounding_mode None (true division), "trunc" or "floor".
func divMode(c *ops.Call) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	var mode string
	if !c.IsNone("rounding_mode") {
		mode = c.Str("rounding_mode")
		if mode != "trunc" && mode != "floor" {
			return nil, c.Errorf("rounding_mode", "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'", mode)
		}
	} else {
		return trueDiv(o), nil
	}
	dt := o.dt
	if dt == tensor.Bool {
		return nil, notImplemented(c, "self", "div_"+mode+"_cpu", dt)
	}
	if o.isMeta() {
		return one(tensor.Must(empty(true, dt, o.shape))), nil
	}
	a, b := o.cast(dt)
	if !dt.IsFloat() {
		if err := checkNoZero(c, "other", b, o.shape); err != nil {
			return nil, err
		}
		fi := func(x, y int64) int64 { return x / y }
		if mode == "floor" {
			fi = floorDivInt64
		}
		return one(mapBinary(a, b, o.shape, dt, nil, fi)), nil
	}
	if mode == "trunc" {
		return one(mapBinary(a, b, o.shape, dt, func(x, y float64) float64 { return math.Trunc(roundTo(dt, x/y)) }, nil)), nil
	}
	// float16 computes in float and rounds what it stores; bfloat16 rounds
	// every operation; float and double compute in their own precision.
	r := func(v float64) float64 { return roundTo(dt, v) }
	op := r
	if dt == tensor.Float16 {
		op = func(v float64) float64 { return roundTo(tensor.Float32, v) }
		return one(mapBinary(a, b, o.shape, dt, func(x, y float64) float64 { return floorDivFloat(x, y, op, r, math.Mod) }, nil)), nil
	}
	sleef := sleefFmod(dt)
	inVec := vecRegion(dt, o.shape, a.Shape(), b.Shape())
	return one(mapIndexed(a, b, o.shape, dt, func(k int, x, y float64) float64 {
		if inVec(k) {
			return floorDivFloat(x, y, op, r, sleef)
		}
		return floorDivFloat(x, y, op, r, math.Mod)
	})), nil
}

// floorDivInt64 is c10::div_floor_integer (b != 0).
func floorDivInt64(a, b int64) int64 {
	if (a < 0) != (b < 0) {
		if q, r := a/b, a%b; r != 0 {
			return q - 1
		}
	}
	return a / b
}

// floorDivFloat is ATen's div_floor_floating, Python's floor division
// computed through fmod (so ±inf/finite gives NaN): op rounds each
// arithmetic result to the loop's precision, r rounds a value stored into
// the dtype, fmod is C's or SLEEF's.
func floorDivFloat(a, b float64, op, r func(float64) float64, fmod func(x, y float64) float64) float64 {
	if b == 0 {
		return r(op(a / b))
	}
	mod := fmod(a, b)
	div := op(op(a-mod) / b)
	if mod != 0 && (b < 0) != (mod < 0) {
		div = op(div - 1)
	}
	if div == 0 {
		return math.Copysign(0, r(op(a/b)))
	}
	fl := r(math.Floor(div))
	if op(div-fl) > 0.5 {
		fl = r(op(fl + 1))
	}
	return fl
}

// fmodKernel is aten::fmod.Tensor and aten::fmod.Scalar: C's fmod (the sign
// of the dividend); integer division by zero is an error.
func fmodKernel(c *ops.Call) ([]any, error) {
	return modulo(c, "fmod_cpu", func(m, _ float64) float64 { return m },
		func(x, y int64) int64 { return x % y })
}

// remainder is aten::remainder (Tensor, Scalar and Scalar_Tensor): the
// remainder with the sign of the divisor, Python's %.
func remainder(c *ops.Call) ([]any, error) {
	return modulo(c, "remainder_cpu",
		func(m, y float64) float64 {
			if m != 0 && (y < 0) != (m < 0) {
				m += y
			}
			return m
		},
		func(x, y int64) int64 {
			r := x % y
			if r != 0 && (r < 0) != (y < 0) {
				r += y
			}
			return r
		})
}

// modulo computes fmod or remainder: fix turns fmod(x, y) into the result
// for floating dtypes, fi computes integers (after the division-by-zero
// check). ATen's vectorized float, double and bfloat16 loops use SLEEF's
// fmod.
func modulo(c *ops.Call, kernel string, fix func(m, y float64) float64, fi intFn2) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	dt := o.dt
	if dt == tensor.Bool {
		return nil, notImplemented(c, "self", kernel, dt)
	}
	if o.isMeta() {
		return one(tensor.Must(empty(true, dt, o.shape))), nil
	}
	a, b := o.cast(dt)
	switch dt {
	case tensor.Float16:
		return one(mapBinary(a, b, o.shape, dt, func(x, y float64) float64 { return fix(math.Mod(x, y), y) }, nil)), nil
	case tensor.Float32, tensor.Float64, tensor.BFloat16:
		sleef := sleefFmod(dt)
		inVec := vecRegion(dt, o.shape, a.Shape(), b.Shape())
		return one(mapIndexed(a, b, o.shape, dt, func(k int, x, y float64) float64 {
			if inVec(k) {
				return roundTo(dt, fix(sleef(x, y), y))
			}
			return roundTo(dt, fix(math.Mod(x, y), y))
		})), nil
	}
	if err := checkNoZero(c, "other", b, o.shape); err != nil {
		return nil, err
	}
	return one(mapBinary(a, b, o.shape, dt, nil, fi)), nil
}

// maximum is aten::maximum: the larger element, NaN propagating (bool:
// logical or).
func maximum(c *ops.Call) ([]any, error) { return minMax(c, "other", true) }

// minimum is aten::minimum: the smaller element, NaN propagating (bool:
// logical and).
func minimum(c *ops.Call) ([]any, error) { return minMax(c, "other", false) }

// minMax returns the elementwise maximum (isMax) or minimum of self and
// the tensor argument other (clamp_min.Tensor calls it min) in their result
// dtype, NaN if either is NaN.
func minMax(c *ops.Call, other string, isMax bool) ([]any, error) {
	o, err := binary(c, "self", other)
	if err != nil {
		return nil, err
	}
	a, b := o.cast(o.dt)
	return one(mapBinary(a, b, o.shape, o.dt,
		func(x, y float64) float64 {
			switch {
			case x != x || y != y:
				return math.NaN()
			case (x > y) == isMax:
				return x
			}
			return y
		},
		func(x, y int64) int64 {
			if (x > y) == isMax {
				return x
			}
			return y
		})), nil
}

// atan2 is aten::atan2: integer inputs compute in float32; float16 is
// not implemented on CPU.
func atan2(c *ops.Call) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	dt := floatType(o.dt)
	if dt == tensor.Float16 {
		return nil, notImplemented(c, "self", "atan2_cpu", dt)
	}
	a, b := o.cast(dt)
	return one(mapBinary(a, b, o.shape, dt, math.Atan2, nil)), nil
}

// compare returns the kernel of the comparison name (eq, ne, lt, le, gt,
// ge), Tensor and Scalar overloads: both operands are cast to their result
// dtype and compared there; the output is bool.
func compare(name string) ops.Kernel {
	var ff func(x, y float64) bool
	var fi func(x, y int64) bool
	switch name {
	case "eq":
		ff, fi = func(x, y float64) bool { return x == y }, func(x, y int64) bool { return x == y }
	case "ne":
		ff, fi = func(x, y float64) bool { return x != y }, func(x, y int64) bool { return x != y }
	case "lt":
		ff, fi = func(x, y float64) bool { return x < y }, func(x, y int64) bool { return x < y }
	case "le":
		ff, fi = func(x, y float64) bool { return x <= y }, func(x, y int64) bool { return x <= y }
	case "gt":
		ff, fi = func(x, y float64) bool { return x > y }, func(x, y int64) bool { return x > y }
	case "ge":
		ff, fi = func(x, y float64) bool { return x >= y }, func(x, y int64) bool { return x >= y }
	default:
		panic(fmt.Sprintf("kernels: no comparison %q", name))
	}
	return func(c *ops.Call) ([]any, error) {
		o, err := binary(c, "self", "other")
		if err != nil {
			return nil, err
		}
		return one(compareBinary(o.a, o.b, o.shape, o.dt, ff, fi)), nil
	}
}

// logical returns the bool tensor of f over the truth values of self and
// other, taken after casting both to their result dtype.
func logical(c *ops.Call, f func(x, y bool) bool) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	return one(compareBinary(o.a, o.b, o.shape, o.dt,
		func(x, y float64) bool { return f(x != 0, y != 0) },
		func(x, y int64) bool { return f(x != 0, y != 0) })), nil
}

// logicalAnd is aten::logical_and: the output is bool for any inputs.
func logicalAnd(c *ops.Call) ([]any, error) {
	return logical(c, func(x, y bool) bool { return x && y })
}

// logicalOr is aten::logical_or: the output is bool for any inputs.
func logicalOr(c *ops.Call) ([]any, error) {
	return logical(c, func(x, y bool) bool { return x || y })
}

// bitwiseAnd is aten::bitwise_and (Tensor, Scalar and Scalar_Tensor):
// integral and bool dtypes only.
func bitwiseAnd(c *ops.Call) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	if o.dt.IsFloat() {
		return nil, notImplemented(c, "self", "bitwise_and_cpu", o.dt)
	}
	a, b := o.cast(o.dt)
	return one(mapBinary(a, b, o.shape, o.dt, nil, func(x, y int64) int64 { return x & y })), nil
}

// logicalXor is aten::logical_xor: the output is bool for any inputs.
func logicalXor(c *ops.Call) ([]any, error) {
	return logical(c, func(x, y bool) bool { return x != y })
}

// bitwise returns the kernel of a bitwise binary op (Tensor, Scalar and
// Scalar_Tensor overloads): integral and bool dtypes only; a Scalar is cast
// to the result dtype (wrapping), as TensorIterator does.
func bitwise(kernel string, fi intFn2) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		o, err := binary(c, "self", "other")
		if err != nil {
			return nil, err
		}
		if o.dt.IsFloat() {
			return nil, notImplemented(c, "self", kernel, o.dt)
		}
		a, b := o.cast(o.dt)
		return one(mapBinary(a, b, o.shape, o.dt, nil, fi)), nil
	}
}

// floorDivide returns the kernel of aten::floor_divide (Tensor or
// Scalar): in PyTorch 1.13 it is div with rounding_mode="floor".
func floorDivide(div string) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		return delegate(c, div, []any{c.Arg("self"), c.Arg("other")}, map[string]any{"rounding_mode": "floor"})
	}
}

// floatBinary returns f over the operands self and other (Tensors or
// Scalars) in their result dtype, integral and bool inputs computing in
// float32; kernel names the CPU kernel for the dtype errors: floatOnly
// ones reject integral inputs, and noHalf ones float16.
func floatBinary(c *ops.Call, kernel string, floatOnly, noHalf bool, f floatFn2) ([]any, error) {
	o, err := binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	dt := o.dt
	if floatOnly && !dt.IsFloat() {
		return nil, notImplemented(c, "self", kernel, dt)
	}
	dt = floatType(dt)
	if noHalf && dt == tensor.Float16 && !o.isMeta() {
		return nil, notImplemented(c, "self", kernel, dt)
	}
	a, b := o.cast(dt)
	return one(mapBinary(a, b, o.shape, dt, f, nil)), nil
}

// xlogy is aten::xlogy (Tensor, Scalar_Other and Scalar_Self): NaN where
// other is NaN, else 0 where self is 0, else self*log(other).
func xlogy(c *ops.Call) ([]any, error) {
	return floatBinary(c, "xlogy_cpu", false, false, func(x, y float64) float64 {
		switch {
		case y != y:
			return math.NaN()
		case x == 0:
			return 0
		}
		return x * logFloat(y)
	})
}

// copysign is aten::copysign (Tensor and Scalar): |self| with the sign
// of other.
func copysign(c *ops.Call) ([]any, error) {
	return floatBinary(c, "copysign_cpu", false, false, math.Copysign)
}

// hypot is aten::hypot: sqrt(self² + other²) for floating dtypes other
// than float16.
func hypot(c *ops.Call) ([]any, error) {
	return floatBinary(c, "hypot_cpu", true, true, math.Hypot)
}
