package kernels

import (
	"math"
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Scatter kernels, the functional forms of ATen's in-place writes: scatter
// (src and value), scatter_add, scatter_reduce.two, select_scatter,
// slice_scatter and index_put. Each returns a new contiguous tensor: a
// copy of self with the scattered elements written. Writes that hit the
// same element happen in the order ATen's single-threaded CPU kernels use
// (row-major over the index), and reductions round to the dtype after
// every step as ATen's kernels do.

func registerScatter() {
	registerBoth("aten::scatter.src", ixScatterSrc)
	registerBoth("aten::scatter.value", ixScatterValue)
	registerBoth("aten::scatter_add", ixScatterAdd)
	registerBoth("aten::scatter_reduce.two", ixScatterReduce)
	registerBoth("aten::select_scatter", ixSelectScatter)
	registerBoth("aten::slice_scatter", ixSliceScatter)
	registerBoth("aten::index_put", ixIndexPut)
}

// ixWrap wraps v to integral dtype dt (bool: nonzero is 1), as C++'s
// integer conversions do.
func ixWrap(dt tensor.DType, v int64) int64 {
	switch dt {
	case tensor.Int32:
		return int64(int32(v))
	case tensor.Int16:
		return int64(int16(v))
	case tensor.Int8:
		return int64(int8(v))
	case tensor.Uint8:
		return int64(uint8(v))
	case tensor.Bool:
		if v != 0 {
			return 1
		}
		return 0
	}
	return v
}

// ixVals holds a tensor's elements while a kernel writes into them: as
// float64 for floating dtypes, as int64 (bool as 0/1) otherwise.
type ixVals struct {
	dt tensor.DType
	f  []float64
	i  []int64
}

// ixLoad returns x's elements in row-major order, converted to dt.
func ixLoad(x *tensor.Tensor, dt tensor.DType) *ixVals {
	x = shRebase(x)
	if x.DType() != dt {
		x = shConvert(x, dt)
	}
	if dt.IsFloat() {
		return &ixVals{dt: dt, f: x.Float64s()}
	}
	return &ixVals{dt: dt, i: x.Int64s()}
}

// tensor returns the values as a contiguous tensor of the given shape.
func (v *ixVals) tensor(shape []int) *tensor.Tensor {
	if v.dt.IsFloat() {
		return tensor.Must(tensor.FromFloat64s(v.dt, v.f, shape...))
	}
	return tensor.Must(tensor.FromInt64s(v.dt, v.i, shape...))
}

// ixScatterTargets checks the arguments of a scatter-like op (ATen's
// scatter_gather_dtype_check and scatter_shape_check, then the kernel's
// bounds check) and returns, for every element of index in row-major
// order, the row-major position in self it writes and the row-major
// position in src (when src is not nil) it reads. Meta tensors return
// after the checks that need no data.
func ixScatterTargets(c *ops.Call, self, index, src *tensor.Tensor) (dim int, tgt, from []int, err error) {
	dim, err = shDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return 0, nil, nil, err
	}
	if index.DType() != tensor.Int64 {
		return 0, nil, nil, c.Errorf("index", "scatter(): Expected dtype int64 for index")
	}
	if src != nil && src.DType() != self.DType() {
		return 0, nil, nil, c.Errorf("src", "scatter(): Expected self.dtype to be equal to src.dtype")
	}
	if index.Numel() == 0 {
		return dim, nil, nil, nil
	}
	xs, is := shNonEmptyShape(self), shNonEmptyShape(index)
	if len(xs) != len(is) {
		return 0, nil, nil, c.Errorf("index", "Index tensor must have the same number of dimensions as self tensor")
	}
	var ss []int
	if src != nil {
		ss = shNonEmptyShape(src)
		if len(ss) != len(xs) {
			return 0, nil, nil, c.Errorf("src", "Index tensor must have the same number of dimensions as src tensor")
		}
	}
	bad := false
	for d := range xs {
		if d != dim && is[d] > xs[d] || src != nil && is[d] > ss[d] {
			bad = true
		}
	}
	if bad {
		if src != nil {
			return 0, nil, nil, c.Errorf("index", "Expected index %v to be smaller than self %v apart from dimension %d and to be smaller size than src %v", index.Shape(), self.Shape(), dim, src.Shape())
		}
		return 0, nil, nil, c.Errorf("index", "Expected index %v to be smaller than self %v apart from dimension %d", index.Shape(), self.Shape(), dim)
	}
	if meta(self, index, src) {
		return dim, nil, nil, nil
	}
	xstr := tensor.ContiguousStrides(xs)
	ds := xstr[dim]
	xstr[dim] = 0
	tgt = shOffsets(is, xstr, 0)
	size := int64(xs[dim])
	for i, v := range index.Int64s() {
		if v < 0 || v >= size {
			return 0, nil, nil, c.Errorf("index", "index %d is out of bounds for dimension %d with size %d", v, dim, size)
		}
		tgt[i] += int(v) * ds
	}
	if src != nil {
		from = shOffsets(is, tensor.ContiguousStrides(ss), 0)
	}
	return dim, tgt, from, nil
}

