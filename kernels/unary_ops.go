package kernels

import (
	"math"

	"github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Unary elementwise math, ATen's UnaryOps.cpp: abs, neg, sign, sgn, ceil,
// floor, round, trunc, frac, the trigonometric, hyperbolic, exponential
// and logarithmic functions, sqrt, rsqrt, reciprocal, erf, erfc, sigmoid,
// logit, square, nan_to_num, logical_not and bitwise_not. Every kernel
// checks the input dtype as PyTorch 1.13's CPU kernels do (which dtypes an
// op accepts, which keep their dtype and which become float32), then maps
// the elements with mapUnary: float64 math rounded to the output dtype,
// float16 and bfloat16 through float32.

// registerUnaryOps registers the kernels of unary_ops.go.
func registerUnaryOps() {
	registerBoth("aten::logical_not", logicalNot)
	registerBoth("aten::bitwise_not", bitwiseNot)
	for _, u := range hyperbolics {
		registerBoth(u.name, u.kernel)
	}
	registerBoth("aten::square", square)
	registerBoth("aten::logit", logit)
	registerBoth("aten::nan_to_num", nanToNum)
	for _, u := range unaryOps {
		registerBoth(u.name, u.kernel)
	}
}

// logicalNot is aten::logical_not: true where self is zero (NaN is
// true, so its negation is false).
func logicalNot(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if self.IsMeta() {
		return one(tensor.Must(empty(true, tensor.Bool, self.Shape()))), nil
	}
	v := self.Bools()
	for i := range v {
		v[i] = !v[i]
	}
	return one(tensor.Must(tensor.FromSlice(v, self.Shape()...))), nil
}

// bitwiseNot is aten::bitwise_not: ~x for integers, logical not for
// bool; floating dtypes are an error.
func bitwiseNot(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt := self.DType()
	if dt.IsFloat() {
		return nil, notImplemented(c, "self", "bitwise_not_cpu", dt)
	}
	fi := func(x int64) int64 { return ^x }
	if dt == tensor.Bool {
		fi = func(x int64) int64 { return 1 - x }
	}
	return one(mapUnary(self, dt, nil, fi)), nil
}

// hyperbolics are cosh and sinh, whose vectorized ATen loops (SLEEF)
// overflow to infinity as soon as exp(|x|) does, before the result does.
var hyperbolics = []*vecUnary{
	{unary: unary{name: "aten::cosh.default", cpuName: "cosh_cpu", res: resultFloat, ff: cosh}},
	{unary: unary{name: "aten::sinh.default", cpuName: "sinh_cpu", res: resultFloat, ff: sinh}},
}

// vecUnary is a float unary op whose result in the explicitly vectorized
// part of ATen's loop (whole chunks of vecWidth elements, computed by
// SLEEF) differs from the scalar tail's (C library) in overflow: there, an
// |x| beyond the log of the compute dtype's largest value gives ±inf.
type vecUnary struct {
	unary
}

// kernel runs u on the self argument (meta tensors included).
func (u *vecUnary) kernel(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt, err := u.check(c, x)
	if err != nil {
		return nil, err
	}
	if x.IsMeta() {
		return one(tensor.Must(empty(true, dt, x.Shape()))), nil
	}
	limit := math.Log(math.MaxFloat64)
	if computeType(dt) == tensor.Float32 {
		limit = math.Log(math.MaxFloat32)
	}
	inVec := vecRegion(dt, x.Shape(), x.Shape())
	vals := to(x, computeType(dt)).Float64s()
	ct := computeType(dt)
	parallelFor(len(vals), func(lo, hi int) {
		for k := lo; k < hi; k++ {
			v := vals[k]
			if inVec(k) && math.Abs(v) > limit {
				vals[k] = u.ff(math.Copysign(math.Inf(1), v))
				continue
			}
			vals[k] = roundTo(ct, u.ff(v))
		}
	})
	return one(tensor.Must(tensor.FromFloat64s(dt, vals, x.Shape()...))), nil
}

// cosh is cosh without the premature overflow of Go's math.Cosh for
// |x| between 709.78 and 710.48.
func cosh(x float64) float64 {
	if a := math.Abs(x); a > 709 {
		h := math.Exp(0.5 * a)
		return h * 0.5 * h
	}
	return math.Cosh(x)
}

// sinh is sinh without the premature overflow of Go's math.Sinh.
func sinh(x float64) float64 {
	if a := math.Abs(x); a > 709 {
		h := math.Exp(0.5 * a)
		return math.Copysign(h*0.5*h, x)
	}
	return math.Sinh(x)
}

// logFloat is the natural logarithm, exact for subnormal x too (Go's
// math.Log on amd64 is not: it returns about -709.09 for them).
func logFloat(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

// log10 is log10, exact for subnormal x too (Go's math.Log is not on
// amd64: it loses their scale).
func log10(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log2(x) * (math.Ln2 / math.Ln10)
	}
	return math.Log10(x)
}

// square is aten::square, which ATen computes as pow(self, 2): bool
// becomes int64, integers wrap.
func square(c *ops.Call) ([]any, error) {
	return delegate(c, "aten::pow.Tensor_Scalar", []any{c.Tensor("self"), int64(2)}, nil)
}

// logitOp describes logit, whose kernel has no float16 version.
var logitOp = &unary{name: "aten::logit", cpuName: "logit_cpu", res: resultFloat}

// logit is aten::logit: log(x/(1-x)) (inf at x = 1), x first clamped to
// [eps, 1-eps] when eps is given and not negative. ATen's scalar loop
// clamps with x < lo ? lo : (x > hi ? hi : x), its vectorized part with
// min(max(x, lo), hi): they differ only for eps > 0.5.
func logit(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt, err := logitOp.check(c, x)
	if err != nil {
		return nil, err
	}
	if x.IsMeta() {
		return one(tensor.Must(empty(true, dt, x.Shape()))), nil
	}
	ct := computeType(dt)
	r := rounder(ct)
	f := func(v float64) float64 {
		if v == 1 {
			return math.Inf(1)
		}
		return logFloat(r(v / r(1-v)))
	}
	eps, ok := c.OptFloat("eps")
	if !ok || eps < 0 || math.IsNaN(eps) {
		return one(mapUnary(x, dt, f, nil)), nil
	}
	if err := checkFits(c, "eps", ops.FloatScalar(eps), dt); err != nil {
		return nil, err
	}
	lo := roundTo(dt, eps)
	hi := roundTo(dt, 1-lo)
	inVec := vecRegion(dt, x.Shape(), x.Shape())
	vals := to(x, ct).Float64s()
	for k, v := range vals {
		if inVec(k) {
			if v == v {
				v = math.Min(math.Max(v, lo), hi)
			}
		} else if v < lo {
			v = lo
		} else if v > hi {
			v = hi
		}
		vals[k] = roundTo(ct, f(v))
	}
	return one(tensor.Must(tensor.FromFloat64s(dt, vals, x.Shape()...))), nil
}

// nanToNum is aten::nan_to_num: NaN, +inf and -inf replaced by nan
// (default 0), posinf and neginf (default the dtype's largest and lowest
// finite values), the replacements cast to the dtype; integral and bool
// tensors are copied.
func nanToNum(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt := x.DType()
	if x.IsMeta() {
		return one(tensor.Must(empty(true, dt, x.Shape()))), nil
	}
	if !dt.IsFloat() {
		return one(x.Contiguous().Clone()), nil
	}
	var big float64
	switch dt {
	case tensor.Float32:
		big = math.MaxFloat32
	case tensor.Float64:
		big = math.MaxFloat64
	case tensor.Float16:
		big = 65504
	case tensor.BFloat16:
		big = float64(tensor.BHalf(0x7f7f).Float32())
	}
	nan, _ := c.OptFloat("nan")
	pos, ok := c.OptFloat("posinf")
	if !ok {
		pos = big
	}
	neg, ok := c.OptFloat("neginf")
	if !ok {
		neg = -big
	}
	return one(mapUnary(x, dt, func(v float64) float64 {
		switch {
		case v != v:
			return nan
		case math.IsInf(v, 1):
			return pos
		case math.IsInf(v, -1):
			return neg
		}
		return v
	}, nil)), nil
}

// unaryResult says how a unary op's output dtype follows from its input's.
type unaryResult int

const (
	// resultSame ops keep the input dtype (abs, neg, sign, ceil, relu, ...).
	resultSame unaryResult = iota
	// resultFloat ops are float math: integral and bool inputs give float32.
	resultFloat
	// resultFloatOnly ops accept floating inputs only (the activations).
	resultFloatOnly
)

// unary describes one unary operator.
type unary struct {
	name    string      // the operator, "aten::abs.default"
	cpuName string      // PyTorch's dispatch name in "not implemented for" errors
	res     unaryResult // how the output dtype is chosen
	half    bool        // whether the CPU kernel has a float16 version
	noBF16  bool        // whether the CPU kernel lacks a bfloat16 version
	boolErr string      // the error for a bool input; "" when bool is accepted
	ff      floatFn1    // the float function
	fi      intFn1      // the integer function, for resultSame ops
	// ffFor, when set, replaces ff: it returns the float function for
	// output dtype dt, for ops whose PyTorch kernel rounds every step of
	// the computation to the dtype.
	ffFor func(dt tensor.DType) floatFn1
	// relu marks aten::relu, whose float32 and float64 kernel runs the
	// vector loop of clampRuns.
	relu bool
	// f32, when set, is the float32 kernel: a vector loop setting dst
	// from x (of one length), run by unaryF32.
	f32 func(dst, x []float32)
}

// unaryChunk is the element count unaryF32 hands its loop at a time, so
// that a loop's passes over its chunk stay in the L1 cache.
const unaryChunk = 1024

// unaryF32 returns f applied to the float32 tensor x, in parallel over
// chunks of unaryChunk elements.
func unaryF32(x *tensor.Tensor, f func(dst, x []float32)) *tensor.Tensor {
	in := tensor.Values[float32](x)
	out := tensor.EmptyUninit(tensor.Float32, x.Shape()...) // every element is written
	o := tensor.Values[float32](out)
	parallelFor(len(o), func(lo, hi int) {
		for i := lo; i < hi; i += unaryChunk {
			j := min(i+unaryChunk, hi)
			f(o[i:j], in[i:j])
		}
	})
	return out
}

// unaryOps are the operators with no argument besides self.
var unaryOps = []*unary{
	{name: "aten::abs.default", cpuName: "abs_cpu", half: true, boolErr: `"abs_cpu" not implemented for 'Bool'`,
		ff: math.Abs, fi: func(x int64) int64 {
			if x < 0 {
				return -x
			}
			return x
		}},
	{name: "aten::neg.default", cpuName: "neg_cpu", half: true,
		boolErr: "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
		ff:      func(x float64) float64 { return -x }, fi: func(x int64) int64 { return -x }},
	{name: "aten::sign.default", cpuName: "sign_cpu", half: true, ff: signF, fi: signI},
	{name: "aten::ceil.default", cpuName: "ceil_vml_cpu", boolErr: `"ceil_vml_cpu" not implemented for 'Bool'`,
		ff: math.Ceil, fi: identity},
	{name: "aten::floor.default", cpuName: "floor_vml_cpu", boolErr: `"floor_vml_cpu" not implemented for 'Bool'`,
		ff: math.Floor, fi: identity},
	{name: "aten::round.default", cpuName: "round_vml_cpu", boolErr: `"round_vml_cpu" not implemented for 'Bool'`,
		ff: math.RoundToEven, fi: identity},

	{name: "aten::cos.default", cpuName: "cos_vml_cpu", res: resultFloat, ff: math.Cos},
	{name: "aten::sin.default", cpuName: "sin_vml_cpu", res: resultFloat, ff: math.Sin},
	{name: "aten::tanh.default", cpuName: "tanh_vml_cpu", res: resultFloat, ff: math.Tanh},
	{name: "aten::exp.default", cpuName: "exp_vml_cpu", res: resultFloat, ff: math.Exp, f32: vec.Exp},
	{name: "aten::expm1.default", cpuName: "expm1_vml_cpu", res: resultFloat, ff: math.Expm1},
	{name: "aten::log.default", cpuName: "log_vml_cpu", res: resultFloat, ff: logFloat},
	{name: "aten::log1p.default", cpuName: "log1p_vml_cpu", res: resultFloat, ff: math.Log1p},
	{name: "aten::sqrt.default", cpuName: "sqrt_vml_cpu", res: resultFloat, ff: math.Sqrt},
	{name: "aten::rsqrt.default", cpuName: "rsqrt_cpu", res: resultFloat, ffFor: rsqrt},
	{name: "aten::reciprocal.default", cpuName: "reciprocal_cpu", res: resultFloat, half: true, ff: func(x float64) float64 { return 1 / x }},
	{name: "aten::erf.default", cpuName: "erf_vml_cpu", res: resultFloat, ff: math.Erf},
	{name: "aten::sigmoid.default", cpuName: "sigmoid_cpu", res: resultFloat, ff: sigmoid, f32: vec.Sigmoid},

	{name: "aten::acos.default", cpuName: "acos_vml_cpu", res: resultFloat, ff: math.Acos},
	{name: "aten::acosh.default", cpuName: "acosh_cpu", res: resultFloat, ff: math.Acosh},
	{name: "aten::asin.default", cpuName: "asin_vml_cpu", res: resultFloat, ff: math.Asin},
	{name: "aten::asinh.default", cpuName: "asinh_cpu", res: resultFloat, ff: math.Asinh},
	{name: "aten::atan.default", cpuName: "atan_vml_cpu", res: resultFloat, ff: math.Atan},
	{name: "aten::atanh.default", cpuName: "atanh_cpu", res: resultFloat, ff: math.Atanh},
	{name: "aten::tan.default", cpuName: "tan_vml_cpu", res: resultFloat, ff: math.Tan},
	{name: "aten::log10.default", cpuName: "log10_vml_cpu", res: resultFloat, ff: log10},
	{name: "aten::log2.default", cpuName: "log2_vml_cpu", res: resultFloat, ff: math.Log2},
	{name: "aten::erfc.default", cpuName: "erfc_vml_cpu", res: resultFloat, ff: math.Erfc},
	{name: "aten::exp2.default", cpuName: "exp2", res: resultFloat, half: true, ff: math.Exp2},
	{name: "aten::trunc.default", cpuName: "trunc_vml_cpu", boolErr: `"trunc_vml_cpu" not implemented for 'Bool'`,
		ff: math.Trunc, fi: identity},
	{name: "aten::frac.default", cpuName: "frac_cpu", res: resultFloatOnly, half: true,
		ff: func(x float64) float64 { return x - math.Trunc(x) }},
	{name: "aten::sgn.default", cpuName: "sgn_cpu", half: true, ff: signF, fi: signI},
}

// kernel runs u on the self argument (meta tensors included).
func (u *unary) kernel(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt, err := u.check(c, x)
	if err != nil {
		return nil, err
	}
	if u.relu && fastFloat(dt, x) {
		out, _ := clampRuns(x, true, 0, 0)
		return one(out), nil
	}
	if u.f32 != nil && dt == tensor.Float32 && x.DType() == tensor.Float32 && !x.IsMeta() {
		return one(unaryF32(x, u.f32)), nil
	}
	ff := u.ff
	if u.ffFor != nil {
		ff = u.ffFor(dt)
	}
	return one(mapUnary(x, dt, ff, u.fi)), nil
}

// check returns the output dtype of u for input x, or the error PyTorch
// raises for x's dtype. The "not implemented for 'Half'" errors of CPU
// kernels are not raised for meta tensors, whose PyTorch meta functions
// accept every dtype.
func (u *unary) check(c *ops.Call, x *tensor.Tensor) (tensor.DType, error) {
	dt := x.DType()
	switch {
	case dt == tensor.Bool && u.res == resultSame && u.boolErr != "":
		return 0, c.Errorf("self", "%s", u.boolErr)
	case u.res == resultFloatOnly && !dt.IsFloat():
		return 0, c.Errorf("self", "%q not implemented for '%s'", u.cpuName, scalarTypeName(dt))
	case (dt == tensor.Float16 && !u.half || dt == tensor.BFloat16 && u.noBF16) && !x.IsMeta():
		return 0, c.Errorf("self", "%q not implemented for '%s'", u.cpuName, scalarTypeName(dt))
	}
	if u.res == resultFloat {
		return floatType(dt), nil
	}
	return dt, nil
}

// identity returns x: ceil, floor and round of an integer.
func identity(x int64) int64 { return x }

// signF is sign for floats: -1, 0 or 1, and 0 for NaN as in PyTorch.
func signF(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// signI is sign for integers (and bools, which stay as they are).
func signI(x int64) int64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// sigmoid is the logistic function 1/(1+exp(-x)).
func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// rsqrt returns rsqrt for dtype dt: 1/sqrt(x) with the square root
// rounded to the compute dtype first, as ATen's kernels compute it.
func rsqrt(dt tensor.DType) floatFn1 {
	r := rounder(computeType(dt))
	return func(x float64) float64 { return 1 / r(math.Sqrt(x)) }
}

// clampFloat is std::min(std::max(x, lo), hi) with NaN propagated from any
// operand, as ATen's vectorized clamp does; hi wins when lo > hi.
func clampFloat(x, lo, hi float64) float64 {
	if math.IsNaN(x) || math.IsNaN(lo) || math.IsNaN(hi) {
		return math.NaN()
	}
	if x < lo {
		x = lo
	}
	if x > hi {
		x = hi
	}
	return x
}

// floatScalar converts the Scalar argument name to the floating dtype dt
// as c10's checked Scalar::to<T> does: finite values beyond dt's range are
// an error, and the value is rounded to dt.
func floatScalar(c *ops.Call, name string, dt tensor.DType) (float64, error) {
	v := c.Scalar(name).Float()
	var limit float64
	var ctype string
	switch dt {
	case tensor.Float32:
		limit, ctype = math.MaxFloat32, "float"
	case tensor.Float16:
		limit, ctype = 65504, "at::Half"
	case tensor.BFloat16:
		limit, ctype = float64(tensor.BHalf(0x7f7f).Float32()), "at::BFloat16"
	default:
		return v, nil
	}
	if !math.IsInf(v, 0) && (v < -limit || v > limit) {
		return 0, c.Errorf(name, "value cannot be converted to type %s without overflow", ctype)
	}
	return roundTo(dt, v), nil
}

// intScalar converts the Scalar argument name to the integral dtype dt
// as c10's checked Scalar::toLong and Scalar::to<T> do: floats truncate
// toward zero, and NaN, infinities and values beyond dt's range are an
// error (negative values wrap for uint8, as in c10).
func intScalar(c *ops.Call, name string, dt tensor.DType) (int64, error) {
	s := c.Scalar(name)
	if s.IsFloat() {
		f := s.Float()
		if math.IsNaN(f) || f < -0x1p63 || f >= 0x1p63 {
			return 0, c.Errorf(name, "value cannot be converted to type int64_t without overflow")
		}
	}
	v := s.Int()
	var lo, hi int64
	var ctype string
	switch dt {
	case tensor.Int32:
		lo, hi, ctype = math.MinInt32, math.MaxInt32, "int"
	case tensor.Int16:
		lo, hi, ctype = math.MinInt16, math.MaxInt16, "int16_t"
	case tensor.Int8:
		lo, hi, ctype = math.MinInt8, math.MaxInt8, "int8_t"
	case tensor.Uint8:
		lo, hi, ctype = -math.MaxUint8, math.MaxUint8, "uint8_t"
	default:
		return v, nil
	}
	if v < lo || v > hi {
		return 0, c.Errorf(name, "value cannot be converted to type %s without overflow", ctype)
	}
	return v, nil
}
