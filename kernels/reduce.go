package kernels

import (
	"fmt"
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Reductions (sum, mean, prod, var, amax, amin, any, argmax, argmin,
// max.dim, min.dim), scans (cumsum) and softmax. Every kernel moves the
// reduced dimensions last and makes the result contiguous (redMoveLast), so
// that each output element reduces one contiguous row. Floating-point
// reductions accumulate in float64 and round to the output dtype once;
// PyTorch accumulates float32 pairwise in float32, which is less accurate
// and within the accumulation tolerance of our result.

func registerReduce() {
	registerBoth("aten::sum", redSumDefault)
	registerBoth("aten::sum.dim_IntList", redSumDimIntList)
	registerBoth("aten::mean.dim", redMeanDim)
	registerBoth("aten::prod.dim_int", redProdDimInt)
	registerBoth("aten::var.correction", redVarCorrection)
	registerBoth("aten::amax", redAmax)
	registerBoth("aten::amin", redAmin)
	registerBoth("aten::any.dim", redAnyDim)
	registerBoth("aten::argmax", redArgmax)
	registerBoth("aten::argmin", redArgmin)
	registerBoth("aten::max.dim", redMaxDim)
	registerBoth("aten::min.dim", redMinDim)
	registerBoth("aten::cumsum", redCumsum)
	registerBoth("aten::_softmax", redSoftmaxPrivate)
	registerBoth("aten::_log_softmax", redLogSoftmaxPrivate)
	registerBoth("aten::softmax.int", redSoftmaxInt)
	registerBoth("aten::log_softmax.int", redLogSoftmaxInt)
}

// redWrapDim normalizes one dimension argument against rank (a 0-d tensor
// accepts 0 and -1), blaming arg.
func redWrapDim(c *ops.Call, arg string, d int64, rank int) (int, error) {
	if d < math.MinInt32 || d > math.MaxInt32 {
		return 0, c.Errorf(arg, "dimension out of range: %d", d)
	}
	nd, err := tensor.NormDim(int(d), rank)
	if err != nil {
		return 0, c.Errorf(arg, "%v", err)
	}
	return nd, nil
}

// redDimMask turns a dimension list into a mask over rank dimensions (a
// 0-d tensor has one pseudo-dimension); an empty or nil list selects every
// dimension, as ATen's reductions do. Repeated dimensions are an error.
func redDimMask(c *ops.Call, arg string, dims []int64, rank int) ([]bool, error) {
	n := max(rank, 1)
	mask := make([]bool, n)
	if len(dims) == 0 {
		for i := range mask {
			mask[i] = true
		}
		return mask, nil
	}
	for _, d := range dims {
		nd, err := redWrapDim(c, arg, d, rank)
		if err != nil {
			return nil, err
		}
		if mask[nd] {
			return nil, c.Errorf(arg, "dim %d appears multiple times in the list of dims", nd)
		}
		mask[nd] = true
	}
	return mask, nil
}

// redSingleMask is the mask of the single dimension d (already
// normalized).
func redSingleMask(rank, d int) []bool {
	mask := make([]bool, max(rank, 1))
	mask[d] = true
	return mask
}

// redOutShape returns the shape of a reduction of shape over mask: reduced
// dimensions are dropped, or kept as size 1 with keepdim.
func redOutShape(shape []int, mask []bool, keepdim bool) []int {
	out := []int{}
	for i, s := range shape {
		switch {
		case !mask[i]:
			out = append(out, s)
		case keepdim:
			out = append(out, 1)
		}
	}
	return out
}

// redCount returns the number of elements each output element reduces.
func redCount(shape []int, mask []bool) int {
	n := 1
	for i, s := range shape {
		if mask[i] {
			n *= s
		}
	}
	return n
}

// redMoveLast permutes t so that the dimensions of mask come last (each
// group keeping its order) and makes it contiguous: the result holds outer
// rows of inner elements, row r reducing to output element r of the
// reduction with keepdim=false. perm is the permutation applied (a view of
// the result with perm's inverse has t's shape). A 0-d t is one row of one
// element.
func redMoveLast(t *tensor.Tensor, mask []bool) (p *tensor.Tensor, perm []int, outer, inner int) {
	shape := t.Shape()
	outer, inner = 1, 1
	var kept, reduced []int
	for i, s := range shape {
		if mask[i] {
			reduced = append(reduced, i)
			inner *= s
		} else {
			kept = append(kept, i)
			outer *= s
		}
	}
	perm = append(kept, reduced...)
	if perm == nil {
		perm = []int{}
	}
	p = tensor.Must(t.Permute(perm...))
	if !t.IsMeta() {
		p = p.Contiguous()
	}
	return p, perm, outer, inner
}

// redInverse returns the inverse of permutation perm.
func redInverse(perm []int) []int {
	inv := make([]int, len(perm))
	for i, p := range perm {
		inv[p] = i
	}
	return inv
}

// redRows calls f for every row in [0, outer), splitting the rows over the
// cores with parallelFor when there are many elements in all.
func redRows(outer, inner int, f func(r int)) {
	if inner <= 1 || outer <= 1 {
		parallelFor(outer, func(lo, hi int) {
			for r := lo; r < hi; r++ {
				f(r)
			}
		})
		return
	}
	// Split the element range; each row goes to the chunk holding its first
	// element.
	parallelFor(outer*inner, func(lo, hi int) {
		for r := (lo + inner - 1) / inner; r*inner < hi; r++ {
			f(r)
		}
	})
}

// redSumF64 returns the sum of vals with Neumaier's compensated summation:
// at least as accurate as PyTorch's pairwise sums. Infinities and NaN
// propagate as in plain summation.
func redSumF64(vals []float64) float64 {
	var s, comp float64
	for _, v := range vals {
		t := s + v
		if math.Abs(s) >= math.Abs(v) {
			comp += (s - t) + v
		} else {
			comp += (v - t) + s
		}
		s = t
	}
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return s
	}
	return s + comp
}

// redFloatResult returns a tensor of dt and shape holding vals (rounded to
// dt), or a meta tensor.
func redFloatResult(isMeta bool, dt tensor.DType, vals []float64, shape []int) *tensor.Tensor {
	if isMeta {
		return tensor.Must(tensor.NewMeta(dt, shape...))
	}
	return tensor.Must(tensor.FromFloat64s(dt, vals, shape...))
}

// redIntResult returns a tensor of dt and shape holding vals (wrapped to
// dt; nonzero is true for Bool).
func redIntResult(dt tensor.DType, vals []int64, shape []int) *tensor.Tensor {
	return tensor.Must(tensor.FromInt64s(dt, vals, shape...))
}

// redAccType returns the output dtype of sum, prod and cumsum: dtype when
// given, int64 for integral and bool inputs, the input's dtype otherwise.
func redAccType(c *ops.Call, self *tensor.Tensor) tensor.DType {
	if dt, ok := c.DType("dtype"); ok {
		return dt
	}
	if self.DType().IsFloat() {
		return self.DType()
	}
	return tensor.Int64
}

// redSum sums x over mask into dtype dt (x is converted to dt first, as
// ATen does): floats in float64, integers in wrapping int64 arithmetic,
// bool as "any nonzero".
func redSum(x *tensor.Tensor, mask []bool, keepdim bool, dt tensor.DType) *tensor.Tensor {
	shape := redOutShape(x.Shape(), mask, keepdim)
	if x.IsMeta() {
		return tensor.Must(tensor.NewMeta(dt, shape...))
	}
	x = to(x, dt)
	p, _, outer, inner := redMoveLast(x, mask)
	if dt.IsFloat() {
		vals := p.Float64s()
		out := make([]float64, outer)
		redRows(outer, inner, func(r int) { out[r] = redSumF64(vals[r*inner : (r+1)*inner]) })
		return redFloatResult(false, dt, out, shape)
	}
	vals := p.Int64s()
	out := make([]int64, outer)
	redRows(outer, inner, func(r int) {
		var s int64
		for _, v := range vals[r*inner : (r+1)*inner] {
			s += v
		}
		out[r] = s
	})
	return redIntResult(dt, out, shape)
}

// redSumDefault is aten::sum.default: the sum of all elements.
func redSumDefault(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt := redAccType(c, self)
	mask, _ := redDimMask(c, "dim", nil, self.Dim())
	return one(redSum(self, mask, false, dt)), nil
}

// redSumDimIntList is aten::sum.dim_IntList: the sum over dim (None or []
// meaning every dimension), integral and bool inputs summing to int64
// unless dtype says otherwise.
func redSumDimIntList(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	mask, err := redDimMask(c, "dim", c.Ints("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	dt := redAccType(c, self)
	return one(redSum(self, mask, c.Bool("keepdim"), dt)), nil
}

// redMeanDim is aten::mean.dim: sum over dim rounded to the output dtype,
// divided by the number of reduced elements (NaN when there are none), as
// ATen's CPU mean does. The output dtype must be floating.
func redMeanDim(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt, given := c.DType("dtype")
	switch {
	case given && !dt.IsFloat():
		return nil, c.Errorf("dtype", "mean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. Got: %s", scalarTypeName(dt))
	case !given && !self.DType().IsFloat():
		return nil, c.Errorf("self", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %s", scalarTypeName(self.DType()))
	case !given:
		dt = self.DType()
	}
	mask, err := redDimMask(c, "dim", c.Ints("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	keepdim := c.Bool("keepdim")
	s := redSum(self, mask, keepdim, dt)
	if s.IsMeta() {
		return one(s), nil
	}
	n := float64(redCount(self.Shape(), mask))
	vals := s.Float64s()
	for i, v := range vals {
		vals[i] = roundTo(dt, v/n)
	}
	return one(redFloatResult(false, dt, vals, s.Shape())), nil
}

// redProdDimInt is aten::prod.dim_int: the product over one dimension
// (1 for an empty one), integral and bool inputs giving int64 unless dtype
// says otherwise.
func redProdDimInt(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	d, err := redWrapDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	dt := redAccType(c, self)
	mask := redSingleMask(self.Dim(), d)
	shape := redOutShape(self.Shape(), mask, c.Bool("keepdim"))
	if self.Numel() > 0 && (dt == tensor.Float16 || dt == tensor.BFloat16) {
		arg := "self"
		if _, ok := c.DType("dtype"); ok {
			arg = "dtype"
		}
		return nil, notImplemented(c, arg, "prod_cpu", dt)
	}
	if self.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(dt, shape...))), nil
	}
	x := to(self, dt)
	p, _, outer, inner := redMoveLast(x, mask)
	if dt.IsFloat() {
		vals := p.Float64s()
		out := make([]float64, outer)
		redRows(outer, inner, func(r int) {
			s := 1.0
			for _, v := range vals[r*inner : (r+1)*inner] {
				s *= v
			}
			out[r] = s
		})
		return one(redFloatResult(false, dt, out, shape)), nil
	}
	vals := p.Int64s()
	out := make([]int64, outer)
	redRows(outer, inner, func(r int) {
		s := int64(1)
		for _, v := range vals[r*inner : (r+1)*inner] {
			s *= v
		}
		out[r] = s
	})
	return one(redIntResult(dt, out, shape)), nil
}

// redVarCorrection is aten::var.correction: Σ(x-mean)² / max(0, N -
// correction) over dim (None or [] meaning every dimension), correction
// defaulting to 1.
func redVarCorrection(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if !self.DType().IsFloat() {
		return nil, c.Errorf("self", "std and var only support floating point and complex dtypes")
	}
	mask, err := redDimMask(c, "dim", c.Ints("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	corr := int64(1)
	if v, ok := c.OptInt("correction"); ok {
		corr = v
	}
	dt := self.DType()
	shape := redOutShape(self.Shape(), mask, c.Bool("keepdim"))
	if self.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(dt, shape...))), nil
	}
	p, _, outer, inner := redMoveLast(self, mask)
	vals := p.Float64s()
	out := make([]float64, outer)
	divisor := max(0, float64(inner)-float64(corr))
	redRows(outer, inner, func(r int) {
		row := vals[r*inner : (r+1)*inner]
		mean := redSumF64(row) / float64(len(row))
		var m2 float64
		for _, v := range row {
			d := v - mean
			m2 += d * d
		}
		out[r] = m2 / divisor
	})
	return one(redFloatResult(false, dt, out, shape)), nil
}

// redCheckNonEmpty is ATen's zero_numel_check_dims: reducing an empty
// tensor needs explicit dimensions of nonzero size.
func redCheckNonEmpty(c *ops.Call, name string, self *tensor.Tensor, mask []bool, explicit bool) error {
	if self.Numel() != 0 {
		return nil
	}
	if !explicit {
		return c.Errorf("self", "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", name)
	}
	for i, s := range self.Shape() {
		if mask[i] && s == 0 {
			return c.Errorf("dim", "%s(): Expected reduction dim %d to have non-zero size.", name, i)
		}
	}
	return nil
}

// redExtreme implements amax and amin: the largest (smallest) element over
// dim ([] meaning every dimension); NaN propagates.
func redExtreme(c *ops.Call, name string, greater bool) ([]any, error) {
	self := c.Tensor("self")
	dims := c.Ints("dim")
	mask, err := redDimMask(c, "dim", dims, self.Dim())
	if err != nil {
		return nil, err
	}
	if err := redCheckNonEmpty(c, name, self, mask, len(dims) > 0); err != nil {
		return nil, err
	}
	dt := self.DType()
	shape := redOutShape(self.Shape(), mask, c.Bool("keepdim"))
	if self.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(dt, shape...))), nil
	}
	p, _, outer, inner := redMoveLast(self, mask)
	if dt.IsFloat() {
		vals := p.Float64s()
		out := make([]float64, outer)
		redRows(outer, inner, func(r int) {
			row := vals[r*inner : (r+1)*inner]
			out[r] = row[redArgExtremeF(row, greater)]
		})
		return one(redFloatResult(false, dt, out, shape)), nil
	}
	vals := p.Int64s()
	out := make([]int64, outer)
	redRows(outer, inner, func(r int) {
		row := vals[r*inner : (r+1)*inner]
		out[r] = row[redArgExtremeI(row, greater)]
	})
	return one(redIntResult(dt, out, shape)), nil
}

