package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Powers, ATen's Pow.cpp: pow.Tensor_Tensor, pow.Tensor_Scalar and
// pow.Scalar, with binary_ops.go's operand handling.

// registerPow registers the kernels of pow.go.
func registerPow() {
	registerBoth("aten::pow.Tensor_Scalar", powTensorScalar)
	registerBoth("aten::pow.Tensor_Tensor", powTensorTensor)
	registerBoth("aten::pow.Scalar", powScalar)
}

// powi is ATen's powi: exact integer power by squaring, wrapping; a
// negative exponent gives 1 for base 1, ±1 for base -1 and 0 otherwise.
func powi(a, b int64) int64 {
	if b < 0 {
		switch a {
		case 1:
			return 1
		case -1:
			if b%2 != 0 {
				return -1
			}
			return 1
		}
		return 0
	}
	r := int64(1)
	for b != 0 {
		if b&1 != 0 {
			r *= a
		}
		b /= 2
		a *= a
	}
	return r
}

// pow returns base**exp over o in o.dt (pow.Tensor_Tensor's kernel).
func pow(c *ops.Call, o *binaryOperands, baseArg string) ([]any, error) {
	if o.dt == tensor.Bool {
		return nil, notImplemented(c, baseArg, "pow", o.dt)
	}
	a, b := o.cast(o.dt)
	return one(mapBinary(a, b, o.shape, o.dt, math.Pow, powi)), nil
}

// powTensorTensor is aten::pow.Tensor_Tensor.
func powTensorTensor(c *ops.Call) ([]any, error) {
	o, err := binary(c, "self", "exponent")
	if err != nil {
		return nil, err
	}
	return pow(c, o, "self")
}

// powScalar is aten::pow.Scalar: a number raised to a tensor.
func powScalar(c *ops.Call) ([]any, error) {
	o, err := binary(c, "self", "exponent")
	if err != nil {
		return nil, err
	}
	base := scalarArg(c, "self")
	if base.Float() == 1 {
		if o.isMeta() {
			return one(tensor.Must(empty(true, o.dt, o.shape))), nil
		}
		return one(tensor.Must(tensor.Full(o.dt, 1, o.shape...))), nil
	}
	return pow(c, o, "exponent")
}

// powTensorScalar is aten::pow.Tensor_Scalar, with ATen's fast paths:
// exponent 0 fills ones, 1 copies; for float, double and bfloat16 the
// exponents 0.5, -0.5, -1, 2, 3 and -2 use sqrt, rsqrt, reciprocal and
// products; float16 uses pow with the exponent rounded to float16.
func powTensorScalar(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	exp := scalarArg(c, "exponent")
	if !self.DType().IsFloat() && !exp.IsFloat() && exp.Int() < 0 {
		return nil, c.Errorf("exponent", "Integers to negative integer powers are not allowed.")
	}
	dt, err := ops.ResultType(self, exp)
	if err != nil {
		return nil, err
	}
	shape := self.Shape()
	ef := exp.Float()
	if ef != 0 && ef != 1 && dt != tensor.Float32 {
		// ATen converts the exponent to double for float and double, to
		// the dtype otherwise.
		if err := checkFits(c, "exponent", exp, dt); err != nil {
			return nil, err
		}
	}
	if self.IsMeta() {
		return one(tensor.Must(empty(true, dt, shape))), nil
	}
	x := to(self, dt)
	switch {
	case ef == 0:
		return one(tensor.Must(tensor.Full(dt, 1, shape...))), nil
	case ef == 1:
		return one(x.Clone()), nil
	case !dt.IsFloat():
		e := exp.Int()
		return one(mapUnary(x, dt, nil, func(v int64) int64 { return powi(v, e) })), nil
	case dt == tensor.Float16:
		e := roundTo(dt, ef)
		return one(mapUnary(x, dt, func(v float64) float64 { return math.Pow(v, e) }, nil)), nil
	}
	r := func(v float64) float64 { return roundTo(dt, v) }
	var ff floatFn1
	switch ef {
	case 0.5:
		ff = math.Sqrt
	case -0.5:
		ff = func(v float64) float64 { return 1 / r(math.Sqrt(v)) }
	case -1:
		ff = func(v float64) float64 { return 1 / v }
	}
	if ff == nil {
		e := ef
		if dt == tensor.BFloat16 {
			e = r(ef)
		}
		switch e {
		case 2:
			ff = func(v float64) float64 { return v * v }
		case 3:
			ff = func(v float64) float64 { return r(v*v) * v }
		case -2:
			ff = func(v float64) float64 { return 1 / r(v*v) }
		default:
			ff = func(v float64) float64 { return math.Pow(v, e) }
			if e32 := float64(float32(e)); dt == tensor.Float32 && e32 != e {
				// The vectorized loop converts the exponent to float.
				nv := x.Numel() / vecWidth(dt) * vecWidth(dt)
				vals := x.Float64s()
				for k, v := range vals {
					if k < nv {
						vals[k] = math.Pow(v, e32)
					} else {
						vals[k] = math.Pow(v, e)
					}
				}
				return one(tensor.Must(tensor.FromFloat64s(dt, vals, shape...))), nil
			}
		}
	}
	return one(mapUnary(x, dt, ff, nil)), nil
}
