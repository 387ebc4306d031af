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

func init() {
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
			return nil, ew1NotImplemented(c, "self", kernel, o.dt)
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
		return pwMinMax(c, "min", true)
	case lo == nil:
		return pwMinMax(c, "max", false)
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
		return nil, ew1NotImplemented(c, "self", "clamp_cpu", dt)
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

// pwMinMax returns the elementwise maximum (isMax) or minimum of self and
// the tensor argument other in their result dtype, NaN if either is NaN
// (bool: logical or / and), as ATen's maximum and minimum compute it.
func pwMinMax(c *ops.Call, other string, isMax bool) ([]any, error) {
	o, err := ew1Binary(c, "self", other)
	if err != nil {
		return nil, err
	}
	if o.isMeta() {
		return one(tensor.Must(empty(true, o.dt, o.shape))), nil
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
			vals[k] = ew1Round(ct, u.ff(v))
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

// pwLog10 is log10, exact for subnormal x too (Go's math.Log is not on
// amd64: it loses their scale).
func pwLog10(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log2(x) * (math.Ln2 / math.Ln10)
	}
	return math.Log10(x)
}