// redAmax is aten::amax.
func redAmax(c *ops.Call) ([]any, error) { return redExtreme(c, "amax", true) }

// redAmin is aten::amin.
func redAmin(c *ops.Call) ([]any, error) { return redExtreme(c, "amin", false) }

// redArgExtremeF returns the index of the first largest (smallest when
// !greater) element of a non-empty row; a NaN counts as larger (smaller)
// than everything, so the first NaN wins.
func redArgExtremeF(row []float64, greater bool) int {
	best, bv := 0, row[0]
	if math.IsNaN(bv) {
		return 0
	}
	for i := 1; i < len(row); i++ {
		v := row[i]
		if math.IsNaN(v) {
			return i
		}
		if (greater && v > bv) || (!greater && v < bv) {
			best, bv = i, v
		}
	}
	return best
}

// redArgExtremeI returns the index of the first largest (smallest when
// !greater) element of a non-empty row.
func redArgExtremeI(row []int64, greater bool) int {
	best, bv := 0, row[0]
	for i := 1; i < len(row); i++ {
		v := row[i]
		if (greater && v > bv) || (!greater && v < bv) {
			best, bv = i, v
		}
	}
	return best
}

// redAnyDim is aten::any.dim: whether any element over dim is nonzero (NaN
// counts); bool output, except uint8 input gives uint8.
func redAnyDim(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	d, err := redWrapDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	mask := redSingleMask(self.Dim(), d)
	shape := redOutShape(self.Shape(), mask, c.Bool("keepdim"))
	dt := tensor.Bool
	if self.DType() == tensor.Uint8 {
		dt = tensor.Uint8
	}
	if self.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(dt, shape...))), nil
	}
	p, _, outer, inner := redMoveLast(self, mask)
	vals := p.Bools()
	out := make([]int64, outer)
	redRows(outer, inner, func(r int) {
		for _, v := range vals[r*inner : (r+1)*inner] {
			if v {
				out[r] = 1
				return
			}
		}
	})
	return one(redIntResult(dt, out, shape)), nil
}

