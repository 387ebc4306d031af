package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// More pointwise operators: the remaining trigonometric, hyperbolic and
// logarithmic functions, trunc, isinf, logical_xor, bitwise or/xor and
// clamp with tensor bounds, with PyTorch 1.13's CPU dtype rules. Unary
// ones reuse unary.go's ew2Unary machinery, binary ones binary.go's ew1
// operand handling.

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

func registerPointwiseMore() {
	for _, u := range pwUnaries {
		registerBoth(u.name, u.kernel)
	}
	for _, u := range pwHyperbolics {
		registerBoth(u.name, u.kernel)
	}
	registerBoth("aten::isinf", pwIsinf)
	registerBoth("aten::logical_xor", pwLogicalXor)
	for _, o := range []string{"Tensor", "Scalar", "Scalar_Tensor"} {
		registerBoth("aten::bitwise_or."+o, pwBitwise("bitwise_or_cpu", func(x, y int64) int64 { return x | y }))
		registerBoth("aten::bitwise_xor."+o, pwBitwise("bitwise_xor_cpu", func(x, y int64) int64 { return x ^ y }))
	}
	registerBoth("aten::clamp.Tensor", pwClampTensor)
}

// pwIsinf is aten::isinf: true where self is ±inf (never for integers).
func pwIsinf(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if self.IsMeta() {
		return one(tensor.Must(empty(true, tensor.Bool, self.Shape()))), nil
	}
	out := make([]bool, self.Numel())
	if self.DType().IsFloat() {
		for i, v := range self.Float64s() {
			out[i] = math.IsInf(v, 0)
		}
	}
	return one(tensor.Must(tensor.FromSlice(out, self.Shape()...))), nil
}

// pwLogicalXor is aten::logical_xor: the output is bool for any inputs.
func pwLogicalXor(c *ops.Call) ([]any, error) {
	return ew1Logical(c, func(x, y bool) bool { return x != y })
}

// pwBitwise returns the kernel of a bitwise binary op (Tensor, Scalar and
// Scalar_Tensor overloads): integral and bool dtypes only; a Scalar is cast
// to the result dtype (wrapping), as TensorIterator does.
func pwBitwise(kernel string, fi intFn2) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		o, err := ew1Binary(c, "self", "other")
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

// pwClampTensor is aten::clamp.Tensor: self clamped to tensor bounds, all
// three operands type-promoted together and broadcast. With both bounds it
// is min(max(x, min), max) (max wins when min > max) and NaN where any
// operand is NaN; bool and float16 are not implemented then. With one bound
// it is maximum (min) or minimum (max), which accept every dtype.
func pwClampTensor(c *ops.Call) ([]any, error) {
	self, lo, hi := c.Tensor("self"), c.Tensor("min"), c.Tensor("max")
	switch {
	case lo == nil && hi == nil:
		return nil, c.Errorf("min", "torch.clamp: At least one of 'min' or 'max' must not be None")
	case hi == nil:
		return ew1MinMax(c, "min", true)
	case lo == nil:
		return ew1MinMax(c, "max", false)
	}
	dt, err := ops.ResultType(self, lo, hi)
	if err != nil {
		return nil, err
	}
	shape, err := ops.BroadcastShapes(self.Shape(), lo.Shape(), hi.Shape())
	if err != nil {
		return nil, c.Errorf("max", "%v", err)
	}
	isMeta := meta(self, lo, hi)
	if (dt == tensor.Bool || dt == tensor.Float16) && !isMeta {
		return nil, notImplemented(c, "self", "clamp_cpu", dt)
	}
	if isMeta {
		return one(tensor.Must(empty(true, dt, shape))), nil
	}
	return one(pwMap3(to(self, dt), to(lo, dt), to(hi, dt), shape, dt,
		func(x, l, h float64) float64 {
			if l != l || h != h {
				return math.NaN()
			}
			return ew2Clamp(x, l, h)
		},
		func(x, l, h int64) int64 { return min(max(x, l), h) })), nil
}

