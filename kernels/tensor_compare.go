package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Comparisons and selections, ATen's TensorCompare.cpp: where, clamp
// (Scalar and Tensor bounds), clamp_min, clamp_max, isnan, isinf, and
// max.dim and min.dim (values and indices along a dimension), where with
// Scalar branches, clip and isfinite.

// registerTensorCompare registers the kernels of tensor_compare.go.
func registerTensorCompare() {
	registerBoth("aten::where.self", where)
	registerBoth("aten::clamp", clampKernel)
	registerBoth("aten::isnan", isnan)
	registerBoth("aten::isinf", isinf)
	registerBoth("aten::clamp.Tensor", clampTensor)
	registerBoth("aten::clamp_min", clampBound("min"))
	registerBoth("aten::clamp_max", clampBound("max"))
	registerBoth("aten::clamp_min.Tensor", func(c *ops.Call) ([]any, error) { return minMax(c, "min", true) })
	registerBoth("aten::clamp_max.Tensor", func(c *ops.Call) ([]any, error) { return minMax(c, "max", false) })
	registerBoth("aten::max.dim", maxDim)
	registerBoth("aten::min.dim", minDim)
	registerBoth("aten::where.ScalarSelf", whereScalars)
	registerBoth("aten::where.ScalarOther", whereScalars)
	registerBoth("aten::where.Scalar", whereScalars)
	registerBoth("aten::clip", clip)
	registerBoth("aten::clip.Tensor", clip)
	registerBoth("aten::isfinite", isfinite)
}

// where is aten::where.self: self where condition (bool or uint8) holds,
// other elsewhere, in the result dtype of self and other, all three
// broadcast.
func where(c *ops.Call) ([]any, error) {
	cond, a, b := c.Tensor("condition"), c.Tensor("self"), c.Tensor("other")
	if cd := cond.DType(); cd != tensor.Bool && cd != tensor.Uint8 {
		return nil, c.Errorf("condition", "where expected condition to be a boolean tensor, but got a tensor with dtype %s", scalarTypeName(cd))
	}
	dt, err := ops.ResultType(a, b)
	if err != nil {
		return nil, err
	}
	shape, err := ops.BroadcastShapes(cond.Shape(), a.Shape(), b.Shape())
	if err != nil {
		return nil, c.Errorf("other", "%v", err)
	}
	if meta(cond, a, b) {
		return one(tensor.Must(empty(true, dt, shape))), nil
	}
	cv := expandedTensor(cond, shape).Bools()
	a, b = to(a, dt), to(b, dt)
	var out *tensor.Tensor
	switch dt {
	case tensor.Float32:
		out = selectWhere[float32](cv, a, b, shape)
	case tensor.Float64:
		out = selectWhere[float64](cv, a, b, shape)
	case tensor.Float16:
		out = selectWhere[tensor.Half](cv, a, b, shape)
	case tensor.BFloat16:
		out = selectWhere[tensor.BHalf](cv, a, b, shape)
	case tensor.Int64:
		out = selectWhere[int64](cv, a, b, shape)
	case tensor.Int32:
		out = selectWhere[int32](cv, a, b, shape)
	case tensor.Int16:
		out = selectWhere[int16](cv, a, b, shape)
	case tensor.Int8:
		out = selectWhere[int8](cv, a, b, shape)
	case tensor.Uint8:
		out = selectWhere[uint8](cv, a, b, shape)
	default:
		out = selectWhere[bool](cv, a, b, shape)
	}
	return one(out), nil
}

// selectWhere returns a's element where cond holds and b's elsewhere, a and b
// broadcast to shape.
func selectWhere[T tensor.Elem](cond []bool, a, b *tensor.Tensor, shape []int) *tensor.Tensor {
	av, bv := operands[T](a, b, shape)
	out := tensor.Empty(a.DType(), shape...)
	o := tensor.Data[T](out)
	parallelFor(len(o), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if cond[i] {
				o[i] = av[i]
			} else {
				o[i] = bv[i]
			}
		}
	})
	return out
}