// ixScatterSrc is aten::scatter.src: a copy of self with
// self[index[i][j]][j] = src[i][j] (for dim 0); a later write to the same
// element wins.
func ixScatterSrc(c *ops.Call) ([]any, error) {
	return ixScatterReduceOp(c, c.Tensor("src"), "", true)
}

// ixScatterValue is aten::scatter.value: scatter with every written
// element set to value (converted to self's dtype with ATen's overflow
// check).
func ixScatterValue(c *ops.Call) ([]any, error) {
	x, index := c.Tensor("self"), c.Tensor("index")
	_, tgt, _, err := ixScatterTargets(c, x, index, nil)
	if err != nil {
		return nil, err
	}
	v, err := shScalarValue(c, "value", c.Scalar("value"), x.DType())
	if err != nil {
		return nil, err
	}
	if meta(x, index) {
		return one(x.Meta()), nil
	}
	out := ixLoad(x, x.DType())
	for _, t := range tgt {
		if out.f != nil {
			out.f[t] = v.Float()
		} else {
			out.i[t] = ixWrap(x.DType(), v.Int())
		}
	}
	return one(out.tensor(x.Shape())), nil
}

// ixScatterAdd is aten::scatter_add: scatter adding src into self.
func ixScatterAdd(c *ops.Call) ([]any, error) {
	return ixScatterReduceOp(c, c.Tensor("src"), "sum", true)
}

// ixScatterReduce is aten::scatter_reduce.two: scatter reducing src into
// self with "sum", "prod", "mean", "amax" or "amin"; without include_self
// the written elements of self start from the reduction's identity (-inf
// or the dtype's lowest value for amax, +inf or its highest for amin)
// instead of self's value. mean divides by the number of values reduced
// (floor division for integral dtypes); amax and amin propagate NaN.
func ixScatterReduce(c *ops.Call) ([]any, error) {
	reduce := c.Str("reduce")
	switch reduce {
	case "sum", "prod", "mean", "amax", "amin":
	default:
		return nil, c.Errorf("reduce", "reduce argument must be either sum, prod, mean, amax or amin, got %s", reduce)
	}
	return ixScatterReduceOp(c, c.Tensor("src"), reduce, c.Bool("include_self"))
}

// ixScatterReduceOp is the common part of scatter.src (reduce ""),
// scatter_add and scatter_reduce.two.
func ixScatterReduceOp(c *ops.Call, src *tensor.Tensor, reduce string, includeSelf bool) ([]any, error) {
	x, index := c.Tensor("self"), c.Tensor("index")
	_, tgt, from, err := ixScatterTargets(c, x, index, src)
	if err != nil {
		return nil, err
	}
	dt := x.DType()
	if reduce == "mean" && dt == tensor.Bool {
		return nil, c.Errorf("self", "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'")
	}
	if meta(x, index, src) {
		return one(x.Meta()), nil
	}
	out := ixLoad(x, dt)
	if tgt == nil {
		return one(out.tensor(x.Shape())), nil
	}
	sv := ixLoad(src, dt)
	var count []float64
	if reduce == "mean" {
		count = make([]float64, x.Numel())
		if includeSelf {
			for i := range count {
				count[i] = 1
			}
		}
	}
	if !includeSelf {
		for _, t := range tgt {
			ixInit(out, t, reduce)
		}
	}
	for k, t := range tgt {
		ixReduce(out, t, sv, from[k], reduce)
		if count != nil {
			count[t] = ixCountAdd(dt, count[t])
		}
	}
	for t, n := range count {
		if n == 0 {
			n = 1
		}
		if out.f != nil {
			out.f[t] = roundTo(dt, out.f[t]/n)
		} else {
			out.i[t] = ixWrap(dt, ixFloorDiv(out.i[t], int64(n)))
		}
	}
	return one(out.tensor(x.Shape())), nil
}