// pwMap3 returns ff (floating dt) or fi (integral and bool dt) over a, b
// and c, all of dtype dt, broadcast to shape; float16 and bfloat16 results
// are rounded from float64 once.
func pwMap3(a, b, c *tensor.Tensor, shape []int, dt tensor.DType, ff func(x, y, z float64) float64, fi func(x, y, z int64) int64) *tensor.Tensor {
	if dt.IsFloat() {
		av := expandedTensor(a, shape).Float64s()
		bv := expandedTensor(b, shape).Float64s()
		cv := expandedTensor(c, shape).Float64s()
		out := make([]float64, len(av))
		parallelFor(len(out), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				out[i] = ff(av[i], bv[i], cv[i])
			}
		})
		return tensor.Must(tensor.FromFloat64s(dt, out, shape...))
	}
	av := expandedTensor(a, shape).Int64s()
	bv := expandedTensor(b, shape).Int64s()
	cv := expandedTensor(c, shape).Int64s()
	out := make([]int64, len(av))
	parallelFor(len(out), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = fi(av[i], bv[i], cv[i])
		}
	})
	return tensor.Must(tensor.FromInt64s(dt, out, shape...))
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

// pwFloatOnly describes the activations that accept floating dtypes only;
// their kernels have no float16 version (mish has no bfloat16 one either).
var (
	pwSoftplusOp   = &ew2Unary{name: "aten::softplus", cpuName: "softplus_cpu", res: ew2FloatOnly}
	pwHardshrinkOp = &ew2Unary{name: "aten::hardshrink", cpuName: "hardshrink_cpu", res: ew2FloatOnly}
	pwMishOp       = &ew2Unary{name: "aten::mish", cpuName: "mish_cpu", res: ew2FloatOnly}
	pwLogitOp      = &ew2Unary{name: "aten::logit", cpuName: "logit_cpu", res: ew2Float}
)

func registerPointwiseMore2() {
	registerBoth("aten::square", pwSquare)
	registerBoth("aten::clamp_min", pwClampBound("min"))
	registerBoth("aten::clamp_max", pwClampBound("max"))
	registerBoth("aten::clamp_min.Tensor", func(c *ops.Call) ([]any, error) { return ew1MinMax(c, "min", true) })
	registerBoth("aten::clamp_max.Tensor", func(c *ops.Call) ([]any, error) { return ew1MinMax(c, "max", false) })
	registerBoth("aten::floor_divide", pwFloorDivide("aten::div.Tensor_mode"))
	registerBoth("aten::floor_divide.Scalar", pwFloorDivide("aten::div.Scalar_mode"))
	registerBoth("aten::softplus", pwSoftplus)
	registerBoth("aten::hardshrink", pwHardshrink)
	registerBoth("aten::mish", pwMish)
	registerBoth("aten::logit", pwLogit)
	registerBoth("aten::threshold", pwThreshold)
	registerBoth("aten::lerp.Scalar", pwLerp)
	registerBoth("aten::lerp.Tensor", pwLerp)
	registerBoth("aten::addcmul", pwAddcmul)
	registerBoth("aten::addcdiv", pwAddcdiv)
	for _, o := range []string{"Tensor", "Scalar_Other", "Scalar_Self"} {
		registerBoth("aten::xlogy."+o, pwXlogy)
	}
	registerBoth("aten::copysign.Tensor", pwCopysign)
	registerBoth("aten::copysign.Scalar", pwCopysign)
	registerBoth("aten::hypot", pwHypot)
	registerBoth("aten::nan_to_num", pwNanToNum)
}

// pwDelegate calls the operator name with args and kwargs on behalf of c,
// whose arguments it shares the names of: an error blaming an argument is
// reported as c's.
func pwDelegate(c *ops.Call, name string, args []any, kwargs map[string]any) ([]any, error) {
	out, err := op(name).Call(args, kwargs)
	if ce, ok := err.(*ops.CallError); ok && ce.Arg != "" {
		return nil, c.Errorf(ce.Arg, "%v", ce.Err)
	}
	return out, err
}

// pwSquare is aten::square, which ATen computes as pow(self, 2): bool
// becomes int64, integers wrap.
func pwSquare(c *ops.Call) ([]any, error) {
	return pwDelegate(c, "aten::pow.Tensor_Scalar", []any{c.Tensor("self"), int64(2)}, nil)
}