// redIndexReduce validates an argmax-style reduction of self over the
// optional dimension dim (every dimension, flattened, when absent) and
// returns its mask and output shape.
func redIndexReduce(c *ops.Call, name string, self *tensor.Tensor, dim int64, hasDim bool) ([]bool, []int, error) {
	keepdim := c.Bool("keepdim")
	if !hasDim {
		mask, _ := redDimMask(c, "dim", nil, self.Dim())
		if self.Numel() == 0 {
			return nil, nil, c.Errorf("self", "%s(): Expected reduction dim to be specified for input.numel() == 0.", name)
		}
		return mask, redOutShape(self.Shape(), mask, keepdim), nil
	}
	d, err := redWrapDim(c, "dim", dim, self.Dim())
	if err != nil {
		return nil, nil, err
	}
	mask := redSingleMask(self.Dim(), d)
	if err := redCheckNonEmpty(c, name, self, mask, true); err != nil {
		return nil, nil, err
	}
	return mask, redOutShape(self.Shape(), mask, keepdim), nil
}

// redArgIndices returns, per output row, the index of the first largest
// (smallest) element, NaN winning, and the element itself as a tensor of
// self's dtype and shape.
func redArgIndices(self *tensor.Tensor, mask []bool, shape []int, greater bool) (values, indices *tensor.Tensor) {
	p, _, outer, inner := redMoveLast(self, mask)
	idx := make([]int64, outer)
	if self.DType().IsFloat() {
		vals := p.Float64s()
		out := make([]float64, outer)
		redRows(outer, inner, func(r int) {
			row := vals[r*inner : (r+1)*inner]
			i := redArgExtremeF(row, greater)
			idx[r], out[r] = int64(i), row[i]
		})
		return redFloatResult(false, self.DType(), out, shape), redIntResult(tensor.Int64, idx, shape)
	}
	vals := p.Int64s()
	out := make([]int64, outer)
	redRows(outer, inner, func(r int) {
		row := vals[r*inner : (r+1)*inner]
		i := redArgExtremeI(row, greater)
		idx[r], out[r] = int64(i), row[i]
	})
	return redIntResult(self.DType(), out, shape), redIntResult(tensor.Int64, idx, shape)
}