// ixInit sets element t of out to the identity of reduce, as ATen does
// for the written elements when include_self is false.
func ixInit(out *ixVals, t int, reduce string) {
	if out.f != nil {
		switch reduce {
		case "sum", "mean":
			out.f[t] = 0
		case "prod":
			out.f[t] = 1
		case "amax":
			out.f[t] = math.Inf(-1)
		case "amin":
			out.f[t] = math.Inf(1)
		}
		return
	}
	lo, hi := shIntRange(out.dt)
	if out.dt == tensor.Bool {
		lo, hi = 0, 1
	}
	switch reduce {
	case "sum", "mean":
		out.i[t] = 0
	case "prod":
		out.i[t] = 1
	case "amax":
		out.i[t] = lo
	case "amin":
		out.i[t] = hi
	}
}

// ixReduce combines element s of src into element t of out with reduce
// ("" assigns), rounding or wrapping to the dtype.
func ixReduce(out *ixVals, t int, src *ixVals, s int, reduce string) {
	dt := out.dt
	if out.f != nil {
		a, b := out.f[t], src.f[s]
		switch reduce {
		case "":
			a = b
		case "sum", "mean":
			a = roundTo(dt, a+b)
		case "prod":
			a = roundTo(dt, a*b)
		case "amax":
			// ATen: isnan(src) ? src : std::max(self, src).
			if math.IsNaN(b) || a < b {
				a = b
			}
		case "amin":
			if math.IsNaN(b) || b < a {
				a = b
			}
		}
		out.f[t] = a
		return
	}
	a, b := out.i[t], src.i[s]
	switch reduce {
	case "":
		a = b
	case "sum", "mean":
		a = ixWrap(dt, a+b)
	case "prod":
		a = ixWrap(dt, a*b)
	case "amax":
		a = max(a, b)
	case "amin":
		a = min(a, b)
	}
	out.i[t] = a
}

// ixCountAdd adds 1 to a mean's count n, which ATen keeps in the dtype of
// self (so it wraps or rounds like the values).
func ixCountAdd(dt tensor.DType, n float64) float64 {
	if dt.IsFloat() {
		return roundTo(dt, n+1)
	}
	return float64(ixWrap(dt, int64(n)+1))
}

// ixFloorDiv is a divided by b rounded toward negative infinity (b != 0).
func ixFloorDiv(a, b int64) int64 {
	if b == -1 {
		return -a // wraps for the minimum, as the C++ division would trap
	}
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// ixPutSlice writes src, converted to out's dtype, into view, a view of
// out that must have src's exact shape (select_scatter and slice_scatter
// do not broadcast).
func ixPutSlice(c *ops.Call, out, view, src *tensor.Tensor) ([]any, error) {
	if !slices.Equal(view.Shape(), src.Shape()) {
		return nil, c.Errorf("src", "expected src to have a size equal to the slice of self. src size = %v, slice size = %v", src.Shape(), view.Shape())
	}
	if out.IsMeta() || src.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(out.DType(), out.Shape()...))), nil
	}
	if view.Numel() > 0 {
		if err := view.CopyFrom(shConvert(src, out.DType())); err != nil {
			return nil, c.Errorf("src", "%v", err)
		}
	}
	return one(out), nil
}

// ixSelectScatter is aten::select_scatter: a copy of self with
// self.select(dim, index) replaced by src (of that exact shape, converted
// to self's dtype).
func ixSelectScatter(c *ops.Call) ([]any, error) {
	x, src := c.Tensor("self"), c.Tensor("src")
	if x.Dim() == 0 {
		return nil, c.Errorf("self", "select() cannot be applied to a 0-dim tensor.")
	}
	d, err := shDim(c, "dim", c.Int("dim"), x.Dim())
	if err != nil {
		return nil, err
	}
	idx, size := c.Int("index"), int64(x.Shape()[d])
	if idx < -size || idx >= size {
		return nil, c.Errorf("index", "select(): index %d out of range for tensor of size %v at dimension %d", idx, x.Shape(), c.Int("dim"))
	}
	if idx < 0 {
		idx += size
	}
	out := shRebase(x).Clone()
	return ixPutSlice(c, out, tensor.Must(out.Select(d, int(idx))), src)
}

