package kernels

import (
	"math"

	"github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Reductions, ATen's ReduceOps.cpp: sum, mean, prod, var, amax, amin,
// any, all, max and min over every element, aminmax, argmax, argmin,
// logsumexp, std and the _mean forms of var and std, and the scans
// cumsum and cumprod. Every kernel moves the reduced
// dimensions last and makes the result contiguous (moveLast), so that
// each output element reduces one contiguous row. Floating-point
// reductions accumulate in float64 and round to the output dtype once;
// PyTorch accumulates float32 pairwise in float32, which is less accurate
// and within the accumulation tolerance of our result. The overloads that
// PyTorch defines through another overload (any, mean and prod over all
// elements, var.dim) bind that overload's schema and run its kernel, so
// that both agree on every corner.

// registerReduceOps registers the kernels of reduce_ops.go.
func registerReduceOps() {
	registerBoth("aten::sum", sumDefault)
	registerBoth("aten::sum.dim_IntList", sumDimIntList)
	registerBoth("aten::mean.dim", meanDim)
	registerBoth("aten::prod.dim_int", prodDimInt)
	registerBoth("aten::var.correction", varCorrection)
	registerBoth("aten::amax", amax)
	registerBoth("aten::amin", amin)
	registerBoth("aten::any.dim", anyDim)
	registerBoth("aten::argmax", argmax)
	registerBoth("aten::argmin", argmin)
	registerBoth("aten::cumsum", cumsum)
	registerBoth("aten::any", anyKernel)
	registerBoth("aten::any.dims", anyDims)
	registerBoth("aten::mean", meanKernel)
	registerBoth("aten::prod", prodKernel)
	registerBoth("aten::var.dim", varDim)
	registerBoth("aten::max", maxKernel)
	registerBoth("aten::min", minKernel)
	registerBoth("aten::max.other", maxOther)
	registerBoth("aten::min.other", minOther)
	registerBoth("aten::all", allKernel)
	registerBoth("aten::all.dim", allDim)
	registerBoth("aten::aminmax", aminmax)
	registerBoth("aten::var", varStd(false, false))
	for _, ov := range []string{"", ".dim", ".correction"} {
		registerBoth("aten::std"+ov, varStd(true, false))
		registerBoth("aten::var_mean"+ov, varStd(false, true))
		registerBoth("aten::std_mean"+ov, varStd(true, true))
	}
	registerBoth("aten::logsumexp", logsumexp)
	registerBoth("aten::all.dims", allDims)
	registerBoth("aten::cumprod", cumprod)
}

// wrapReduceDim normalizes one dimension argument against rank (a 0-d tensor
// accepts 0 and -1), blaming arg.
func wrapReduceDim(c *ops.Call, arg string, d int64, rank int) (int, error) {
	if d < math.MinInt32 || d > math.MaxInt32 {
		return 0, c.Errorf(arg, "dimension out of range: %d", d)
	}
	nd, err := tensor.NormDim(int(d), rank)
	if err != nil {
		return 0, c.Errorf(arg, "%v", err)
	}
	return nd, nil
}

// dimMask turns a dimension list into a mask over rank dimensions (a
// 0-d tensor has one pseudo-dimension); an empty or nil list selects every
// dimension, as ATen's reductions do. Repeated dimensions are an error.
func dimMask(c *ops.Call, arg string, dims []int64, rank int) ([]bool, error) {
	n := max(rank, 1)
	mask := make([]bool, n)
	if len(dims) == 0 {
		for i := range mask {
			mask[i] = true
		}
		return mask, nil
	}
	for _, d := range dims {
		nd, err := wrapReduceDim(c, arg, d, rank)
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

// singleMask is the mask of the single dimension d (already
// normalized).
func singleMask(rank, d int) []bool {
	mask := make([]bool, max(rank, 1))
	mask[d] = true
	return mask
}

// reducedShape returns the shape of a reduction of shape over mask: reduced
// dimensions are dropped, or kept as size 1 with keepdim.
func reducedShape(shape []int, mask []bool, keepdim bool) []int {
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

// reducedCount returns the number of elements each output element reduces.
func reducedCount(shape []int, mask []bool) int {
	n := 1
	for i, s := range shape {
		if mask[i] {
			n *= s
		}
	}
	return n
}

// moveLast permutes t so that the dimensions of mask come last (each
// group keeping its order) and makes it contiguous: the result holds outer
// rows of inner elements, row r reducing to output element r of the
// reduction with keepdim=false. perm is the permutation applied (a view of
// the result with perm's inverse has t's shape). A 0-d t is one row of one
// element.
func moveLast(t *tensor.Tensor, mask []bool) (p *tensor.Tensor, perm []int, outer, inner int) {
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

// inverse returns the inverse of permutation perm.
func inverse(perm []int) []int {
	inv := make([]int, len(perm))
	for i, p := range perm {
		inv[p] = i
	}
	return inv
}

// forRows calls f for every row in [0, outer), splitting the rows over the
// cores with parallelFor when there are many elements in all.
func forRows(outer, inner int, f func(r int)) {
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

// sumF64 returns the sum of vals with Neumaier's compensated summation:
// at least as accurate as PyTorch's pairwise sums. Infinities and NaN
// propagate as in plain summation.
func sumF64(vals []float64) float64 {
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

// floatResult returns a tensor of dt and shape holding vals (rounded to
// dt), or a meta tensor.
func floatResult(isMeta bool, dt tensor.DType, vals []float64, shape []int) *tensor.Tensor {
	if isMeta {
		return tensor.Must(tensor.NewMeta(dt, shape...))
	}
	return tensor.Must(tensor.FromFloat64s(dt, vals, shape...))
}

// intResult returns a tensor of dt and shape holding vals (wrapped to
// dt; nonzero is true for Bool).
func intResult(dt tensor.DType, vals []int64, shape []int) *tensor.Tensor {
	return tensor.Must(tensor.FromInt64s(dt, vals, shape...))
}

// sumAccType returns the output dtype of sum, prod and cumsum: dtype when
// given, int64 for integral and bool inputs, the input's dtype otherwise.
func sumAccType(c *ops.Call, self *tensor.Tensor) tensor.DType {
	if dt, ok := c.DType("dtype"); ok {
		return dt
	}
	if self.DType().IsFloat() {
		return self.DType()
	}
	return tensor.Int64
}

// sumKernel sums x over mask into dtype dt (x is converted to dt first, as
// ATen does): floats in float64, integers in wrapping int64 arithmetic,
// bool as "any nonzero".
func sumKernel(x *tensor.Tensor, mask []bool, keepdim bool, dt tensor.DType) *tensor.Tensor {
	shape := reducedShape(x.Shape(), mask, keepdim)
	if x.IsMeta() {
		return tensor.Must(tensor.NewMeta(dt, shape...))
	}
	x = to(x, dt)
	if out, ok := sumFloatBlock(x, mask); ok {
		return floatResult(false, dt, out, shape)
	}
	p, _, outer, inner := moveLast(x, mask)
	if dt.IsFloat() {
		vals := p.Float64s()
		out := make([]float64, outer)
		forRows(outer, inner, func(r int) { out[r] = sumF64(vals[r*inner : (r+1)*inner]) })
		return floatResult(false, dt, out, shape)
	}
	vals := p.Int64s()
	out := make([]int64, outer)
	forRows(outer, inner, func(r int) {
		var s int64
		for _, v := range vals[r*inner : (r+1)*inner] {
			s += v
		}
		out[r] = s
	})
	return intResult(dt, out, shape)
}

// sumDefault is aten::sum.default: the sum of all elements.
func sumDefault(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt := sumAccType(c, self)
	mask, _ := dimMask(c, "dim", nil, self.Dim())
	return one(sumKernel(self, mask, false, dt)), nil
}

// sumDimIntList is aten::sum.dim_IntList: the sum over dim (None or []
// meaning every dimension), integral and bool inputs summing to int64
// unless dtype says otherwise.
func sumDimIntList(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	mask, err := dimMask(c, "dim", c.Ints("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	dt := sumAccType(c, self)
	return one(sumKernel(self, mask, c.Bool("keepdim"), dt)), nil
}

// meanDim is aten::mean.dim: sum over dim rounded to the output dtype,
// divided by the number of reduced elements (NaN when there are none), as
// ATen's CPU mean does. The output dtype must be floating.
func meanDim(c *ops.Call) ([]any, error) {
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
	mask, err := dimMask(c, "dim", c.Ints("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	keepdim := c.Bool("keepdim")
	s := sumKernel(self, mask, keepdim, dt)
	if s.IsMeta() {
		return one(s), nil
	}
	n := float64(reducedCount(self.Shape(), mask))
	vals := s.Float64s()
	for i, v := range vals {
		vals[i] = roundTo(dt, v/n)
	}
	return one(floatResult(false, dt, vals, s.Shape())), nil
}

// prodDimInt is aten::prod.dim_int: the product over one dimension
// (1 for an empty one), integral and bool inputs giving int64 unless dtype
// says otherwise.
func prodDimInt(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	dt := sumAccType(c, self)
	mask := singleMask(self.Dim(), d)
	shape := reducedShape(self.Shape(), mask, c.Bool("keepdim"))
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
	p, _, outer, inner := moveLast(x, mask)
	if dt.IsFloat() {
		vals := p.Float64s()
		out := make([]float64, outer)
		forRows(outer, inner, func(r int) {
			s := 1.0
			for _, v := range vals[r*inner : (r+1)*inner] {
				s *= v
			}
			out[r] = s
		})
		return one(floatResult(false, dt, out, shape)), nil
	}
	vals := p.Int64s()
	out := make([]int64, outer)
	forRows(outer, inner, func(r int) {
		s := int64(1)
		for _, v := range vals[r*inner : (r+1)*inner] {
			s *= v
		}
		out[r] = s
	})
	return one(intResult(dt, out, shape)), nil
}

// varCorrection is aten::var.correction: Σ(x-mean)² / max(0, N -
// correction) over dim (None or [] meaning every dimension), correction
// defaulting to 1.
func varCorrection(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if !self.DType().IsFloat() {
		return nil, c.Errorf("self", "std and var only support floating point and complex dtypes")
	}
	mask, err := dimMask(c, "dim", c.Ints("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	// correction is int? in PyTorch 1.13's schema and Scalar? since 2.0
	// (a float correction is allowed).
	corr := 1.0
	if v, ok := c.OptScalar("correction"); ok {
		corr = v.Float()
	} else if v, ok := c.OptInt("correction"); ok {
		corr = float64(v)
	}
	dt := self.DType()
	shape := reducedShape(self.Shape(), mask, c.Bool("keepdim"))
	if self.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(dt, shape...))), nil
	}
	p, _, outer, inner := moveLast(self, mask)
	vals := p.Float64s()
	out := make([]float64, outer)
	divisor := max(0, float64(inner)-corr)
	forRows(outer, inner, func(r int) {
		row := vals[r*inner : (r+1)*inner]
		mean := sumF64(row) / float64(len(row))
		var m2 float64
		for _, v := range row {
			d := v - mean
			m2 += d * d
		}
		out[r] = m2 / divisor
	})
	return one(floatResult(false, dt, out, shape)), nil
}

// checkNonEmpty is ATen's zero_numel_check_dims: reducing an empty
// tensor needs explicit dimensions of nonzero size.
func checkNonEmpty(c *ops.Call, name string, self *tensor.Tensor, mask []bool, explicit bool) error {
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

// extreme implements amax and amin: the largest (smallest) element over
// dim ([] meaning every dimension); NaN propagates.
func extreme(c *ops.Call, name string, greater bool) ([]any, error) {
	self := c.Tensor("self")
	dims := c.Ints("dim")
	mask, err := dimMask(c, "dim", dims, self.Dim())
	if err != nil {
		return nil, err
	}
	if err := checkNonEmpty(c, name, self, mask, len(dims) > 0); err != nil {
		return nil, err
	}
	dt := self.DType()
	shape := reducedShape(self.Shape(), mask, c.Bool("keepdim"))
	if self.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(dt, shape...))), nil
	}
	if res, ok := extremeBlock(self, mask, shape, greater); ok {
		return one(res), nil
	}
	p, _, outer, inner := moveLast(self, mask)
	if dt == tensor.Float32 {
		// Row loops on the float32 values (no float64 copy); moveLast's
		// permutation copies only when the reduced dims are not trailing.
		vals := tensor.Values[float32](p)
		res := tensor.EmptyUninit(dt, shape...) // every element is written
		out := tensor.Values[float32](res)
		forRows(outer, inner, func(r int) {
			row := vals[r*inner : (r+1)*inner]
			if greater {
				out[r] = vec.Max(row)
			} else {
				out[r] = vec.Min(row)
			}
		})
		return one(res), nil
	}
	if dt.IsFloat() {
		vals := p.Float64s()
		out := make([]float64, outer)
		forRows(outer, inner, func(r int) {
			row := vals[r*inner : (r+1)*inner]
			out[r] = row[argExtremeF(row, greater)]
		})
		return one(floatResult(false, dt, out, shape)), nil
	}
	vals := p.Int64s()
	out := make([]int64, outer)
	forRows(outer, inner, func(r int) {
		row := vals[r*inner : (r+1)*inner]
		out[r] = row[argExtremeI(row, greater)]
	})
	return one(intResult(dt, out, shape)), nil
}

// extremeBlock is amax (amin when !greater) of a contiguous float32 or
// float64 x over mask into a new tensor of shape, read in place, when
// the reduced dims are neighbours followed by kept ones (reduceBlock with
// inner > 1): each output row starts as the first reduced row and folds
// in the others whole (vec.MaxFold, minFold); NaN propagates. ok is false
// otherwise (the caller's row loops then take the trailing case, and the
// rest after a permuting copy).
func extremeBlock(x *tensor.Tensor, mask []bool, shape []int, greater bool) (res *tensor.Tensor, ok bool) {
	dt := x.DType()
	if (dt != tensor.Float32 && dt != tensor.Float64) || !x.IsContiguous() || x.Numel() == 0 {
		return nil, false
	}
	outer, red, inner, ok := reduceBlock(x.Shape(), mask)
	if !ok || inner == 1 {
		return nil, false
	}
	res = tensor.EmptyUninit(dt, shape...) // every element is written
	if dt == tensor.Float32 {
		foldBlock(tensor.Values[float32](x), tensor.Values[float32](res), outer, red, inner, greater)
	} else {
		foldBlock(tensor.Values[float64](x), tensor.Values[float64](res), outer, red, inner, greater)
	}
	return res, true
}

// foldBlock sets out[o*inner+j] to the largest (smallest when !greater)
// of v[(o*red+r)*inner+j] over r, folding whole rows of inner elements,
// split over the cores by output element.
func foldBlock[T float32 | float64](v, out []T, outer, red, inner int, greater bool) {
	parallelFor(outer*inner, func(lo, hi int) {
		for pos := lo; pos < hi; {
			o, j := pos/inner, pos%inner
			n := min(inner-j, hi-pos)
			acc := out[pos : pos+n]
			copy(acc, v[o*red*inner+j:])
			for r := 1; r < red; r++ {
				row := v[(o*red+r)*inner+j:]
				if greater {
					vec.MaxFold(acc, row)
				} else {
					minFold(acc, row)
				}
			}
			pos += n
		}
	})
}

// minFold sets dst[i] = x[i] where x[i] < dst[i] or x[i] is NaN, for
// i < len(dst): vec.MaxFold's minimum twin.
func minFold[T float32 | float64](dst, x []T) {
	x = x[:len(dst)]
	for i, v := range x {
		if v < dst[i] || v != v {
			dst[i] = v
		}
	}
}

// amax is aten::amax.
func amax(c *ops.Call) ([]any, error) { return extreme(c, "amax", true) }

// amin is aten::amin.
func amin(c *ops.Call) ([]any, error) { return extreme(c, "amin", false) }

// argExtremeF returns the index of the first largest (smallest when
// !greater) element of a non-empty row; a NaN counts as larger (smaller)
// than everything, so the first NaN wins.
func argExtremeF(row []float64, greater bool) int {
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

// argExtremeI returns the index of the first largest (smallest when
// !greater) element of a non-empty row.
func argExtremeI(row []int64, greater bool) int {
	best, bv := 0, row[0]
	for i := 1; i < len(row); i++ {
		v := row[i]
		if (greater && v > bv) || (!greater && v < bv) {
			best, bv = i, v
		}
	}
	return best
}

// anyDim is aten::any.dim: whether any element over dim is nonzero (NaN
// counts); bool output, except uint8 input gives uint8.
func anyDim(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	mask := singleMask(self.Dim(), d)
	shape := reducedShape(self.Shape(), mask, c.Bool("keepdim"))
	dt := tensor.Bool
	if self.DType() == tensor.Uint8 {
		dt = tensor.Uint8
	}
	if self.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(dt, shape...))), nil
	}
	p, _, outer, inner := moveLast(self, mask)
	vals := p.Bools()
	out := make([]int64, outer)
	forRows(outer, inner, func(r int) {
		for _, v := range vals[r*inner : (r+1)*inner] {
			if v {
				out[r] = 1
				return
			}
		}
	})
	return one(intResult(dt, out, shape)), nil
}

// indexReduce validates an argmax-style reduction of self over the
// optional dimension dim (every dimension, flattened, when absent) and
// returns its mask and output shape.
func indexReduce(c *ops.Call, name string, self *tensor.Tensor, dim int64, hasDim bool) ([]bool, []int, error) {
	keepdim := c.Bool("keepdim")
	if !hasDim {
		mask, _ := dimMask(c, "dim", nil, self.Dim())
		if self.Numel() == 0 {
			return nil, nil, c.Errorf("self", "%s(): Expected reduction dim to be specified for input.numel() == 0.", name)
		}
		return mask, reducedShape(self.Shape(), mask, keepdim), nil
	}
	d, err := wrapReduceDim(c, "dim", dim, self.Dim())
	if err != nil {
		return nil, nil, err
	}
	mask := singleMask(self.Dim(), d)
	if err := checkNonEmpty(c, name, self, mask, true); err != nil {
		return nil, nil, err
	}
	return mask, reducedShape(self.Shape(), mask, keepdim), nil
}

// argIndices returns, per output row, the index of the first largest
// (smallest) element, NaN winning, and the element itself as a tensor of
// self's dtype and shape.
func argIndices(self *tensor.Tensor, mask []bool, shape []int, greater bool) (values, indices *tensor.Tensor) {
	p, _, outer, inner := moveLast(self, mask)
	if self.DType() == tensor.Float32 {
		return argIndicesF32(p, outer, inner, shape, greater)
	}
	idx := make([]int64, outer)
	if self.DType().IsFloat() {
		vals := p.Float64s()
		out := make([]float64, outer)
		forRows(outer, inner, func(r int) {
			row := vals[r*inner : (r+1)*inner]
			i := argExtremeF(row, greater)
			idx[r], out[r] = int64(i), row[i]
		})
		return floatResult(false, self.DType(), out, shape), intResult(tensor.Int64, idx, shape)
	}
	vals := p.Int64s()
	out := make([]int64, outer)
	forRows(outer, inner, func(r int) {
		row := vals[r*inner : (r+1)*inner]
		i := argExtremeI(row, greater)
		idx[r], out[r] = int64(i), row[i]
	})
	return intResult(self.DType(), out, shape), intResult(tensor.Int64, idx, shape)
}

// argIndicesF32 is argIndices for float32 rows (p of outer rows of inner
// elements): the row's max (min) by vec.Max (vec.Min), then the first
// element equal to it (the first NaN when it is NaN), whose value is
// returned, so that of -0 and 0 the first wins, as in ATen.
func argIndicesF32(p *tensor.Tensor, outer, inner int, shape []int, greater bool) (values, indices *tensor.Tensor) {
	vals := tensor.Values[float32](p)
	values = tensor.EmptyUninit(tensor.Float32, shape...) // every element is written
	indices = tensor.EmptyUninit(tensor.Int64, shape...)
	out, idx := tensor.Values[float32](values), tensor.Values[int64](indices)
	forRows(outer, inner, func(r int) {
		row := vals[r*inner : (r+1)*inner]
		var m float32
		if greater {
			m = vec.Max(row)
		} else {
			m = vec.Min(row)
		}
		i := 0
		if m != m {
			for i < len(row)-1 && row[i] == row[i] {
				i++
			}
		} else {
			for i < len(row)-1 && row[i] != m {
				i++
			}
		}
		idx[r], out[r] = int64(i), row[i]
	})
	return values, indices
}

// argExtreme implements argmax and argmin.
func argExtreme(c *ops.Call, name string, greater bool) ([]any, error) {
	self := c.Tensor("self")
	dim, hasDim := c.OptInt("dim")
	mask, shape, err := indexReduce(c, name, self, dim, hasDim)
	if err != nil {
		return nil, err
	}
	// ATen fills zeros without dispatching on the dtype when the reduced
	// dimension has size 1 (or the input is empty).
	trivial := self.Numel() == 0 || (hasDim && reducedCount(self.Shape(), mask) == 1)
	if self.DType() == tensor.Bool && !trivial {
		return nil, notImplemented(c, "self", name+"_cpu", self.DType())
	}
	if self.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(tensor.Int64, shape...))), nil
	}
	_, idx := argIndices(self, mask, shape, greater)
	return one(idx), nil
}

// argmax is aten::argmax: the flat (dim None) or per-dim index of the
// first maximum; NaN counts as the maximum.
func argmax(c *ops.Call) ([]any, error) { return argExtreme(c, "argmax", true) }

// argmin is aten::argmin: the index of the first minimum; NaN counts as
// the minimum.
func argmin(c *ops.Call) ([]any, error) { return argExtreme(c, "argmin", false) }

// cumsum is aten::cumsum: running sums along dim, in dtype when given
// (the input converted to it first), int64 for integral and bool inputs.
// float32 accumulates in float64 and bfloat16 in float32, as ATen's CPU
// kernel does.
func cumsum(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	dt := sumAccType(c, self)
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
	p, perm, outer, inner := moveLast(x, singleMask(self.Dim(), d))
	var res *tensor.Tensor
	if dt.IsFloat() {
		vals := p.Float64s()
		out := make([]float64, len(vals))
		forRows(outer, inner, func(r int) {
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
		forRows(outer, inner, func(r int) {
			var s int64
			for i := r * inner; i < (r+1)*inner; i++ {
				s += vals[i]
				out[i] = s
			}
		})
		res = intResult(dt, out, p.Shape())
	}
	return one(tensor.Must(res.Permute(inverse(perm)...)).Contiguous()), nil
}

// dTypeKwargs returns the dtype keyword argument of c for a delegated
// call: empty when dtype is None.
func dTypeKwargs(c *ops.Call) map[string]any {
	if dt, ok := c.DType("dtype"); ok {
		return map[string]any{"dtype": dt}
	}
	return nil
}

// flatten1d returns t flattened to one dimension (a 0-d tensor becomes [1]).
func flatten1d(t *tensor.Tensor) *tensor.Tensor {
	return tensor.Must(t.Reshape(-1))
}

// anyKernel is aten::any: whether any element is nonzero (NaN counts); bool,
// or uint8 for uint8 input. An empty tensor gives false.
func anyKernel(c *ops.Call) ([]any, error) {
	return delegateKernel("aten::any.dim", anyDim, []any{flatten1d(c.Tensor("self")), int64(0)}, nil)
}

// anyDims is aten::any.dims (newer than PyTorch 1.13): any over the
// dimensions in dim, every dimension when dim is None. An empty list
// reduces nothing: each element becomes its truth value (ATen's
// allow_empty_dims).
func anyDims(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dt := tensor.Bool
	if self.DType() == tensor.Uint8 {
		dt = tensor.Uint8
	}
	var mask []bool
	if c.IsNone("dim") {
		mask, _ = dimMask(c, "dim", nil, self.Dim())
	} else {
		dims := c.Ints("dim")
		if len(dims) == 0 {
			if self.IsMeta() {
				return one(tensor.Must(tensor.NewMeta(dt, self.Shape()...))), nil
			}
			vals := self.Bools()
			out := make([]int64, len(vals))
			for i, v := range vals {
				if v {
					out[i] = 1
				}
			}
			return one(intResult(dt, out, self.Shape())), nil
		}
		var err error
		if mask, err = dimMask(c, "dim", dims, self.Dim()); err != nil {
			return nil, err
		}
	}
	shape := reducedShape(self.Shape(), mask, c.Bool("keepdim"))
	if self.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(dt, shape...))), nil
	}
	p, _, outer, inner := moveLast(self, mask)
	vals := p.Bools()
	out := make([]int64, outer)
	forRows(outer, inner, func(r int) {
		for _, v := range vals[r*inner : (r+1)*inner] {
			if v {
				out[r] = 1
				return
			}
		}
	})
	return one(intResult(dt, out, shape)), nil
}

// meanKernel is aten::mean: the mean of all elements (NaN for none), in dtype
// when given; the output dtype must be floating.
func meanKernel(c *ops.Call) ([]any, error) {
	return delegateKernel("aten::mean.dim", meanDim, []any{c.Tensor("self"), nil, false}, dTypeKwargs(c))
}

// prodKernel is aten::prod: the product of all elements (1 for none), in dtype
// when given, int64 for integral and bool inputs.
func prodKernel(c *ops.Call) ([]any, error) {
	return delegateKernel("aten::prod.dim_int", prodDimInt, []any{flatten1d(c.Tensor("self")), int64(0), false}, dTypeKwargs(c))
}

// varDim is aten::var.dim: var.correction with correction 1 when
// unbiased, 0 otherwise; dim None or [] reduces every dimension.
func varDim(c *ops.Call) ([]any, error) {
	corr := int64(0)
	if c.Bool("unbiased") {
		corr = 1
	}
	dim := optInts(c, "dim")
	return delegateKernel("aten::var.correction", varCorrection, []any{c.Tensor("self"), dim},
		map[string]any{"correction": corr, "keepdim": c.Bool("keepdim")})
}

// sort is std::sort(first, last).
func (s *sorter[T]) sort(first, last int) {
	if first != last {
		s.introsortLoop(first, last, 2*lg(last-first))
		s.finalInsertionSort(first, last)
	}
}

// introsortLoop is std::__introsort_loop.
func (s *sorter[T]) introsortLoop(first, last, depth int) {
	for last-first > sortThreshold {
		if depth == 0 {
			s.partialSort(first, last, last)
			return
		}
		depth--
		cut := s.partitionPivot(first, last)
		s.introsortLoop(cut, last, depth)
		last = cut
	}
}

// partitionPivot is std::__unguarded_partition_pivot.
func (s *sorter[T]) partitionPivot(first, last int) int {
	mid := first + (last-first)/2
	s.medianToFirst(first, first+1, mid, last-1)
	return s.partition(first+1, last, first)
}

// medianToFirst is std::__move_median_to_first.
func (s *sorter[T]) medianToFirst(result, a, b, c int) {
	x := s.a
	switch {
	case s.less(x[a], x[b]):
		switch {
		case s.less(x[b], x[c]):
			s.swap(result, b)
		case s.less(x[a], x[c]):
			s.swap(result, c)
		default:
			s.swap(result, a)
		}
	case s.less(x[a], x[c]):
		s.swap(result, a)
	case s.less(x[b], x[c]):
		s.swap(result, c)
	default:
		s.swap(result, b)
	}
}

// partition is std::__unguarded_partition around the element at pivot.
func (s *sorter[T]) partition(first, last, pivot int) int {
	x := s.a
	for {
		for s.less(x[first], x[pivot]) {
			first++
		}
		last--
		for s.less(x[pivot], x[last]) {
			last--
		}
		if first >= last {
			return first
		}
		s.swap(first, last)
		first++
	}
}

// swap is std::iter_swap.
func (s *sorter[T]) swap(i, j int) { s.a[i], s.a[j] = s.a[j], s.a[i] }

// finalInsertionSort is std::__final_insertion_sort.
func (s *sorter[T]) finalInsertionSort(first, last int) {
	if last-first > sortThreshold {
		s.insertionSort(first, first+sortThreshold)
		for i := first + sortThreshold; i != last; i++ {
			s.linearInsert(i)
		}
		return
	}
	s.insertionSort(first, last)
}

// insertionSort is std::__insertion_sort.
func (s *sorter[T]) insertionSort(first, last int) {
	if first == last {
		return
	}
	x := s.a
	for i := first + 1; i != last; i++ {
		if s.less(x[i], x[first]) {
			v := x[i]
			copy(x[first+1:i+1], x[first:i])
			x[first] = v
		} else {
			s.linearInsert(i)
		}
	}
}

// linearInsert is std::__unguarded_linear_insert.
func (s *sorter[T]) linearInsert(last int) {
	x := s.a
	v := x[last]
	next := last - 1
	for s.less(v, x[next]) {
		x[last] = x[next]
		last = next
		next--
	}
	x[last] = v
}

// partialSort is std::partial_sort (std::__partial_sort).
func (s *sorter[T]) partialSort(first, middle, last int) {
	s.heapSelect(first, middle, last)
	for middle-first > 1 {
		middle--
		s.popHeap(first, middle, middle)
	}
}

// heapSelect is std::__heap_select.
func (s *sorter[T]) heapSelect(first, middle, last int) {
	s.makeHeap(first, middle)
	for i := middle; i < last; i++ {
		if s.less(s.a[i], s.a[first]) {
			s.popHeap(first, middle, i)
		}
	}
}

// makeHeap is std::__make_heap.
func (s *sorter[T]) makeHeap(first, last int) {
	n := last - first
	if n < 2 {
		return
	}
	for parent := (n - 2) / 2; ; parent-- {
		s.adjustHeap(first, parent, n, s.a[first+parent])
		if parent == 0 {
			return
		}
	}
}

// popHeap is std::__pop_heap.
func (s *sorter[T]) popHeap(first, last, result int) {
	v := s.a[result]
	s.a[result] = s.a[first]
	s.adjustHeap(first, 0, last-first, v)
}

// adjustHeap is std::__adjust_heap followed by std::__push_heap. Go's
// integer division truncates like C++'s, which matters for n = 0.
func (s *sorter[T]) adjustHeap(first, hole, n int, v elem[T]) {
	x := s.a
	top, child := hole, hole
	for child < (n-1)/2 {
		child = 2 * (child + 1)
		if s.less(x[first+child], x[first+child-1]) {
			child--
		}
		x[first+hole] = x[first+child]
		hole = child
	}
	if n&1 == 0 && child == (n-2)/2 {
		child = 2 * (child + 1)
		x[first+hole] = x[first+child-1]
		hole = child - 1
	}
	parent := (hole - 1) / 2
	for hole > top && s.less(x[first+parent], v) {
		x[first+hole] = x[first+parent]
		hole = parent
		parent = (hole - 1) / 2
	}
	x[first+hole] = v
}

// nthElement is std::nth_element (std::__introselect).
func (s *sorter[T]) nthElement(first, nth, last int) {
	if first == last || nth == last {
		return
	}
	depth := 2 * lg(last-first)
	for last-first > 3 {
		if depth == 0 {
			s.heapSelect(first, nth+1, last)
			s.swap(first, nth)
			return
		}
		depth--
		cut := s.partitionPivot(first, last)
		if cut <= nth {
			first = cut
		} else {
			last = cut
		}
	}
	s.insertionSort(first, last)
}

// fullExtreme implements max() and min() over every element: amax (amin)
// over all dimensions, refusing an empty tensor as ATen does.
func fullExtreme(c *ops.Call, name string, greater bool) ([]any, error) {
	self := c.Tensor("self")
	if self.Numel() == 0 {
		return nil, c.Errorf("self", "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", name)
	}
	if greater {
		return delegateKernel("aten::amax", amax, []any{self, []int64{}, false}, nil)
	}
	return delegateKernel("aten::amin", amin, []any{self, []int64{}, false}, nil)
}

// maxKernel is aten::max (no dim): the largest element, NaN propagating.
func maxKernel(c *ops.Call) ([]any, error) { return fullExtreme(c, "max", true) }

// minKernel is aten::min (no dim): the smallest element, NaN propagating.
func minKernel(c *ops.Call) ([]any, error) { return fullExtreme(c, "min", false) }

// maxOther is aten::max.other, the binary form: aten::maximum.
func maxOther(c *ops.Call) ([]any, error) {
	return delegate(c, "aten::maximum", []any{c.Tensor("self"), c.Tensor("other")}, nil)
}

// minOther is aten::min.other, the binary form: aten::minimum.
func minOther(c *ops.Call) ([]any, error) {
	return delegate(c, "aten::minimum", []any{c.Tensor("self"), c.Tensor("other")}, nil)
}

// allDim is aten::all.dim: whether every element over dim is nonzero (NaN
// counts as nonzero); bool output, except uint8 input gives uint8. An
// empty reduction gives true.
func allDim(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	mask := singleMask(self.Dim(), d)
	shape := reducedShape(self.Shape(), mask, c.Bool("keepdim"))
	dt := tensor.Bool
	if self.DType() == tensor.Uint8 {
		dt = tensor.Uint8
	}
	if self.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(dt, shape...))), nil
	}
	p, _, outer, inner := moveLast(self, mask)
	vals := p.Bools()
	out := make([]int64, outer)
	forRows(outer, inner, func(r int) {
		out[r] = 1
		for _, v := range vals[r*inner : (r+1)*inner] {
			if !v {
				out[r] = 0
				return
			}
		}
	})
	return one(intResult(dt, out, shape)), nil
}