// pwClampBound returns the kernel of aten::clamp_min ("min") or clamp_max
// ("max") with a Scalar bound: clamp with one bound, except that a NaN
// bound fills the output with NaN (for any floating dtype, float16 too).
func pwClampBound(bound string) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		self := c.Tensor("self")
		s := ew1ScalarArg(c, bound)
		if s.IsFloat() && math.IsNaN(s.Float()) {
			dt := self.DType()
			if !dt.IsFloat() {
				dt = tensor.Float32 // result_type(integral tensor, float)
			}
			if self.IsMeta() {
				return one(tensor.Must(empty(true, dt, self.Shape()))), nil
			}
			return one(tensor.Must(tensor.Full(dt, math.NaN(), self.Shape()...))), nil
		}
		return pwDelegate(c, "aten::clamp", []any{self}, map[string]any{bound: s})
	}
}

// pwFloorDivide returns the kernel of aten::floor_divide (Tensor or
// Scalar): in PyTorch 1.13 it is div with rounding_mode="floor".
func pwFloorDivide(div string) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		return pwDelegate(c, div, []any{c.Arg("self"), c.Arg("other")}, map[string]any{"rounding_mode": "floor"})
	}
}

// pwScalarTo converts the Scalar argument name to dtype dt as c10's
// checked Scalar::to<T> does (floats truncate toward zero for integral dt;
// overflow is an error) and returns it as a float64 and an int64.
func pwScalarTo(c *ops.Call, name string, dt tensor.DType) (float64, int64, error) {
	s := ew1ScalarArg(c, name)
	if err := ew1CheckFits(c, name, s, dt); err != nil {
		return 0, 0, err
	}
	t := s.Tensor(dt)
	return t.Float64s()[0], t.Int64s()[0], nil
}

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

// pwLerpOf is ATen's lerp in its opmath precision (rounding each step with
// r): self + w*(end-self) for |w| < 0.5, end - (end-self)*(1-w) otherwise.
func pwLerpOf(r func(float64) float64, s, e, w float64) float64 {
	if math.Abs(w) < 0.5 {
		return r(s + r(w*r(e-s)))
	}
	return r(e - r(r(e-s)*r(1-w)))
}

// pwLerp is aten::lerp.Scalar and aten::lerp.Tensor: self, end (and a
// tensor weight) must share a floating dtype other than float16.
func pwLerp(c *ops.Call) ([]any, error) {
	self, end := c.Tensor("self"), c.Tensor("end")
	dt := self.DType()
	if end.DType() != dt {
		return nil, c.Errorf("end", "expected dtype %s for `end` but got dtype %s", demangledTypeName(dt), demangledTypeName(end.DType()))
	}
	wt, isT := c.Arg("weight").(*tensor.Tensor)
	kernel := "lerp_kernel_scalar"
	shapes := [][]int{self.Shape(), end.Shape()}
	if isT {
		kernel = "lerp_kernel_tensor"
		if wt.DType() != dt {
			return nil, c.Errorf("weight", "expected dtype %s for `weight` but got dtype %s", demangledTypeName(dt), demangledTypeName(wt.DType()))
		}
		shapes = append(shapes, wt.Shape())
	}
	shape, err := ops.BroadcastShapes(shapes...)
	if err != nil {
		return nil, c.Errorf("end", "%v", err)
	}
	isMeta := meta(self, end, wt)
	if (!dt.IsFloat() || dt == tensor.Float16) && !isMeta {
		return nil, notImplemented(c, "self", kernel, dt)
	}
	ct := computeType(dt)
	var w float64
	if !isT {
		// Scalar::to<scalar_t>, then opmath: bfloat16 weights round twice.
		if w, _, err = pwScalarTo(c, "weight", dt); err != nil {
			return nil, err
		}
	}
	if isMeta {
		return one(tensor.Must(empty(true, dt, shape))), nil
	}
	r := rounder(ct)
	if !isT {
		return one(mapBinary(self, end, shape, dt, func(s, e float64) float64 { return pwLerpOf(r, s, e, w) }, nil)), nil
	}
	return one(pwMap3(self, end, wt, shape, dt, func(s, e, w float64) float64 { return pwLerpOf(r, s, e, w) }, nil)), nil
}

