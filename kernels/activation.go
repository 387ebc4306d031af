package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Activation functions, ATen's Activation.cpp: relu, relu6, hardtanh,
// leaky_relu, elu, gelu, hardsigmoid, hardswish, silu, softplus,
// hardshrink, mish and threshold. They share unary_ops.go's ew2Unary
// machinery: PyTorch 1.13's CPU dtype checks, then float64 math rounded to
// the output dtype.

// registerActivation registers the kernels of activation.go.
func registerActivation() {
	for _, u := range activationUnaries {
		registerBoth(u.name, u.kernel)
	}
	registerBoth("aten::softplus", pwSoftplus)
	registerBoth("aten::hardshrink", pwHardshrink)
	registerBoth("aten::mish", pwMish)
	registerBoth("aten::threshold", pwThreshold)
	registerBoth(ew2HardtanhOp.name, ew2Hardtanh)
	registerBoth(ew2Relu6Op.name, ew2Relu6)
	registerBoth(ew2LeakyReluOp.name, ew2LeakyRelu)
	registerBoth(ew2EluOp.name, ew2Elu)
	registerBoth(ew2GeluOp.name, ew2Gelu)
}

// pwFloatOnly describes the activations that accept floating dtypes only;
// their kernels have no float16 version (mish has no bfloat16 one either).
var (
	pwSoftplusOp   = &ew2Unary{name: "aten::softplus", cpuName: "softplus_cpu", res: ew2FloatOnly}
	pwHardshrinkOp = &ew2Unary{name: "aten::hardshrink", cpuName: "hardshrink_cpu", res: ew2FloatOnly}
	pwMishOp       = &ew2Unary{name: "aten::mish", cpuName: "mish_cpu", res: ew2FloatOnly}
)

// pwSoftplus is aten::softplus: x where x*beta > threshold, else
// log1p(exp(x*beta))/beta, with beta and threshold in the dtype and every
// step rounded to it as ATen's kernels compute.
func pwSoftplus(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt, err := pwSoftplusOp.check(c, x)
	if err != nil {
		return nil, err
	}
	beta, _, err := pwScalarTo(c, "beta", dt)
	if err != nil {
		return nil, err
	}
	th, _, err := pwScalarTo(c, "threshold", dt)
	if err != nil {
		return nil, err
	}
	r := rounder(dt)
	return one(mapUnary(x, dt, func(v float64) float64 {
		xb := r(v * beta)
		if xb > th {
			return v
		}
		return r(r(math.Log1p(r(math.Exp(xb)))) / beta)
	}, nil)), nil
}

// pwHardshrink is aten::hardshrink: 0 where -lambd <= x <= lambd, else x.
func pwHardshrink(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt, err := pwHardshrinkOp.check(c, x)
	if err != nil {
		return nil, err
	}
	l, _, err := pwScalarTo(c, "lambd", dt)
	if err != nil {
		return nil, err
	}
	return one(mapUnary(x, dt, func(v float64) float64 {
		if v >= -l && v <= l {
			return 0
		}
		return v
	}, nil)), nil
}

// pwMish is aten::mish: x*tanh(log1p(exp(x))), float32 and float64 only.
func pwMish(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt, err := pwMishOp.check(c, x)
	if err != nil {
		return nil, err
	}
	if dt == tensor.BFloat16 && !x.IsMeta() {
		return nil, notImplemented(c, "self", "mish_cpu", dt)
	}
	return one(mapUnary(x, dt, func(v float64) float64 { return v * math.Tanh(math.Log1p(math.Exp(v))) }, nil)), nil
}

// pwThreshold is aten::threshold: value where x <= threshold, else x, in
// self's dtype (the Scalars converted to it, integers truncated).
func pwThreshold(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt := x.DType()
	if (dt == tensor.Bool || dt == tensor.Float16) && !x.IsMeta() {
		return nil, notImplemented(c, "self", "threshold_cpu", dt)
	}
	thf, thi, err := pwScalarTo(c, "threshold", dt)
	if err != nil {
		return nil, err
	}
	vf, vi, err := pwScalarTo(c, "value", dt)
	if err != nil {
		return nil, err
	}
	return one(mapUnary(x, dt,
		func(v float64) float64 {
			if v <= thf {
				return vf
			}
			return v
		},
		func(v int64) int64 {
			if v <= thi {
				return vi
			}
			return v
		})), nil
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

// ew2Silu returns silu for dtype dt: x/(1+exp(-x)) with every step rounded
// to dt, as ATen's float32 and bfloat16 kernels compute it.
func ew2Silu(dt tensor.DType) floatFn1 {
	r := rounder(dt)
	return func(x float64) float64 { return r(x / r(1+r(math.Exp(-x)))) }
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

// activationUnaries are the activations with no argument besides self.
var activationUnaries = []*ew2Unary{
	{name: "aten::relu.default", cpuName: "clamp_min_cpu", boolErr: "Boolean inputs not supported for relu",
		ff: func(x float64) float64 {
			if x < 0 {
				return 0
			}
			return x // NaN stays NaN
		},
		fi: func(x int64) int64 { return max(x, 0) }},
	{name: "aten::hardsigmoid.default", cpuName: "hardsigmoid_cpu", res: ew2FloatOnly, ff: func(x float64) float64 {
		return ew2Clamp(x+3, 0, 6) / 6
	}},
	{name: "aten::hardswish.default", cpuName: "hardswish_cpu", res: ew2FloatOnly, ff: func(x float64) float64 {
		return x * ew2Clamp(x+3, 0, 6) / 6
	}},
	{name: "aten::silu.default", cpuName: "silu_cpu", res: ew2FloatOnly, ffFor: ew2Silu},
}