// allKernel is aten::all: whether every element is nonzero; bool, or
// uint8 for uint8 input. An empty tensor gives true.
func allKernel(c *ops.Call) ([]any, error) {
	return delegateKernel("aten::all.dim", allDim, []any{flatten1d(c.Tensor("self")), int64(0)}, nil)
}

// aminmax is aten::aminmax: amin and amax together, over dim or (None)
// every element, where keepdim keeps every dimension as size 1.
func aminmax(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	keepdim := c.Bool("keepdim")
	dims := []int64{}
	if d, ok := c.OptInt("dim"); ok {
		dims = []int64{d}
		if _, err := wrapReduceDim(c, "dim", d, self.Dim()); err != nil {
			return nil, err
		}
		nd, _ := tensor.NormDim(int(d), self.Dim())
		if self.Dim() > 0 && self.Size(nd) == 0 {
			return nil, c.Errorf("dim", "aminmax(): Expected reduction dim %d to have non-zero size.", nd)
		}
	} else if self.Numel() == 0 {
		return nil, c.Errorf("self", "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.")
	}
	lo, err := delegateKernel("aten::amin", amin, []any{self, dims, keepdim}, nil)
	if err != nil {
		return nil, c.Errorf("dim", "%v", err)
	}
	hi, err := delegateKernel("aten::amax", amax, []any{self, dims, keepdim}, nil)
	if err != nil {
		return nil, c.Errorf("dim", "%v", err)
	}
	return []any{lo[0], hi[0]}, nil
}