// clampKernel is aten::clamp with Scalar bounds: min(max(x, min), max), so
// min > max gives max. A floating self keeps its dtype; otherwise the
// bounds take part in type promotion. Both bounds given with either NaN
// fill NaN; a single NaN bound leaves x unchanged; a NaN x stays NaN.
// float16 is not implemented on CPU.
func clampKernel(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	lo, hasLo := c.OptScalar("min")
	hi, hasHi := c.OptScalar("max")
	if !hasLo && !hasHi {
		return nil, c.Errorf("min", "torch.clamp: At least one of 'min' or 'max' must not be None")
	}
	lo, hi = noBool(lo), noBool(hi)
	dt := self.DType()
	if !dt.IsFloat() {
		prom := []any{self}
		if hasLo {
			prom = append(prom, lo)
		}
		if hasHi {
			prom = append(prom, hi)
		}
		var err error
		if dt, err = ops.ResultType(prom...); err != nil {
			return nil, err
		}
	}
	shape := self.Shape()
	isNaN := func(s ops.Scalar) bool { return s.IsFloat() && math.IsNaN(s.Float()) }
	if hasLo && hasHi && (isNaN(lo) || isNaN(hi)) {
		if self.IsMeta() {
			return one(tensor.Must(empty(true, dt, shape))), nil
		}
		return one(tensor.Must(tensor.Full(dt, math.NaN(), shape...))), nil
	}
	if dt == tensor.Float16 {
		kernel := "clamp_scalar_cpu"
		if !hasHi {
			kernel = "clamp_min_cpu"
		} else if !hasLo {
			kernel = "clamp_max_scalar_cpu"
		}
		return nil, notImplemented(c, "self", kernel, dt)
	}
	if hasLo {
		if err := checkFits(c, "min", lo, dt); err != nil {
			return nil, err
		}
	}
	if hasHi {
		if err := checkFits(c, "max", hi, dt); err != nil {
			return nil, err
		}
	}
	if self.IsMeta() {
		return one(tensor.Must(empty(true, dt, shape))), nil
	}
	// The bounds converted to dt, as Scalar::to<scalar_t>() does.
	var lof, hif float64
	var loi, hii int64
	if hasLo {
		lof = lo.Tensor(dt).Float64s()[0]
		loi = lo.Tensor(dt).Int64s()[0]
	}
	if hasHi {
		hif = hi.Tensor(dt).Float64s()[0]
		hii = hi.Tensor(dt).Int64s()[0]
	}
	return one(mapUnary(self, dt,
		func(x float64) float64 {
			if hasLo && x < lof {
				x = lof
			}
			if hasHi && hif < x {
				x = hif
			}
			return x
		},
		func(x int64) int64 {
			if hasLo && x < loi {
				x = loi
			}
			if hasHi && hii < x {
				x = hii
			}
			return x
		})), nil
}

// isnan is aten::isnan: true where self is NaN (never for integers).
func isnan(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if self.IsMeta() {
		return one(tensor.Must(empty(true, tensor.Bool, self.Shape()))), nil
	}
	out := make([]bool, self.Numel())
	if self.DType().IsFloat() {
		for i, v := range self.Float64s() {
			out[i] = v != v
		}
	}
	return one(tensor.Must(tensor.FromSlice(out, self.Shape()...))), nil
}

