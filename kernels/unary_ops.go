package kernels

import (
	"math"

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
	registerBoth("aten::logical_not", ew1LogicalNot)
	registerBoth("aten::bitwise_not", ew1BitwiseNot)
	for _, u := range pwUnaries {
		registerBoth(u.name, u.kernel)
	}
	for _, u := range pwHyperbolics {
		registerBoth(u.name, u.kernel)
	}
	registerBoth("aten::square", pwSquare)
	registerBoth("aten::logit", pwLogit)
	registerBoth("aten::nan_to_num", pwNanToNum)
	for _, u := range ew2Unaries {
		registerBoth(u.name, u.kernel)
	}
}

// ew1LogicalNot is aten::logical_not: true where self is zero (NaN is
// true, so its negation is false).
func ew1LogicalNot(c *ops.Call) ([]any, error) {
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

// ew1BitwiseNot is aten::bitwise_not: ~x for integers, logical not for
// bool; floating dtypes are an error.
func ew1BitwiseNot(c *ops.Call) ([]any, error) {
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

// pwUnaries are the unary operators with no argument besides self.
var pwUnaries = []*ew2Unary{
	{name: "aten::acos.default", cpuName: "acos_vml_cpu", res: ew2Float, ff: math.Acos},
	{name: "aten::acosh.default", cpuName: "acosh_cpu", res: ew2Float, ff: math.Acosh},
	{name: "aten::asin.default", cpuName: "asin_vml_cpu", res: ew2Float, ff: math.Asin},
	{name: "aten::asinh.default", cpuName: "asinh_cpu", res: ew2Float, ff: math.Asinh},
	{name: "aten::atan.default", cpuName: "atan_vml_cpu", res: ew2Float, ff: math.Atan},
	{name: "aten::atanh.default", cpuName: "atanh_cpu", res: ew2Float, ff: math.Atanh},
	{name: "aten::tan.default", cpuName: "tan_vml_cpu", res: ew2Float, ff: math.Tan},
	{name: "aten::log10.default", cpuName: "log10_vml_cpu", res: ew2Float, ff: pwLog10},
	{name: "aten::log2.default", cpuName: "log2_vml_cpu", res: ew2Float, ff: math.Log2},
	{name: "aten::erfc.default", cpuName: "erfc_vml_cpu", res: ew2Float, ff: math.Erfc},
	{name: "aten::exp2.default", cpuName: "exp2", res: ew2Float, half: true, ff: math.Exp2},
	{name: "aten::trunc.default", cpuName: "trunc_vml_cpu", boolErr: `"trunc_vml_cpu" not implemented for 'Bool'`,
		ff: math.Trunc, fi: ew2Identity},
	{name: "aten::frac.default", cpuName: "frac_cpu", res: ew2FloatOnly, half: true,
		ff: func(x float64) float64 { return x - math.Trunc(x) }},
	{name: "aten::sgn.default", cpuName: "sgn_cpu", half: true, ff: ew2SignF, fi: ew2SignI},
}

// pwHyperbolics are cosh and sinh, whose vectorized ATen loops (SLEEF)
// overflow to infinity as soon as exp(|x|) does, before the result does.
var pwHyperbolics = []*pwVecUnary{
	{ew2Unary: ew2Unary{name: "aten::cosh.default", cpuName: "cosh_cpu", res: ew2Float, ff: pwCosh}},
	{ew2Unary: ew2Unary{name: "aten::sinh.default", cpuName: "sinh_cpu", res: ew2Float, ff: pwSinh}},
}

// pwVecUnary is a float unary op whose result in the explicitly vectorized
// part of ATen's loop (whole chunks of ew1VecWidth elements, computed by
// SLEEF) differs from the scalar tail's (C library) in overflow: there, an
// |x| beyond the log of the compute dtype's largest value gives ±inf.
type pwVecUnary struct {
	ew2Unary
}

// kernel runs u on the self argument (meta tensors included).
func (u *pwVecUnary) kernel(c *ops.Call) ([]any, error) {
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
	inVec := ew1VecRegion(dt, x.Shape(), x.Shape())
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

// pwCosh is cosh without the premature overflow of Go's math.Cosh for
// |x| between 709.78 and 710.48.
func pwCosh(x float64) float64 {
	if a := math.Abs(x); a > 709 {
		h := math.Exp(0.5 * a)
		return h * 0.5 * h
	}
	return math.Cosh(x)
}

// pwSinh is sinh without the premature overflow of Go's math.Sinh.
func pwSinh(x float64) float64 {
	if a := math.Abs(x); a > 709 {
		h := math.Exp(0.5 * a)
		return math.Copysign(h*0.5*h, x)
	}
	return math.Sinh(x)
}

// pwLog is the natural logarithm, exact for subnormal x too (Go's
// math.Log on amd64 is not: it returns about -709.09 for them).
func pwLog(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

// pwLog10 is log10, exact for subnormal x too (Go's math.Log is not on
// amd64: it loses their scale).
func pwLog10(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log2(x) * (math.Ln2 / math.Ln10)
	}
	return math.Log10(x)
}

// pwSquare is aten::square, which ATen computes as pow(self, 2): bool
// becomes int64, integers wrap.
func pwSquare(c *ops.Call) ([]any, error) {
	return pwDelegate(c, "aten::pow.Tensor_Scalar", []any{c.Tensor("self"), int64(2)}, nil)
}

// pwLogitOp describes logit, whose kernel has no float16 version.
var pwLogitOp = &ew2Unary{name: "aten::logit", cpuName: "logit_cpu", res: ew2Float}

// pwLogit is aten::logit: log(x/(1-x)) (inf at x = 1), x first clamped to
// [eps, 1-eps] when eps is given and not negative. ATen's scalar loop
// clamps with x < lo ? lo : (x > hi ? hi : x), its vectorized part with
// min(max(x, lo), hi): they differ only for eps > 0.5.
func pwLogit(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt, err := pwLogitOp.check(c, x)
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
		return pwLog(r(v / r(1-v)))
	}
	eps, ok := c.OptFloat("eps")
	if !ok || eps < 0 || math.IsNaN(eps) {
		return one(mapUnary(x, dt, f, nil)), nil
	}
	if err := ew1CheckFits(c, "eps", ops.FloatScalar(eps), dt); err != nil {
		return nil, err
	}
	lo := roundTo(dt, eps)
	hi := roundTo(dt, 1-lo)
	inVec := ew1VecRegion(dt, x.Shape(), x.Shape())
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

// pwNanToNum is aten::nan_to_num: NaN, +inf and -inf replaced by nan
// (default 0), posinf and neginf (default the dtype's largest and lowest
// finite values), the replacements cast to the dtype; integral and bool
// tensors are copied.
func pwNanToNum(c *ops.Call) ([]any, error) {
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

// ew2Result says how a unary op's output dtype follows from its input's.
type ew2Result int

const (
	// ew2Same ops keep the input dtype (abs, neg, sign, ceil, relu, ...).
	ew2Same ew2Result = iota
	// ew2Float ops are float math: integral and bool inputs give float32.
	ew2Float
	// ew2FloatOnly ops accept floating inputs only (the activations).
	ew2FloatOnly
)

// ew2Unary describes one unary operator.
type ew2Unary struct {
	name    string    // the operator, "aten::abs.default"
	cpuName string    // PyTorch's dispatch name in "not implemented for" errors
	res     ew2Result // how the output dtype is chosen
	half    bool      // whether the CPU kernel has a float16 version
	boolErr string    // the error for a bool input; "" when bool is accepted
	ff      floatFn1  // the float function
	fi      intFn1    // the integer function, for ew2Same ops
	// ffFor, when set, replaces ff: it returns the float function for
	// output dtype dt, for ops whose PyTorch kernel rounds every step of
	// the computation to the dtype.
	ffFor func(dt tensor.DType) floatFn1
}

// ew2Unaries are the operators with no argument besides self.
var ew2Unaries = []*ew2Unary{
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
	{name: "aten::sign.default", cpuName: "sign_cpu", half: true, ff: ew2SignF, fi: ew2SignI},
	{name: "aten::ceil.default", cpuName: "ceil_vml_cpu", boolErr: `"ceil_vml_cpu" not implemented for 'Bool'`,
		ff: math.Ceil, fi: ew2Identity},
	{name: "aten::floor.default", cpuName: "floor_vml_cpu", boolErr: `"floor_vml_cpu" not implemented for 'Bool'`,
		ff: math.Floor, fi: ew2Identity},
	{name: "aten::round.default", cpuName: "round_vml_cpu", boolErr: `"round_vml_cpu" not implemented for 'Bool'`,
		ff: math.RoundToEven, fi: ew2Identity},

	{name: "aten::cos.default", cpuName: "cos_vml_cpu", res: ew2Float, ff: math.Cos},
	{name: "aten::sin.default", cpuName: "sin_vml_cpu", res: ew2Float, ff: math.Sin},
	{name: "aten::tanh.default", cpuName: "tanh_vml_cpu", res: ew2Float, ff: math.Tanh},
	{name: "aten::exp.default", cpuName: "exp_vml_cpu", res: ew2Float, ff: math.Exp},
	{name: "aten::expm1.default", cpuName: "expm1_vml_cpu", res: ew2Float, ff: math.Expm1},
	{name: "aten::log.default", cpuName: "log_vml_cpu", res: ew2Float, ff: pwLog},
	{name: "aten::log1p.default", cpuName: "log1p_vml_cpu", res: ew2Float, ff: math.Log1p},
	{name: "aten::sqrt.default", cpuName: "sqrt_vml_cpu", res: ew2Float, ff: math.Sqrt},
	{name: "aten::rsqrt.default", cpuName: "rsqrt_cpu", res: ew2Float, ffFor: ew2Rsqrt},
	{name: "aten::reciprocal.default", cpuName: "reciprocal_cpu", res: ew2Float, half: true, ff: func(x float64) float64 { return 1 / x }},
	{name: "aten::erf.default", cpuName: "erf_vml_cpu", res: ew2Float, ff: math.Erf},
	{name: "aten::sigmoid.default", cpuName: "sigmoid_cpu", res: ew2Float, ff: ew2Sigmoid},
}

// kernel runs u on the self argument (meta tensors included).
func (u *ew2Unary) kernel(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt, err := u.check(c, x)
	if err != nil {
		return nil, err
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
func (u *ew2Unary) check(c *ops.Call, x *tensor.Tensor) (tensor.DType, error) {
	dt := x.DType()
	switch {
	case dt == tensor.Bool && u.res == ew2Same && u.boolErr != "":
		return 0, c.Errorf("self", "%s", u.boolErr)
	case u.res == ew2FloatOnly && !dt.IsFloat():
		return 0, c.Errorf("self", "%q not implemented for '%s'", u.cpuName, scalarTypeName(dt))
	case dt == tensor.Float16 && !u.half && !x.IsMeta():
		return 0, c.Errorf("self", "%q not implemented for '%s'", u.cpuName, scalarTypeName(dt))
	}
	if u.res == ew2Float {
		return floatType(dt), nil
	}
	return dt, nil
}

// ew2Identity returns x: ceil, floor and round of an integer.
func ew2Identity(x int64) int64 { return x }

// ew2SignF is sign for floats: -1, 0 or 1, and 0 for NaN as in PyTorch.
func ew2SignF(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// ew2SignI is sign for integers (and bools, which stay as they are).
func ew2SignI(x int64) int64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// ew2Sigmoid is the logistic function 1/(1+exp(-x)).
func ew2Sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// ew2Rsqrt returns rsqrt for dtype dt: 1/sqrt(x) with the square root
// rounded to the compute dtype first, as ATen's kernels compute it.
func ew2Rsqrt(dt tensor.DType) floatFn1 {
	r := rounder(computeType(dt))
	return func(x float64) float64 { return 1 / r(math.Sqrt(x)) }
}

// ew2Clamp is std::min(std::max(x, lo), hi) with NaN propagated from any
// operand, as ATen's vectorized clamp does; hi wins when lo > hi.
func ew2Clamp(x, lo, hi float64) float64 {
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

// ew2FloatScalar converts the Scalar argument name to the floating dtype dt
// as c10's checked Scalar::to<T> does: finite values beyond dt's range are
// an error, and the value is rounded to dt.
func ew2FloatScalar(c *ops.Call, name string, dt tensor.DType) (float64, error) {
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

// ew2IntScalar converts the Scalar argument name to the integral dtype dt
// as c10's checked Scalar::toLong and Scalar::to<T> do: floats truncate
// toward zero, and NaN, infinities and values beyond dt's range are an
// error (negative values wrap for uint8, as in c10).
func ew2IntScalar(c *ops.Call, name string, dt tensor.DType) (int64, error) {
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