// varArgs reads the dimension list, correction and keepdim of any var or
// std overload: the default one (unbiased, every dimension), .dim
// (unbiased over dim) and .correction.
func varArgs(c *ops.Call) (dim any, corr ops.Scalar, keepdim bool) {
	corr = ops.IntScalar(1)
	if hasArg(c, "unbiased") && !c.Bool("unbiased") {
		corr = ops.IntScalar(0)
	}
	if hasArg(c, "correction") {
		if s, ok := c.OptScalar("correction"); ok {
			corr = s
		} else if v, ok := c.OptInt("correction"); ok {
			corr = ops.IntScalar(v)
		}
	}
	if hasArg(c, "dim") && !c.IsNone("dim") {
		dim = c.Ints("dim")
	}
	if hasArg(c, "keepdim") {
		keepdim = c.Bool("keepdim")
	}
	return dim, corr, keepdim
}

// varStd implements every var, std, var_mean and std_mean overload
// through var.correction (sqrt for std) and, for the _mean forms,
// mean.dim over the same dimensions, as ATen's std_var_mean does.
func varStd(sqrt, withMean bool) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		self := c.Tensor("self")
		dim, corr, keepdim := varArgs(c)
		p := &chain{c: c, arg: "self"}
		v := p.callsKw("aten::var.correction", map[string]any{"correction": corr, "keepdim": keepdim}, self, dim)
		if p.err != nil {
			return nil, p.err
		}
		res := v[0].(*tensor.Tensor)
		if sqrt {
			res = p.call("aten::sqrt", res)
		}
		if !withMean {
			return p.result(res)
		}
		m := p.call("aten::mean.dim", self, dim, keepdim)
		if p.err != nil {
			return nil, p.err
		}
		return []any{res, m}, nil
	}
}