// redArg implements argmax and argmin.
func redArg(c *ops.Call, name string, greater bool) ([]any, error) {
	self := c.Tensor("self")
	dim, hasDim := c.OptInt("dim")
	mask, shape, err := redIndexReduce(c, name, self, dim, hasDim)
	if err != nil {
		return nil, err
	}
	// ATen fills zeros without dispatching on the dtype when the reduced
	// dimension has size 1 (or the input is empty).
	trivial := self.Numel() == 0 || (hasDim && redCount(self.Shape(), mask) == 1)
	if self.DType() == tensor.Bool && !trivial {
		return nil, notImplemented(c, "self", name+"_cpu", self.DType())
	}
	if self.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(tensor.Int64, shape...))), nil
	}
	_, idx := redArgIndices(self, mask, shape, greater)
	return one(idx), nil
}

// redArgmax is aten::argmax: the flat (dim None) or per-dim index of the
// first maximum; NaN counts as the maximum.
func redArgmax(c *ops.Call) ([]any, error) { return redArg(c, "argmax", true) }

// redArgmin is aten::argmin: the index of the first minimum; NaN counts as
// the minimum.
func redArgmin(c *ops.Call) ([]any, error) { return redArg(c, "argmin", false) }

// redMinMaxDim implements max.dim and min.dim: values and indices of the
// first extreme element along dim.
func redMinMaxDim(c *ops.Call, name string, greater bool) ([]any, error) {
	self := c.Tensor("self")
	mask, shape, err := redIndexReduce(c, name, self, c.Int("dim"), true)
	if err != nil {
		return nil, err
	}
	if self.IsMeta() {
		return []any{tensor.Must(tensor.NewMeta(self.DType(), shape...)), tensor.Must(tensor.NewMeta(tensor.Int64, shape...))}, nil
	}
	v, i := redArgIndices(self, mask, shape, greater)
	return []any{v, i}, nil
}

