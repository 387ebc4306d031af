package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Unary elementwise math and activations: abs, neg, sign, ceil, floor,
// round, the transcendental functions, relu and its relatives. Every kernel
// checks the input dtype as PyTorch 1.13's CPU kernels do (which dtypes an
// op accepts, which keep their dtype and which become float32), then maps
// the elements with mapUnary: float64 math rounded to the output dtype,
// float16 and bfloat16 through float32.

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
	{name: "aten::relu.default", cpuName: "clamp_min_cpu", boolErr: "Boolean inputs not supported for relu",
		ff: func(x float64) float64 {
			if x < 0 {
				return 0
			}
			return x // NaN stays NaN
		},
		fi: func(x int64) int64 { return max(x, 0) }},

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

	{name: "aten::hardsigmoid.default", cpuName: "hardsigmoid_cpu", res: ew2FloatOnly, ff: func(x float64) float64 {
		return ew2Clamp(x+3, 0, 6) / 6
	}},
	{name: "aten::hardswish.default", cpuName: "hardswish_cpu", res: ew2FloatOnly, ff: func(x float64) float64 {
		return x * ew2Clamp(x+3, 0, 6) / 6
	}},
	{name: "aten::silu.default", cpuName: "silu_cpu", res: ew2FloatOnly, ffFor: ew2Silu},
}

// Descriptions of the operators with Scalar or string arguments, which have
// kernels of their own.
var (
	ew2HardtanhOp  = &ew2Unary{name: "aten::hardtanh.default", cpuName: "clamp_scalar_cpu", boolErr: "Bool inputs not supported for hardtanh"}
	ew2Relu6Op     = &ew2Unary{name: "aten::relu6.default", cpuName: "clamp_scalar_cpu", boolErr: "Bool inputs not supported for hardtanh"}
	ew2LeakyReluOp = &ew2Unary{name: "aten::leaky_relu.default", cpuName: "leaky_relu_cpu", res: ew2FloatOnly}
	ew2EluOp       = &ew2Unary{name: "aten::elu.default", cpuName: "elu_cpu", res: ew2FloatOnly}
	ew2GeluOp      = &ew2Unary{name: "aten::gelu.default", cpuName: "GeluKernelImpl", res: ew2FloatOnly}
)