// pwAddc reads addcmul's and addcdiv's operands: their result dtype, the
// broadcast shape and value converted to the dtype.
func pwAddc(c *ops.Call, kernel string) (dt tensor.DType, shape []int, vf float64, vi int64, err error) {
	self, t1, t2 := c.Tensor("self"), c.Tensor("tensor1"), c.Tensor("tensor2")
	if dt, err = ops.ResultType(self, t1, t2); err != nil {
		return
	}
	if shape, err = ops.BroadcastShapes(self.Shape(), t1.Shape(), t2.Shape()); err != nil {
		err = c.Errorf("tensor2", "%v", err)
		return
	}
	if (dt == tensor.Bool || dt == tensor.Float16) && !meta(self, t1, t2) {
		err = notImplemented(c, "self", kernel, dt)
		return
	}
	vf, vi, err = pwScalarTo(c, "value", dt)
	return
}

// pwAddcmul is aten::addcmul: self + value*tensor1*tensor2 in the result
// dtype of the three tensors (integers wrap).
func pwAddcmul(c *ops.Call) ([]any, error) {
	dt, shape, vf, vi, err := pwAddc(c, "addcmul_cpu_out")
	if err != nil {
		return nil, err
	}
	self, t1, t2 := c.Tensor("self"), c.Tensor("tensor1"), c.Tensor("tensor2")
	if meta(self, t1, t2) {
		return one(tensor.Must(empty(true, dt, shape))), nil
	}
	r := rounder(computeType(dt))
	return one(pwMap3(to(self, dt), to(t1, dt), to(t2, dt), shape, dt,
		func(s, a, b float64) float64 { return s + r(r(vf*a)*b) },
		func(s, a, b int64) int64 { return s + vi*a*b })), nil
}

// pwAddcdiv is aten::addcdiv: self + value*tensor1/tensor2; integer
// division (tensor1 and tensor2 both integral or bool) is an error.
func pwAddcdiv(c *ops.Call) ([]any, error) {
	t1, t2 := c.Tensor("tensor1"), c.Tensor("tensor2")
	if !t1.DType().IsFloat() && !t2.DType().IsFloat() {
		return nil, c.Errorf("tensor2", "Integer division with addcdiv is no longer supported, and in a future  "+
			"release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "+
			"behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) "+
			"for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "+
			"addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.")
	}
	dt, shape, vf, _, err := pwAddc(c, "addcdiv_cpu_out")
	if err != nil {
		return nil, err
	}
	self := c.Tensor("self")
	if meta(self, t1, t2) {
		return one(tensor.Must(empty(true, dt, shape))), nil
	}
	r := rounder(computeType(dt))
	return one(pwMap3(to(self, dt), to(t1, dt), to(t2, dt), shape, dt,
		func(s, a, b float64) float64 { return s + r(r(vf*a)/b) }, nil)), nil
}

// pwFloatBinary returns f over the operands self and other (Tensors or
// Scalars) in their result dtype, integral and bool inputs computing in
// float32; kernel names the CPU kernel for the dtype errors: floatOnly
// ones reject integral inputs, and noHalf ones float16.
func pwFloatBinary(c *ops.Call, kernel string, floatOnly, noHalf bool, f floatFn2) ([]any, error) {
	o, err := ew1Binary(c, "self", "other")
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

// pwXlogy is aten::xlogy (Tensor, Scalar_Other and Scalar_Self): NaN where
// other is NaN, else 0 where self is 0, else self*log(other).
func pwXlogy(c *ops.Call) ([]any, error) {
	return pwFloatBinary(c, "xlogy_cpu", false, false, func(x, y float64) float64 {
		switch {
		case y != y:
			return math.NaN()
		case x == 0:
			return 0
		}
		return x * pwLog(y)
	})
}

// pwCopysign is aten::copysign (Tensor and Scalar): |self| with the sign
// of other.
func pwCopysign(c *ops.Call) ([]any, error) {
	return pwFloatBinary(c, "copysign_cpu", false, false, math.Copysign)
}

// pwHypot is aten::hypot: sqrt(self² + other²) for floating dtypes other
// than float16.
func pwHypot(c *ops.Call) ([]any, error) {
	return pwFloatBinary(c, "hypot_cpu", true, true, math.Hypot)
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
