package kernels

import (
	"math"

	"github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Activation functions, ATen's Activation.cpp: relu, relu6, hardtanh,
// leaky_relu, elu, gelu, hardsigmoid, hardswish, silu, softplus,
// hardshrink, mish, threshold, and the composites selu, celu, glu,
// softshrink, prelu and _prelu_kernel. They share unary_ops.go's unary
// machinery: PyTorch 1.13's CPU dtype checks, then float64 math rounded to
// the output dtype.

// registerActivation registers the kernels of activation.go.
func registerActivation() {
	for _, u := range activationUnaries {
		registerBoth(u.name, u.kernel)
	}
	registerBoth("aten::softplus", softplus)
	registerBoth("aten::hardshrink", hardshrink)
	registerBoth("aten::mish", mish)
	registerBoth("aten::threshold", thresholdKernel)
	registerBoth(hardtanhOp.name, hardtanh)
	registerBoth(relu6Op.name, relu6)
	registerBoth(leakyReluOp.name, leakyRelu)
	registerBoth("aten::selu", selu)
	registerBoth("aten::celu", celu)
	registerBoth("aten::glu", glu)
	registerBoth("aten::softshrink", softshrink)
	registerBoth("aten::_prelu_kernel", preluKernel)
	registerBoth("aten::prelu", prelu)
	registerBoth(eluOp.name, elu)
	registerBoth(geluOp.name, gelu)
}

// pwFloatOnly describes the activations that accept floating dtypes only;
// their kernels have no float16 version (mish has no bfloat16 one either).
var (
	softplusOp   = &unary{name: "aten::softplus", cpuName: "softplus_cpu", res: resultFloatOnly}
	hardshrinkOp = &unary{name: "aten::hardshrink", cpuName: "hardshrink_cpu", res: resultFloatOnly}
	mishOp       = &unary{name: "aten::mish", cpuName: "mish_cpu", res: resultFloatOnly}
)

// softplus is aten::softplus: x where x*beta > threshold, else
// log1p(exp(x*beta))/beta, with beta and threshold in the dtype and every
// step rounded to it as ATen's kernels compute.
func softplus(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt, err := softplusOp.check(c, x)
	if err != nil {
		return nil, err
	}
	beta, _, err := scalarTo(c, "beta", dt)
	if err != nil {
		return nil, err
	}
	th, _, err := scalarTo(c, "threshold", dt)
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

// hardshrink is aten::hardshrink: 0 where -lambd <= x <= lambd, else x.
func hardshrink(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt, err := hardshrinkOp.check(c, x)
	if err != nil {
		return nil, err
	}
	l, _, err := scalarTo(c, "lambd", dt)
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

// mish is aten::mish: x*tanh(log1p(exp(x))), float32 and float64 only.
func mish(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt, err := mishOp.check(c, x)
	if err != nil {
		return nil, err
	}
	if dt == tensor.BFloat16 && !x.IsMeta() {
		return nil, notImplemented(c, "self", "mish_cpu", dt)
	}
	return one(mapUnary(x, dt, func(v float64) float64 { return v * math.Tanh(math.Log1p(math.Exp(v))) }, nil)), nil
}

// thresholdKernel is aten::threshold: value where x <= threshold, else x, in
// self's dtype (the Scalars converted to it, integers truncated).
func thresholdKernel(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt := x.DType()
	if (dt == tensor.Bool || dt == tensor.Float16) && !x.IsMeta() {
		return nil, notImplemented(c, "self", "threshold_cpu", dt)
	}
	thf, thi, err := scalarTo(c, "threshold", dt)
	if err != nil {
		return nil, err
	}
	vf, vi, err := scalarTo(c, "value", dt)
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
	hardtanhOp  = &unary{name: "aten::hardtanh.default", cpuName: "clamp_scalar_cpu", boolErr: "Bool inputs not supported for hardtanh"}
	relu6Op     = &unary{name: "aten::relu6.default", cpuName: "clamp_scalar_cpu", boolErr: "Bool inputs not supported for hardtanh"}
	leakyReluOp = &unary{name: "aten::leaky_relu.default", cpuName: "leaky_relu_cpu", res: resultFloatOnly}
	eluOp       = &unary{name: "aten::elu.default", cpuName: "elu_cpu", res: resultFloatOnly}
	geluOp      = &unary{name: "aten::gelu.default", cpuName: "GeluKernelImpl", res: resultFloatOnly}
)

// silu returns silu for dtype dt: x/(1+exp(-x)) with every step rounded
// to dt, as ATen's float32 and bfloat16 kernels compute it.
func silu(dt tensor.DType) floatFn1 {
	r := rounder(dt)
	return func(x float64) float64 { return r(x / r(1+r(math.Exp(-x)))) }
}

// hardtanh is aten::hardtanh.default: x clamped to [min_val, max_val].
// Integral inputs take the bounds truncated to integers (PyTorch's legacy
// behaviour: the bounds never promote), max_val wins when min_val >
// max_val, and NaN in x or in a bound gives NaN.
func hardtanh(c *ops.Call) ([]any, error) {
	return hardtanhOp.clamp(c, "min_val", "max_val")
}

// relu6 is aten::relu6.default, which ATen computes as hardtanh(x, 0, 6).
func relu6(c *ops.Call) ([]any, error) {
	return relu6Op.clamp(c, "", "")
}

// clamp runs hardtanh on self with the bounds in the Scalar arguments lo
// and hi, or 0 and 6 when their names are empty (relu6).
func (u *unary) clamp(c *ops.Call, lo, hi string) ([]any, error) {
	x := c.Tensor("self")
	dt, err := u.check(c, x)
	if err != nil {
		return nil, err
	}
	if dt.IsFloat() {
		var l, h float64 = 0, 6
		if lo != "" {
			if l, err = floatScalar(c, lo, dt); err != nil {
				return nil, err
			}
			if h, err = floatScalar(c, hi, dt); err != nil {
				return nil, err
			}
		}
		if fastFloat(dt, x) {
			if out, ok := clampRuns(x, false, l, h); ok {
				return one(out), nil
			}
		}
		return one(mapUnary(x, dt, func(v float64) float64 { return clampFloat(v, l, h) }, nil)), nil
	}
	var l, h int64 = 0, 6
	if lo != "" {
		if l, err = intScalar(c, lo, tensor.Int64); err != nil {
			return nil, err
		}
		if h, err = intScalar(c, hi, tensor.Int64); err != nil {
			return nil, err
		}
		if dt == tensor.Uint8 && (l < 0 || h < 0) {
			return nil, c.Errorf(lo, "cannot do hardtanh on an unsigned type with negative limits")
		}
		if l, err = intScalar(c, lo, dt); err != nil {
			return nil, err
		}
		if h, err = intScalar(c, hi, dt); err != nil {
			return nil, err
		}
	}
	return one(mapUnary(x, dt, nil, func(v int64) int64 { return min(max(v, l), h) })), nil
}

// leakyRelu is aten::leaky_relu.default: x if x > 0, else x times
// negative_slope (rounded to the compute dtype first, as ATen does: float32
// for float32, bfloat16 and float16).
func leakyRelu(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt, err := leakyReluOp.check(c, x)
	if err != nil {
		return nil, err
	}
	slope, err := floatScalar(c, "negative_slope", computeType(dt))
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

// elu is aten::elu.default: scale*x for x > 0, else
// alpha*scale*(exp(input_scale*x) - 1), with the coefficients rounded to
// the compute dtype as ATen does.
func elu(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dt, err := eluOp.check(c, x)
	if err != nil {
		return nil, err
	}
	var coef [3]float64
	for i, name := range []string{"alpha", "scale", "input_scale"} {
		if coef[i], err = floatScalar(c, name, computeType(dt)); err != nil {
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

// gelu is aten::gelu.default: x*Φ(x) with approximate="none", or
// PyTorch's tanh approximation with approximate="tanh".
func gelu(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	a := c.Str("approximate")
	if a != "none" && a != "tanh" {
		return nil, c.Errorf("approximate", "approximate argument must be either none or tanh, got %q", a)
	}
	dt, err := geluOp.check(c, x)
	if err != nil {
		return nil, err
	}
	f := floatFn1(geluErf)
	if a == "tanh" {
		f = geluTanh(dt)
	}
	return one(mapUnary(x, dt, f, nil)), nil
}

// geluTanh returns gelu's tanh approximation for dtype dt,
// 0.5*x*(1+tanh(β(x+κx³))) with β = sqrt(2/π) and κ = 0.044715, every
// step rounded to dt as ATen's float32 and bfloat16 kernels compute it (in
// bfloat16 this matters: 1+tanh cancels).
func geluTanh(dt tensor.DType) floatFn1 {
	r := rounder(dt)
	beta := r(math.Sqrt2 * (2 / math.SqrtPi) * 0.5)
	kappa := r(0.044715)
	return func(x float64) float64 {
		cube := r(r(x*x) * x)
		inner := r(beta * r(x+r(kappa*cube)))
		return r(r(0.5*x) * r(1+r(math.Tanh(inner))))
	}
}

// geluErf is exact gelu, x*0.5*(1+erf(x/sqrt(2))), computed in float64
// and rounded once by the caller (ATen's float32 erf is a polynomial within
// a few ulp of this).
func geluErf(x float64) float64 { return x * 0.5 * (1 + math.Erf(x*(1/math.Sqrt2))) }

// activationUnaries are the activations with no argument besides self.
var activationUnaries = []*unary{
	{name: "aten::relu.default", cpuName: "clamp_min_cpu", boolErr: "Boolean inputs not supported for relu", relu: true,
		ff: func(x float64) float64 {
			if x < 0 {
				return 0
			}
			return x // NaN stays NaN
		},
		fi: func(x int64) int64 { return max(x, 0) }},
	{name: "aten::hardsigmoid.default", cpuName: "hardsigmoid_cpu", res: resultFloatOnly, ff: func(x float64) float64 {
		return clampFloat(x+3, 0, 6) / 6
	}},
	{name: "aten::hardswish.default", cpuName: "hardswish_cpu", res: resultFloatOnly, ff: func(x float64) float64 {
		return x * clampFloat(x+3, 0, 6) / 6
	}},
	{name: "aten::silu.default", cpuName: "silu_cpu", res: resultFloatOnly, ffFor: silu, f32: vec.Silu},
}

// selu is aten::selu: elu with SELU's alpha and scale.
func selu(c *ops.Call) ([]any, error) {
	return delegate(c, "aten::elu", []any{c.Tensor("self"),
		ops.FloatScalar(1.6732632423543772848170429916717), ops.FloatScalar(1.0507009873554804934193349852946)}, nil)
}

// celu is aten::celu: elu(self, alpha, 1, 1/alpha).
func celu(c *ops.Call) ([]any, error) {
	a := c.Scalar("alpha")
	return delegate(c, "aten::elu", []any{c.Tensor("self"), a, ops.IntScalar(1), ops.FloatScalar(1.0 / a.Float())}, nil)
}

// glu is aten::glu: the first half of self along dim times the sigmoid of
// the second half.
func glu(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if self.Dim() == 0 {
		return nil, c.Errorf("self", "glu does not support scalars because halving size must be even")
	}
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	n := self.Size(d)
	if n%2 != 0 {
		return nil, c.Errorf("self", "Halving dimension must be even, but dimension %d is size %d", d, n)
	}
	a, b := tensor.Must(self.Narrow(d, 0, n/2)), tensor.Must(self.Narrow(d, n/2, n/2))
	p := &chain{c: c, arg: "self"}
	return p.result(p.call("aten::mul.Tensor", a, p.call("aten::sigmoid", b)))
}

// softshrink is aten::softshrink: x-λ above λ, x+λ below -λ, 0 between,
// in x's dtype; NaN gives 0, as in PyTorch 1.13 (2.x keeps NaN).
func softshrink(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if !self.DType().IsFloat() {
		return nil, notImplemented(c, "self", "softshrink_cpu", self.DType())
	}
	if self.IsMeta() {
		return one(self.Meta()), nil
	}
	r := rounder(self.DType())
	l := r(c.Scalar("lambd").Float())
	vals := self.Float64s()
	for i, x := range vals {
		switch {
		case x > l:
			vals[i] = r(x - l)
		case x < -l:
			vals[i] = r(x + l)
		default:
			vals[i] = 0
		}
	}
	return oneOrErr(tensor.FromFloat64s(self.DType(), vals, self.Shape()...))
}

// preluKernel is aten::_prelu_kernel: self where positive, weight*self
// elsewhere, weight broadcast against self.
func preluKernel(c *ops.Call) ([]any, error) {
	self, w := c.Tensor("self"), c.Tensor("weight")
	p := &chain{c: c, arg: "weight"}
	return p.result(p.call("aten::where.self", p.call("aten::gt.Scalar", self, ops.IntScalar(0)), self, p.call("aten::mul.Tensor", w, self)))
}

// prelu is aten::prelu: _prelu_kernel with weight (one value, or one per
// channel of dimension 1) shaped to broadcast along the channels.
func prelu(c *ops.Call) ([]any, error) {
	self, w := c.Tensor("self"), c.Tensor("weight")
	if w.Dim() > 1 {
		return nil, c.Errorf("weight", "prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = %d", w.Dim())
	}
	n := w.Numel()
	if n != 1 {
		ch := 1
		if self.Dim() > 1 {
			ch = self.Size(1)
		}
		if ch != n {
			return nil, c.Errorf("weight", "Mismatch of parameter numbers and input channel size. Found parameter numbers = %d and channel size = %d.", n, ch)
		}
	}
	if self.Dim() > 1 {
		shape := make([]int, self.Dim())
		for i := range shape {
			shape[i] = 1
		}
		shape[1] = n
		w = tensor.Must(w.Reshape(shape...))
	}
	return delegateKernel("aten::_prelu_kernel", preluKernel, []any{self, w}, nil)
}