// isinf is aten::isinf: true where self is ±inf (never for integers).
func isinf(c *ops.Call) ([]any, error) {
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

// clampTensor is aten::clamp.Tensor: self clamped to tensor bounds, all
// three operands type-promoted together and broadcast. With both bounds it
// is min(max(x, min), max) (max wins when min > max) and NaN where any
// operand is NaN; bool and float16 are not implemented then. With one bound
// it is maximum (min) or minimum (max), which accept every dtype.
func clampTensor(c *ops.Call) ([]any, error) {
	self, lo, hi := c.Tensor("self"), c.Tensor("min"), c.Tensor("max")
	switch {
	case lo == nil && hi == nil:
		return nil, c.Errorf("min", "torch.clamp: At least one of 'min' or 'max' must not be None")
	case hi == nil:
		return minMax(c, "min", true)
	case lo == nil:
		return minMax(c, "max", false)
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
	return one(map3(to(self, dt), to(lo, dt), to(hi, dt), shape, dt,
		func(x, l, h float64) float64 {
			if l != l || h != h {
				return math.NaN()
			}
			return clampFloat(x, l, h)
		},
		func(x, l, h int64) int64 { return min(max(x, l), h) })), nil
}

// clampBound returns the kernel of aten::clamp_min ("min") or clamp_max
// ("max") with a Scalar bound: clamp with one bound, except that a NaN
// bound fills the output with NaN (for any floating dtype, float16 too).
func clampBound(bound string) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		self := c.Tensor("self")
		s := scalarArg(c, bound)
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
		return delegate(c, "aten::clamp", []any{self}, map[string]any{bound: s})
	}
}

// minMaxDim implements max.dim and min.dim: values and indices of the
// first extreme element along dim.
func minMaxDim(c *ops.Call, name string, greater bool) ([]any, error) {
	self := c.Tensor("self")
	mask, shape, err := indexReduce(c, name, self, c.Int("dim"), true)
	if err != nil {
		return nil, err
	}
	if self.IsMeta() {
		return []any{tensor.Must(tensor.NewMeta(self.DType(), shape...)), tensor.Must(tensor.NewMeta(tensor.Int64, shape...))}, nil
	}
	v, i := argIndices(self, mask, shape, greater)
	return []any{v, i}, nil
}

// maxDim is aten::max.dim.
func maxDim(c *ops.Call) ([]any, error) { return minMaxDim(c, "max", true) }

// minDim is aten::min.dim.
func minDim(c *ops.Call) ([]any, error) { return minMaxDim(c, "min", false) }

// whereScalars is aten::where.ScalarSelf, .ScalarOther and .Scalar: where
// with Scalar branches, which promote as wrapped numbers do.
func whereScalars(c *ops.Call) ([]any, error) {
	a, b := c.Arg("self"), c.Arg("other")
	pa, pb := a, b
	if s, ok := a.(ops.Scalar); ok {
		pa = noBool(s)
	}
	if s, ok := b.(ops.Scalar); ok {
		pb = noBool(s)
	}
	dt, err := ops.ResultType(pa, pb)
	if err != nil {
		return nil, c.Errorf("other", "%v", err)
	}
	wrap := func(v any) *tensor.Tensor {
		if s, ok := v.(ops.Scalar); ok {
			return s.Tensor(dt)
		}
		return v.(*tensor.Tensor)
	}
	return delegate(c, "aten::where.self", []any{c.Tensor("condition"), wrap(a), wrap(b)}, nil)
}

// clip is aten::clip and clip.Tensor: clamp.
func clip(c *ops.Call) ([]any, error) {
	name := "aten::clamp"
	if _, ok := c.Arg("min").(*tensor.Tensor); ok {
		name = "aten::clamp.Tensor"
	} else if _, ok := c.Arg("max").(*tensor.Tensor); ok {
		name = "aten::clamp.Tensor"
	} else if c.Op.Schema().Overload == "Tensor" {
		name = "aten::clamp.Tensor"
	}
	return delegate(c, name, []any{c.Tensor("self"), c.Arg("min"), c.Arg("max")}, nil)
}

// isfinite is aten::isfinite: true where self is neither infinite nor
// NaN (always for integers).
func isfinite(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if self.IsMeta() || !self.DType().IsFloat() {
		return oneOrErr(fullTensor(self.IsMeta(), tensor.Bool, self.Shape(), ops.BoolScalar(true)))
	}
	vals := self.Float64s()
	out := make([]int64, len(vals))
	for i, v := range vals {
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			out[i] = 1
		}
	}
	return oneOrErr(tensor.FromInt64s(tensor.Bool, out, self.Shape()...))
}