// ixSliceBounds computes the start and the number of elements of a slice
// of a dimension of the given size as aten::slice.Tensor does: start and
// end default to the whole dimension, count from the end when negative,
// and are clamped.
func ixSliceBounds(c *ops.Call, size int64) (start, n, step int64, err error) {
	step = c.Int("step")
	if step <= 0 {
		return 0, 0, 0, c.Errorf("step", "slice step must be positive")
	}
	start, ok := c.OptInt("start")
	if !ok {
		start = 0
	}
	end, ok := c.OptInt("end")
	if !ok {
		end = math.MaxInt64
	}
	if start < 0 {
		start += size
	}
	if end < 0 {
		end += size
	}
	start = min(max(start, 0), size)
	end = min(max(end, start), size)
	n = end - start
	if n == 0 {
		return start, 0, 1, nil
	}
	return start, (n-1)/step + 1, min(step, n), nil
}

// ixSliceScatter is aten::slice_scatter: a copy of self with the slice
// start:end:step of dimension dim replaced by src (of that exact shape,
// converted to self's dtype).
func ixSliceScatter(c *ops.Call) ([]any, error) {
	x, src := c.Tensor("self"), c.Tensor("src")
	if x.Dim() == 0 {
		return nil, c.Errorf("self", "slice() cannot be applied to a 0-dim tensor.")
	}
	d, err := shDim(c, "dim", c.Int("dim"), x.Dim())
	if err != nil {
		return nil, err
	}
	start, n, step, err := ixSliceBounds(c, int64(x.Shape()[d]))
	if err != nil {
		return nil, err
	}
	out := shRebase(x).Clone()
	shape, strides := out.Shape(), out.Strides()
	off := out.Offset() + int(start)*strides[d]
	shape[d] = int(n)
	strides[d] *= int(step)
	if n == 0 {
		off = 0
	}
	return ixPutSlice(c, out, tensor.Must(out.AsStrided(shape, strides, off)), src)
}

// ixIsMask reports whether an index tensor is a mask (bool or uint8).
func ixIsMask(t *tensor.Tensor) bool {
	return t != nil && (t.DType() == tensor.Bool || t.DType() == tensor.Uint8)
}

// ixIndexPut is aten::index_put, the functional form of index_put_: a
// copy of self with self[indices] = values (or += values with
// accumulate), indices being int64 tensors (negative values count from
// the end), bool or uint8 masks, or None, as in aten::index.Tensor, and
// values broadcast to the shape of self[indices] with self's dtype.
// Without accumulate, a one-element values and a single mask (with Nones
// before it) take ATen's masked_fill shortcut: values may then have any
// dtype (its element is converted with the overflow check) and the mask
// is broadcast as masked_fill does. A write to the same element twice
// keeps the later one; accumulate adds in row-major order of the index.
func ixIndexPut(c *ops.Call) ([]any, error) {
	x, values := c.Tensor("self"), c.Tensor("values")
	indices := c.Tensors("indices")
	acc := c.Bool("accumulate")
	if len(indices) > x.Dim() {
		return nil, c.Errorf("indices", "too many indices for tensor of dimension %d (got %d)", x.Dim(), len(indices))
	}
	for _, t := range indices {
		if t != nil && t.DType() != tensor.Int64 && !ixIsMask(t) {
			return nil, c.Errorf("indices", "tensors used as indices must be long, byte or bool tensors")
		}
	}
	if !acc {
		if mask, ok, err := ixMaskedFillMask(c, x, indices, values); err != nil || ok {
			if err != nil {
				return nil, err
			}
			return ixMaskedFill(c, x, mask, values)
		}
	}
	if !slices.ContainsFunc(indices, func(t *tensor.Tensor) bool { return t != nil }) {
		return nil, c.Errorf("indices", "at least one index must be a tensor (not None)")
	}
	if values.DType() != x.DType() {
		return nil, c.Errorf("values", "Index put requires the source and destination dtypes match, got %s for the destination and %s for the source.", scalarTypeName(x.DType()), scalarTypeName(values.DType()))
	}
	// Masks of meta tensors have a data-dependent count: only the shape
	// of the result, self's, is known.
	if meta(x, values) || slices.ContainsFunc(indices, func(t *tensor.Tensor) bool { return t != nil && t.IsMeta() }) {
		return one(x.Meta()), nil
	}
	outShape, offs, err := ixIndexOffsets(c, x.Shape(), indices)
	if err != nil {
		return nil, err
	}
	if _, err := values.Expand(outShape...); err != nil {
		return nil, c.Errorf("values", "shape mismatch: value tensor of shape %v cannot be broadcast to indexing result of shape %v", values.Shape(), outShape)
	}
	out := ixLoad(x, x.DType())
	if len(offs) == 0 {
		return one(out.tensor(x.Shape())), nil
	}
	vals := ixLoad(tensor.Must(values.Expand(outShape...)), x.DType())
	reduce := ""
	if acc {
		reduce = "sum"
	}
	for i, t := range offs {
		ixReduce(out, t, vals, i, reduce)
	}
	return one(out.tensor(x.Shape())), nil
}