// redMaxDim is aten::max.dim.
func redMaxDim(c *ops.Call) ([]any, error) { return redMinMaxDim(c, "max", true) }

// redMinDim is aten::min.dim.
func redMinDim(c *ops.Call) ([]any, error) { return redMinMaxDim(c, "min", false) }

// redCumsum is aten::cumsum: running sums along dim, in dtype when given
// (the input converted to it first), int64 for integral and bool inputs.
// float32 accumulates in float64 and bfloat16 in float32, as ATen's CPU
// kernel does.
func redCumsum(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	d, err := redWrapDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	dt := redAccType(c, self)
	// A 0-d input is copied without dispatching on the dtype.
	if self.Dim() > 0 && self.Numel() > 0 && (dt == tensor.Float16 || dt == tensor.Bool) {
		arg := "self"
		if _, ok := c.DType("dtype"); ok {
			arg = "dtype"
		}
		return nil, notImplemented(c, arg, "cumsum_out_cpu", dt)
	}
	if self.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(dt, self.Shape()...))), nil
	}
	x := to(self, dt)
	p, perm, outer, inner := redMoveLast(x, redSingleMask(self.Dim(), d))
	var res *tensor.Tensor
	if dt.IsFloat() {
		vals := p.Float64s()
		out := make([]float64, len(vals))
		redRows(outer, inner, func(r int) {
			if dt == tensor.BFloat16 {
				var s float32
				for i := r * inner; i < (r+1)*inner; i++ {
					s += float32(vals[i])
					out[i] = float64(s)
				}
				return
			}
			var s float64
			for i := r * inner; i < (r+1)*inner; i++ {
				s += vals[i]
				out[i] = s
			}
		})
		res = tensor.Must(tensor.FromFloat64s(dt, out, p.Shape()...))
	} else {
		vals := p.Int64s()
		out := make([]int64, len(vals))
		redRows(outer, inner, func(r int) {
			var s int64
			for i := r * inner; i < (r+1)*inner; i++ {
				s += vals[i]
				out[i] = s
			}
		})
		res = redIntResult(dt, out, p.Shape())
	}
	return one(tensor.Must(res.Permute(redInverse(perm)...)).Contiguous()), nil
}