// logsumexp is aten::logsumexp: log(sum(exp(self))) over dim, computed as
// ATen does from the maxima (infinite maxima taken as 0) for stability;
// integral inputs compute in float32.
func logsumexp(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	dims, keepdim := c.Ints("dim"), c.Bool("keepdim")
	p := &chain{c: c, arg: "self"}
	x := self
	if !x.DType().IsFloat() {
		x = to2(p, x, tensor.Float32)
	}
	if x.Numel() == 0 {
		return p.result(p.call("aten::log", p.call("aten::sum.dim_IntList", p.call("aten::exp", x), dims, keepdim)))
	}
	m := p.call("aten::amax", x, dims, true)
	m = p.call("aten::masked_fill.Scalar", m, p.call("aten::eq.Scalar", p.call("aten::abs", m), ops.FloatScalar(math.Inf(1))), ops.FloatScalar(0))
	s := p.call("aten::sum.dim_IntList", p.call("aten::exp", p.call("aten::sub.Tensor", x, m)), dims, keepdim)
	if p.err != nil {
		return nil, p.err
	}
	ms := p.call("aten::reshape", m, intsToInt64(s.Shape()))
	return p.result(p.call("aten::add.Tensor", p.call("aten::log", s), ms))
}

// intsToInt64 converts a shape to an int list argument.
func intsToInt64(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// allDims is aten::all.dims: all over the dimensions in dim (every one
// when None; none when empty), through any.dims: not any(not self).
func allDims(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	p := &chain{c: c, arg: "self"}
	dim := optInts(c, "dim")
	r := p.call("aten::logical_not", p.call("aten::any.dims", p.call("aten::logical_not", self), dim, c.Bool("keepdim")))
	if self.DType() == tensor.Uint8 {
		r = to2(p, r, tensor.Uint8)
	}
	return p.result(r)
}

// cumprod is aten::cumprod: running products along dim, in dtype when
// given (the input converted to it first), int64 for integral and bool
// inputs. Floating products accumulate in float64 (float32 for bfloat16)
// and round each output, as ATen's CPU kernel does.
func cumprod(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	dt := sumAccType(c, self)
	if self.Dim() > 0 && self.Numel() > 0 && (dt == tensor.Float16 || dt == tensor.Bool) {
		arg := "self"
		if _, ok := c.DType("dtype"); ok {
			arg = "dtype"
		}
		return nil, notImplemented(c, arg, "cumprod_out_cpu", dt)
	}
	if self.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(dt, self.Shape()...))), nil
	}
	x := to(self, dt)
	p, perm, outer, inner := moveLast(x, singleMask(self.Dim(), d))
	var res *tensor.Tensor
	if dt.IsFloat() {
		vals := p.Float64s()
		out := make([]float64, len(vals))
		forRows(outer, inner, func(r int) {
			if dt == tensor.BFloat16 {
				s := float32(1)
				for i := r * inner; i < (r+1)*inner; i++ {
					s *= float32(vals[i])
					out[i] = float64(s)
				}
				return
			}
			s := 1.0
			for i := r * inner; i < (r+1)*inner; i++ {
				s *= vals[i]
				out[i] = s
			}
		})
		res = tensor.Must(tensor.FromFloat64s(dt, out, p.Shape()...))
	} else {
		vals := p.Int64s()
		out := make([]int64, len(vals))
		forRows(outer, inner, func(r int) {
			s := int64(1)
			for i := r * inner; i < (r+1)*inner; i++ {
				s *= vals[i]
				out[i] = s
			}
		})
		res = intResult(dt, out, p.Shape())
	}
	return one(tensor.Must(res.Permute(inverse(perm)...)).Contiguous()), nil
}