// ixMaskedFillMask reports whether index_put takes ATen's masked_fill
// shortcut (canDispatchToMaskedFill: one-element values and exactly one
// mask among the indices, the others None) and returns the mask with
// trailing dimensions of size 1 for the dimensions after the indexed
// ones. Dimensions of None indices after the mask are counted but not
// added, as in ATen, so such masks broadcast from the right.
func ixMaskedFillMask(c *ops.Call, x *tensor.Tensor, indices []*tensor.Tensor, values *tensor.Tensor) (*tensor.Tensor, bool, error) {
	if values.Numel() != 1 {
		return nil, false, nil
	}
	var mask *tensor.Tensor
	n := 0
	for _, t := range indices {
		if t == nil {
			n++
			continue
		}
		if !ixIsMask(t) || mask != nil {
			return nil, false, nil
		}
		mask = t
		shape := x.Shape()
		for j, m := range t.Shape() {
			src := n + j
			if src >= len(shape) {
				return nil, false, c.Errorf("indices", "Dimension out of range (expected to be in range of [%d, %d], but got %d)", -max(len(shape), 1), max(len(shape), 1)-1, src)
			}
			if m != shape[src] {
				return nil, false, c.Errorf("indices", "The shape of the mask %v at index %d does not match the shape of the indexed tensor %v at index %d", t.Shape(), j, shape, src)
			}
		}
		n += t.Dim()
	}
	if mask == nil {
		return nil, false, c.Errorf("indices", "at least one index must be a tensor (not None)")
	}
	ms := mask.Shape()
	for i := n; i < x.Dim(); i++ {
		ms = append(ms, 1)
	}
	return tensor.Must(mask.Reshape(ms...)), true, nil
}

// ixMaskedFill is masked_fill(self, mask, values.item()): a copy of self
// with the elements where mask (broadcast to self's shape) is set replaced
// by the single element of values, converted with the overflow check.
func ixMaskedFill(c *ops.Call, x, mask, values *tensor.Tensor) ([]any, error) {
	em, err := mask.Expand(x.Shape()...)
	if err != nil {
		return nil, c.Errorf("indices", "%v", err)
	}
	if meta(x, mask, values) {
		return one(x.Meta()), nil
	}
	var s ops.Scalar
	switch {
	case values.DType().IsFloat():
		s = ops.FloatScalar(values.Float64s()[0])
	case values.DType() == tensor.Bool:
		s = ops.BoolScalar(values.Bools()[0])
	default:
		s = ops.IntScalar(values.Int64s()[0])
	}
	v, err := shScalarValue(c, "values", s, x.DType())
	if err != nil {
		return nil, err
	}
	out := ixLoad(x, x.DType())
	for i, set := range em.Bools() {
		if !set {
			continue
		}
		if out.f != nil {
			out.f[i] = v.Float()
		} else {
			out.i[i] = ixWrap(x.DType(), v.Int())
		}
	}
	return one(out.tensor(x.Shape())), nil
}

// ixIndexOffsets computes advanced indexing of a contiguous tensor of the
// given shape as aten::index.Tensor does (see shExpandMasks and
// shAdvancedIndex) and returns the shape of the result and the row-major
// position in the tensor of every element of the result.
func ixIndexOffsets(c *ops.Call, shape []int, indices []*tensor.Tensor) ([]int, []int, error) {
	idx, err := shExpandMasks(c, shape, indices, false)
	if err != nil {
		return nil, nil, err
	}
	if !slices.ContainsFunc(idx, func(t *tensor.Tensor) bool { return t != nil }) {
		return nil, nil, c.Errorf("indices", "at least one index must be a tensor (not None, nor a 0-d mask)")
	}
	return shAdvancedIndex(c, shape, tensor.ContiguousStrides(shape), 0, idx, false)
}