// redSoftmax computes softmax (log-softmax when log) of x along dim in x's
// dtype, which must be float32, float64 or bfloat16 unless x is empty, as
// on ATen's CPU. arg names the argument whose dtype is to blame.
func redSoftmax(c *ops.Call, x *tensor.Tensor, dim int64, log bool, arg string) ([]any, error) {
	d, err := redWrapDim(c, "dim", dim, x.Dim())
	if err != nil {
		return nil, err
	}
	dt := x.DType()
	if x.Numel() == 0 {
		return one(tensor.Must(empty(x.IsMeta(), dt, x.Shape()))), nil
	}
	if dt != tensor.Float32 && dt != tensor.Float64 && dt != tensor.BFloat16 {
		kernel := "softmax_kernel_impl"
		if x.Dim() == 0 || d == x.Dim()-1 {
			kernel = "softmax_lastdim_kernel_impl"
			if log {
				kernel = "log_softmax_lastdim_kernel_impl"
			}
		}
		return nil, notImplemented(c, arg, kernel, dt)
	}
	if x.IsMeta() {
		return one(x.Meta()), nil
	}
	p, perm, outer, inner := redMoveLast(x, redSingleMask(x.Dim(), d))
	vals := p.Float64s()
	out := make([]float64, len(vals))
	redRows(outer, inner, func(r int) {
		row := vals[r*inner : (r+1)*inner]
		o := out[r*inner : (r+1)*inner]
		m := math.Inf(-1)
		for _, v := range row {
			if v > m {
				m = v
			}
		}
		var s float64
		for i, v := range row {
			e := math.Exp(v - m)
			o[i] = e
			s += e
		}
		if log {
			ls := math.Log(s)
			for i, v := range row {
				o[i] = v - m - ls
			}
			return
		}
		for i := range o {
			o[i] /= s
		}
	})
	res := tensor.Must(tensor.FromFloat64s(dt, out, p.Shape()...))
	return one(tensor.Must(res.Permute(redInverse(perm)...)).Contiguous()), nil
}

// redHalfToFloat rejects half_to_float=True, which ATen's CPU kernels do
// not support.
func redHalfToFloat(c *ops.Call, name string) error {
	if c.Bool("half_to_float") {
		return c.Errorf("half_to_float", "%s with half to float conversion is not supported on CPU", name)
	}
	return nil
}

// redSoftmaxPrivate is aten::_softmax.
func redSoftmaxPrivate(c *ops.Call) ([]any, error) {
	if err := redHalfToFloat(c, "softmax"); err != nil {
		return nil, err
	}
	return redSoftmax(c, c.Tensor("self"), c.Int("dim"), false, "self")
}

// redLogSoftmaxPrivate is aten::_log_softmax.
func redLogSoftmaxPrivate(c *ops.Call) ([]any, error) {
	if err := redHalfToFloat(c, "log_softmax"); err != nil {
		return nil, err
	}
	return redSoftmax(c, c.Tensor("self"), c.Int("dim"), true, "self")
}

// redSoftmaxDType converts self to the dtype argument when given, as
// softmax.int and log_softmax.int do before calling the kernel.
func redSoftmaxDType(c *ops.Call) (*tensor.Tensor, string) {
	self := c.Tensor("self")
	if dt, ok := c.DType("dtype"); ok {
		return to(self, dt), "dtype"
	}
	return self, "self"
}

// redSoftmaxInt is aten::softmax.int.
func redSoftmaxInt(c *ops.Call) ([]any, error) {
	x, arg := redSoftmaxDType(c)
	return redSoftmax(c, x, c.Int("dim"), false, arg)
}

// redLogSoftmaxInt is aten::log_softmax.int.
func redLogSoftmaxInt(c *ops.Call) ([]any, error) {
	x, arg := redSoftmaxDType(c)
	return redSoftmax(c, x, c.Int("dim"), true, arg)
}

// redFmtShape formats a shape as PyTorch prints sizes ("[2, 3]").
func redFmtShape(s []int) string {
	b := []byte{'['}
	for i, d := range s {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = fmt.Appendf(b, "%d", d)
	}
	return string(append(b, ']'))
}