// reduceBlock returns the layout of a reduction of a contiguous tensor of
// shape over mask when the reduced dims (size-1 dims aside) are
// neighbours: outer kept elements, each of red reduced rows of inner
// kept elements; ok is false when kept dims lie between reduced ones.
func reduceBlock(shape []int, mask []bool) (outer, red, inner int, ok bool) {
	outer, red, inner = 1, 1, 1
	phase := 0 // 0: kept dims before the block, 1: in it, 2: after it
	for i, d := range shape {
		if d == 1 {
			continue
		}
		switch {
		case mask[i] && phase == 2:
			return 0, 0, 0, false
		case mask[i]:
			phase = 1
			red *= d
		case phase == 0:
			outer *= d
		default:
			phase = 2
			inner *= d
		}
	}
	return outer, red, inner, true
}

// sumFloatBlock returns the sums of x (float32 or float64) over mask in
// the reduced shape's row-major order, reading x in place when it is
// contiguous and its reduced dims neighbours (reduceBlock); ok is false
// otherwise. Sums accumulate in float64: float32 inputs in four plain
// float64 sums per row (whose error stays far below float32's rounding,
// as sumF64's does), float64 inputs with Neumaier's compensation as
// sumF64 does.
func sumFloatBlock(x *tensor.Tensor, mask []bool) (out []float64, ok bool) {
	dt := x.DType()
	if x.IsMeta() || (dt != tensor.Float32 && dt != tensor.Float64) || !x.IsContiguous() || x.Numel() == 0 {
		return nil, false
	}
	outer, red, inner, ok := reduceBlock(x.Shape(), mask)
	if !ok {
		return nil, false
	}
	out = make([]float64, outer*inner)
	if dt == tensor.Float32 {
		sumBlock(tensor.Values[float32](x), out, outer, red, inner)
	} else {
		sumBlock(tensor.Values[float64](x), out, outer, red, inner)
	}
	return out, true
}