func registerUnary() {
	for _, u := range ew2Unaries {
		registerBoth(u.name, u.kernel)
	}
	registerBoth(ew2HardtanhOp.name, ew2Hardtanh)
	registerBoth(ew2Relu6Op.name, ew2Relu6)
	registerBoth(ew2LeakyReluOp.name, ew2LeakyRelu)
	registerBoth(ew2EluOp.name, ew2Elu)
	registerBoth(ew2GeluOp.name, ew2Gelu)
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

// ew2Silu returns silu for dtype dt: x/(1+exp(-x)) with every step rounded
// to dt, as ATen's float32 and bfloat16 kernels compute it.
func ew2Silu(dt tensor.DType) floatFn1 {
	r := rounder(dt)
	return func(x float64) float64 { return r(x / r(1+r(math.Exp(-x)))) }
}

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

// ew2Hardtanh is aten::hardtanh.default: x clamped to [min_val, max_val].
// Integral inputs take the bounds truncated to integers (PyTorch's legacy
// behaviour: the bounds never promote), max_val wins when min_val >
// max_val, and NaN in x or in a bound gives NaN.
func ew2Hardtanh(c *ops.Call) ([]any, error) {
	return ew2HardtanhOp.clamp(c, "min_val", "max_val")
}

// ew2Relu6 is aten::relu6.default, which ATen computes as hardtanh(x, 0, 6).
func ew2Relu6(c *ops.Call) ([]any, error) {
	return ew2Relu6Op.clamp(c, "", "")
}

// clamp runs hardtanh on self with the bounds in the Scalar arguments lo
// and hi, or 0 and 6 when their names are empty (relu6).
func (u *ew2Unary) clamp(c *ops.Call, lo, hi string) ([]any, error) {
	x := c.Tensor("self")
	dt, err := u.check(c, x)
	if err != nil {
		return nil, err
	}
	if dt.IsFloat() {
		var l, h float64 = 0, 6
		if lo != "" {
			if l, err = ew2FloatScalar(c, lo, dt); err != nil {
				return nil, err
			}
			if h, err = ew2FloatScalar(c, hi, dt); err != nil {
				return nil, err
			}
		}
		return one(mapUnary(x, dt, func(v float64) float64 { return ew2Clamp(v, l, h) }, nil)), nil
	}
	var l, h int64 = 0, 6
	if lo != "" {
		if l, err = ew2IntScalar(c, lo, tensor.Int64); err != nil {
			return nil, err
		}
		if h, err = ew2IntScalar(c, hi, tensor.Int64); err != nil {
			return nil, err
		}
		if dt == tensor.Uint8 && (l < 0 || h < 0) {
			return nil, c.Errorf(lo, "cannot do hardtanh on an unsigned type with negative limits")
		}
		if l, err = ew2IntScalar(c, lo, dt); err != nil {
			return nil, err
		}
		if h, err = ew2IntScalar(c, hi, dt); err != nil {
			return nil, err
		}
	}
	return one(mapUnary(x, dt, nil, func(v int64) int64 { return min(max(v, l), h) })), nil
}

// ew2LeakyRelu is aten::leaky_relu.default: x if x > 0, else x times
// negative_slope (rounded to the compute dtype first, as ATen does: float32
// for float32, bfloat16 and float16).
func ew2LeakyRelu(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt, err := ew2LeakyReluOp.check(c, x)
	if err != nil {
		return nil, err
	}
	slope, err := ew2FloatScalar(c, "negative_slope", computeType(dt))
	if err != nil {
		return nil, err
	}
	return one(mapUnary(x, dt, func(v float64) float64 {
		if v > 0 {
			return v
		}
		return v * slope
	}, nil)), nil
}

// ew2Elu is aten::elu.default: scale*x for x > 0, else
// alpha*scale*(exp(input_scale*x) - 1), with the coefficients rounded to
// the compute dtype as ATen does.
func ew2Elu(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt, err := ew2EluOp.check(c, x)
	if err != nil {
		return nil, err
	}
	var coef [3]float64
	for i, name := range []string{"alpha", "scale", "input_scale"} {
		if coef[i], err = ew2FloatScalar(c, name, computeType(dt)); err != nil {
			return nil, err
		}
	}
	negcoef := roundTo(computeType(dt), coef[0]*coef[1])
	poscoef, negiptcoef := coef[1], coef[2]
	return one(mapUnary(x, dt, func(v float64) float64 {
		if v <= 0 {
			return math.Expm1(v*negiptcoef) * negcoef
		}
		return v * poscoef
	}, nil)), nil
}

// ew2Gelu is aten::gelu.default: x*Φ(x) with approximate="none", or
// PyTorch's tanh approximation with approximate="tanh".
func ew2Gelu(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	a := c.Str("approximate")
	if a != "none" && a != "tanh" {
		return nil, c.Errorf("approximate", "approximate argument must be either none or tanh, got %q", a)
	}
	dt, err := ew2GeluOp.check(c, x)
	if err != nil {
		return nil, err
	}
	f := floatFn1(ew2GeluErf)
	if a == "tanh" {
		f = ew2GeluTanh(dt)
	}
	return one(mapUnary(x, dt, f, nil)), nil
}

// ew2GeluTanh returns gelu's tanh approximation for dtype dt,
// 0.5*x*(1+tanh(β(x+κx³))) with β = sqrt(2/π) and κ = 0.044715, every
// step rounded to dt as ATen's float32 and bfloat16 kernels compute it (in
// bfloat16 this matters: 1+tanh cancels).
func ew2GeluTanh(dt tensor.DType) floatFn1 {
	r := rounder(dt)
	beta := r(math.Sqrt2 * (2 / math.SqrtPi) * 0.5)
	kappa := r(0.044715)
	return func(x float64) float64 {
		cube := r(r(x*x) * x)
		inner := r(beta * r(x+r(kappa*cube)))
		return r(r(0.5*x) * r(1+r(math.Tanh(inner))))
	}
}

// ew2GeluErf is exact gelu, x*0.5*(1+erf(x/sqrt(2))), computed in float64
// and rounded once by the caller (ATen's float32 erf is a polynomial within
// a few ulp of this).
func ew2GeluErf(x float64) float64 { return x * 0.5 * (1 + math.Erf(x*(1/math.Sqrt2))) }