// sumBlock sets out[o*inner+j] to the sum over r of v[(o*red+r)*inner+j].
func sumBlock[T float32 | float64](v []T, out []float64, outer, red, inner int) {
	_, f64 := any(v).([]float64)
	if inner == 1 {
		forRows(outer, red, func(o int) {
			row := v[o*red : (o+1)*red]
			if f64 {
				out[o] = sumF64(any(row).([]float64))
			} else {
				out[o] = sum4(row)
			}
		})
		return
	}
	// Columns: accumulate whole rows of inner elements, split over the
	// cores by output element.
	parallelFor(outer*inner, func(lo, hi int) {
		var comp []float64
		if f64 {
			comp = make([]float64, hi-lo)
		}
		for pos := lo; pos < hi; {
			o, j := pos/inner, pos%inner
			n := min(inner-j, hi-pos)
			acc := out[pos : pos+n]
			for r := range red {
				base := (o*red+r)*inner + j
				row := v[base : base+n]
				if f64 {
					neumaierAdd(acc, comp[pos-lo:pos-lo+n], any(row).([]float64))
					continue
				}
				vec.AddWiden(acc, any(row).([]float32))
			}
			if f64 {
				for i, c := range comp[pos-lo : pos-lo+n] {
					if s := acc[i]; !math.IsInf(s, 0) && !math.IsNaN(s) {
						acc[i] = s + c
					}
				}
			}
			pos += n
		}
	})
}

// sum4 returns the float64 sum of row in four interleaved sums.
func sum4[T float32 | float64](row []T) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(row); i += 4 {
		s0 += float64(row[i])
		s1 += float64(row[i+1])
		s2 += float64(row[i+2])
		s3 += float64(row[i+3])
	}
	for ; i < len(row); i++ {
		s0 += float64(row[i])
	}
	return (s0 + s1) + (s2 + s3)
}

// neumaierAdd adds row into the compensated sums (s, comp) elementwise,
// as sumF64 does one value at a time.
func neumaierAdd(s, comp, row []float64) {
	comp = comp[:len(s)]
	row = row[:len(s)]
	for i, v := range row {
		t := s[i] + v
		if math.Abs(s[i]) >= math.Abs(v) {
			comp[i] += (s[i] - t) + v
		} else {
			comp[i] += (v - t) + s[i]
		}
		s[i] = t
	}
}
