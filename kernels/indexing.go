package kernels

import (
	"math"
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Indexing, ATen's TensorAdvancedIndexing.cpp: gather, index.Tensor
// (advanced indexing), index_select, nonzero, and the scatter kernels, the
// functional forms of ATen's in-place writes: scatter (src and value),
// scatter_add, scatter_reduce.two and index_put, masked_fill, and 2.x's
// _unsafe_index, _unsafe_index_put and their masked forms; index_add,
// index_copy and index_fill through index_put. Each scatter returns a
// new contiguous tensor: a copy of self with the scattered elements
// written. Writes that hit the same element happen in the order ATen's
// single-threaded CPU kernels use (row-major over the index), and
// reductions round to the dtype after every step as ATen's kernels do.

// registerIndexing registers the kernels of indexing.go.
func registerIndexing() {
	registerIndexingExtra()
	registerBoth("aten::gather", gather)
	registerBoth("aten::index.Tensor", indexKernel)
	registerBoth("aten::index_select", indexSelect)
	register("aten::nonzero", nonzeroKernel, dataDependentMeta)
	registerBoth("aten::scatter.src", scatterSrc)
	registerBoth("aten::scatter.value", scatterValue)
	registerBoth("aten::scatter_add", scatterAdd)
	registerBoth("aten::scatter_reduce.two", scatterReduce)
	registerBoth("aten::index_put", indexPut)
	registerBoth("aten::masked_fill.Scalar", maskedFillScalar)
	registerBoth("aten::masked_fill.Tensor", maskedFillTensor)
	registerBoth("aten::_unsafe_index.Tensor", unsafeIndex)
	registerBoth("aten::_unsafe_index_put", unsafeIndexPut)
	registerBoth("aten::_unsafe_masked_index", unsafeMaskedIndex)
	registerBoth("aten::_unsafe_masked_index_put_accumulate", unsafeMaskedIndexPutAccumulate)
	registerBoth("aten::index_add", indexAdd)
	registerBoth("aten::index_copy", indexCopy)
	registerBoth("aten::index_fill.int_Scalar", indexFill)
	registerBoth("aten::index_fill.int_Tensor", indexFill)
}

// nonEmptyShape is a tensor's shape with a 0-d tensor counted as [1], as
// ATen's ensure_nonempty_dim and ensure_nonempty_size do.
func nonEmptyShape(t *tensor.Tensor) []int {
	if t.Dim() == 0 {
		return []int{1}
	}
	return t.Shape()
}

// nonEmptyStrides is the strides matching nonEmptyShape.
func nonEmptyStrides(t *tensor.Tensor) []int {
	if t.Dim() == 0 {
		return []int{1}
	}
	return t.Strides()
}

// gather is aten::gather: out[i][j][k] = self[index[i][j][k]][j][k] (for
// dim 0), with index's shape. Indices are not wrapped: a negative one is
// out of range.
func gather(c *ops.Call) ([]any, error) {
	x, index := c.Tensor("self"), c.Tensor("index")
	dim, err := wrapDim(c, "dim", c.Int("dim"), x.Dim())
	if err != nil {
		return nil, err
	}
	if index.DType() != tensor.Int64 {
		return nil, c.Errorf("index", "gather(): Expected dtype int64 for index")
	}
	xs, is := nonEmptyShape(x), nonEmptyShape(index)
	if index.Numel() != 0 {
		if len(xs) != len(is) {
			return nil, c.Errorf("index", "Index tensor must have the same number of dimensions as input tensor")
		}
		for d := range xs {
			if d != dim && is[d] > xs[d] {
				return nil, c.Errorf("index", "Size does not match at dimension %d expected index %v to be smaller than self %v apart from dimension %d", d, index.Shape(), x.Shape(), dim)
			}
		}
	}
	if meta(x, index) {
		return one(tensor.Must(tensor.NewMeta(x.DType(), index.Shape()...))), nil
	}
	strides := nonEmptyStrides(x)
	ds := strides[dim]
	strides[dim] = 0
	if len(is) != len(strides) {
		// Only an empty index gets here.
		return one(tensor.Empty(x.DType(), index.Shape()...)), nil
	}
	offs := offsets(is, strides, x.Offset())
	size := int64(xs[dim])
	for i, v := range index.Int64s() {
		if v < 0 || v >= size {
			return nil, c.Errorf("index", "index %d is out of bounds for dimension %d with size %d", v, dim, size)
		}
		offs[i] += int(v) * ds
	}
	return one(take(x, index.Shape(), offs)), nil
}

// indexSelect is aten::index_select: the entries of self at index (int64
// or int32, at most 1-d, not wrapped) along dim.
func indexSelect(c *ops.Call) ([]any, error) {
	x, index := c.Tensor("self"), c.Tensor("index")
	dim, err := wrapDim(c, "dim", c.Int("dim"), x.Dim())
	if err != nil {
		return nil, err
	}
	if index.Dim() > 1 {
		return nil, c.Errorf("index", "index_select(): Index is supposed to be a vector")
	}
	if index.DType() != tensor.Int64 && index.DType() != tensor.Int32 {
		return nil, c.Errorf("index", "index_select(): Expected dtype int32 or int64 for index")
	}
	shape := x.Shape()
	n := index.Numel()
	if x.Dim() > 0 {
		shape[dim] = n
	}
	if meta(x, index) {
		return one(tensor.Must(tensor.NewMeta(x.DType(), shape...))), nil
	}
	size := int64(nonEmptyShape(x)[dim])
	idx := index.Int64s()
	for _, v := range idx {
		if v < 0 || v >= size {
			return nil, c.Errorf("index", "index out of range in self")
		}
	}
	if x.Dim() == 0 {
		return one(x.Clone()), nil
	}
	strides := x.Strides()
	ds := strides[dim]
	strides[dim] = 0
	offs := offsets(shape, strides, x.Offset())
	// The coordinate along dim of every output element.
	unit := make([]int, len(shape))
	unit[dim] = 1
	for i, k := range offsets(shape, unit, 0) {
		offs[i] += int(idx[k]) * ds
	}
	return one(take(x, shape, offs)), nil
}

// indexKernel is aten::index.Tensor, NumPy-style advanced indexing: indices
// (int64 tensors, bool or uint8 masks, or None) are broadcast together; the
// indexed dimensions are replaced by the broadcast shape, in place when
// the indexed dimensions are adjacent and at the front otherwise. Negative
// indices count from the end. A mask's output shape depends on its values,
// so meta tensors with masks are an error.
func indexKernel(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	indices := c.Tensors("indices")
	if len(indices) > x.Dim() {
		return nil, c.Errorf("indices", "too many indices for tensor of dimension %d (got %d)", x.Dim(), len(indices))
	}
	for _, t := range indices {
		if t == nil {
			continue
		}
		switch t.DType() {
		case tensor.Int64, tensor.Bool, tensor.Uint8:
		default:
			return nil, c.Errorf("indices", "tensors used as indices must be long, byte or bool tensors")
		}
	}
	isMeta := x.IsMeta() || slices.ContainsFunc(indices, func(t *tensor.Tensor) bool { return t != nil && t.IsMeta() })
	idx, err := expandMasks(c, x.Shape(), indices, isMeta)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(idx, func(t *tensor.Tensor) bool { return t != nil }) {
		// ATen's kernel asserts when it has no index tensor, unless there
		// is nothing to copy.
		if x.Numel() != 0 || x.Dim() == 0 {
			return nil, c.Errorf("indices", "at least one index must be a tensor (not None, nor a 0-d mask)")
		}
		return one(tensor.Must(empty(x.IsMeta(), x.DType(), x.Shape()))), nil
	}
	outShape, offs, err := advancedIndex(c, x.Shape(), x.Strides(), x.Offset(), idx, isMeta)
	if err != nil {
		return nil, err
	}
	if isMeta {
		return one(tensor.Must(tensor.NewMeta(x.DType(), outShape...))), nil
	}
	if len(offs) == 0 {
		return one(tensor.Must(tensor.New(x.DType(), outShape...))), nil
	}
	return one(take(x, outShape, offs)), nil
}

// expandMasks replaces every bool or uint8 mask among indices by the
// int64 indices of its nonzero positions, one per mask dimension, after
// checking the mask's shape against the indexed dimensions (0-d masks
// vanish). Meta masks with dimensions are refused: the number of nonzero
// positions is data.
func expandMasks(c *ops.Call, shape []int, indices []*tensor.Tensor, isMeta bool) ([]*tensor.Tensor, error) {
	var idx []*tensor.Tensor
	for _, t := range indices {
		if t == nil || t.DType() == tensor.Int64 {
			idx = append(idx, t)
			continue
		}
		ms := t.Shape()
		for j, m := range ms {
			src := len(idx) + j
			if src >= len(shape) {
				return nil, c.Errorf("indices", "too many indices for tensor of dimension %d", len(shape))
			}
			if m != shape[src] {
				return nil, c.Errorf("indices", "The shape of the mask %v at index %d does not match the shape of the indexed tensor %v at index %d", ms, j, shape, src)
			}
		}
		if isMeta {
			if len(ms) > 0 {
				return nil, c.Errorf("indices", "boolean mask index: data-dependent output shape, which meta tensors cannot compute")
			}
			continue
		}
		idx = append(idx, maskNonzero(t)...)
	}
	return idx, nil
}

// advancedIndex is the core of aten::index.Tensor on a tensor of the
// given shape, strides and storage offset, with int64 indices (nil for a
// whole dimension; at least one is set): the indices broadcast together,
// and indexed dimensions that are not adjacent move to the front. It
// returns the shape of the result and, unless isMeta or the result is
// empty, the storage offset of every element of the result.
func advancedIndex(c *ops.Call, shape, strides []int, offset int, idx []*tensor.Tensor, isMeta bool) ([]int, []int, error) {
	var shapes [][]int
	for _, t := range idx {
		if t != nil {
			shapes = append(shapes, t.Shape())
		}
	}
	repl, err := ops.BroadcastShapes(shapes...)
	if err != nil {
		return nil, nil, c.Errorf("indices", "shape mismatch: indexing tensors could not be broadcast together with shapes %v", shapes)
	}
	for len(idx) < len(shape) {
		idx = append(idx, nil)
	}
	first := slices.IndexFunc(idx, func(t *tensor.Tensor) bool { return t != nil })
	last := first
	for d, t := range idx {
		if t != nil {
			last = d
		}
	}
	if slices.Contains(idx[first:last+1], nil) {
		order := make([]int, 0, len(idx))
		for d, t := range idx {
			if t != nil {
				order = append(order, d)
			}
		}
		for d, t := range idx {
			if t == nil {
				order = append(order, d)
			}
		}
		idx = permuteSlice(idx, order)
		shape = permuteSlice(shape, order)
		strides = permuteSlice(strides, order)
		first = 0
	}
	nIdx := len(shapes)
	before, after := shape[:first], shape[first+nIdx:]
	outShape := slices.Concat(before, repl, after)
	for d := first; d < first+nIdx; d++ {
		if shape[d] == 0 && !slices.Contains(repl, 0) {
			return nil, nil, c.Errorf("indices", "index is out of bounds for dimension with size 0")
		}
	}
	if isMeta {
		return outShape, nil, nil
	}
	n, err := tensor.Numel(outShape)
	if err != nil {
		return nil, nil, c.Errorf("indices", "%v", err)
	}
	if n == 0 {
		return outShape, nil, nil
	}
	// The offset contributed by the indexed dimensions at every position of
	// the broadcast index shape.
	nr, _ := tensor.Numel(repl)
	add := make([]int, nr)
	for k := 0; k < nIdx; k++ {
		d := first + k
		vals := expandedValues[int64](idx[d], repl)
		size := int64(shape[d])
		for i, v := range vals {
			if v < -size || v >= size {
				return nil, nil, c.Errorf("indices", "index %d is out of bounds for dimension %d with size %d", v, k, size)
			}
			if v < 0 {
				v += size
			}
			add[i] += int(v) * strides[d]
		}
	}
	ostr := slices.Concat(strides[:first], make([]int, len(repl)), strides[first+nIdx:])
	offs := offsets(outShape, ostr, offset)
	rstr := slices.Concat(make([]int, len(before)), tensor.ContiguousStrides(repl), make([]int, len(after)))
	for i, r := range offsets(outShape, rstr, 0) {
		offs[i] += add[r]
	}
	return outShape, offs, nil
}

// permuteSlice returns s reordered: element i of the result is
// s[order[i]].
func permuteSlice[T any](s []T, order []int) []T {
	out := make([]T, len(order))
	for i, o := range order {
		out[i] = s[o]
	}
	return out
}

// maskNonzero returns, for each dimension of mask, the int64 coordinates of
// its nonzero elements in row-major order (the columns of
// mask.nonzero()).
func maskNonzero(mask *tensor.Tensor) []*tensor.Tensor {
	shape := mask.Shape()
	vals := mask.Bools()
	coords := make([][]int64, len(shape))
	idx := make([]int, len(shape))
	for _, v := range vals {
		if v {
			for d, i := range idx {
				coords[d] = append(coords[d], int64(i))
			}
		}
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	out := make([]*tensor.Tensor, len(shape))
	for d := range out {
		cs := coords[d]
		if cs == nil {
			cs = []int64{}
		}
		out[d] = tensor.Must(tensor.FromSlice(cs, len(cs)))
	}
	return out
}

// nonzeroKernel is aten::nonzero: the int64 [n, ndim] indices of the nonzero
// elements (NaN counts) in row-major order.
func nonzeroKernel(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	shape := self.Shape()
	nd := len(shape)
	vals := self.Contiguous().Bools()
	var out []int64
	idx := make([]int64, nd)
	for _, v := range vals {
		if v {
			out = append(out, idx...)
		}
		for j := nd - 1; j >= 0; j-- {
			idx[j]++
			if idx[j] < int64(shape[j]) {
				break
			}
			idx[j] = 0
		}
	}
	n := 0
	if nd > 0 {
		n = len(out) / nd
	} else {
		for _, v := range vals {
			if v {
				n++
			}
		}
	}
	return one(intResult(tensor.Int64, out, []int{n, nd})), nil
}

// wrapInt wraps v to integral dtype dt (bool: nonzero is 1), as C++'s
// integer conversions do.
func wrapInt(dt tensor.DType, v int64) int64 {
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

// scatterValues holds a tensor's elements while a kernel writes into them: as
// float64 for floating dtypes, as int64 (bool as 0/1) otherwise.
type scatterValues struct {
	dt tensor.DType
	f  []float64
	i  []int64
}

// load returns x's elements in row-major order, converted to dt.
func load(x *tensor.Tensor, dt tensor.DType) *scatterValues {
	x = rebase(x)
	if x.DType() != dt {
		x = convert(x, dt)
	}
	if dt.IsFloat() {
		return &scatterValues{dt: dt, f: x.Float64s()}
	}
	return &scatterValues{dt: dt, i: x.Int64s()}
}

// tensor returns the values as a contiguous tensor of the given shape.
func (v *scatterValues) tensor(shape []int) *tensor.Tensor {
	if v.dt.IsFloat() {
		return tensor.Must(tensor.FromFloat64s(v.dt, v.f, shape...))
	}
	return tensor.Must(tensor.FromInt64s(v.dt, v.i, shape...))
}

// scatterTargets checks the arguments of a scatter-like op (ATen's
// scatter_gather_dtype_check and scatter_shape_check, then the kernel's
// bounds check) and returns, for every element of index in row-major
// order, the row-major position in self it writes and the row-major
// position in src (when src is not nil) it reads. Meta tensors return
// after the checks that need no data.
func scatterTargets(c *ops.Call, self, index, src *tensor.Tensor) (dim int, tgt, from []int, err error) {
	dim, err = wrapDim(c, "dim", c.Int("dim"), self.Dim())
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
	xs, is := nonEmptyShape(self), nonEmptyShape(index)
	if len(xs) != len(is) {
		return 0, nil, nil, c.Errorf("index", "Index tensor must have the same number of dimensions as self tensor")
	}
	var ss []int
	if src != nil {
		ss = nonEmptyShape(src)
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
	tgt = offsets(is, xstr, 0)
	size := int64(xs[dim])
	for i, v := range index.Int64s() {
		if v < 0 || v >= size {
			return 0, nil, nil, c.Errorf("index", "index %d is out of bounds for dimension %d with size %d", v, dim, size)
		}
		tgt[i] += int(v) * ds
	}
	if src != nil {
		from = offsets(is, tensor.ContiguousStrides(ss), 0)
	}
	return dim, tgt, from, nil
}

// scatterSrc is aten::scatter.src: a copy of self with
// self[index[i][j]][j] = src[i][j] (for dim 0); a later write to the same
// element wins.
func scatterSrc(c *ops.Call) ([]any, error) {
	return scatterReduceOp(c, c.Tensor("src"), "", true)
}

// scatterValue is aten::scatter.value: scatter with every written
// element set to value (converted to self's dtype with ATen's overflow
// check).
func scatterValue(c *ops.Call) ([]any, error) {
	x, index := c.Tensor("self"), c.Tensor("index")
	_, tgt, _, err := scatterTargets(c, x, index, nil)
	if err != nil {
		return nil, err
	}
	v, err := scalarValue(c, "value", c.Scalar("value"), x.DType())
	if err != nil {
		return nil, err
	}
	if meta(x, index) {
		return one(x.Meta()), nil
	}
	out := load(x, x.DType())
	for _, t := range tgt {
		if out.f != nil {
			out.f[t] = v.Float()
		} else {
			out.i[t] = wrapInt(x.DType(), v.Int())
		}
	}
	return one(out.tensor(x.Shape())), nil
}

// scatterAdd is aten::scatter_add: scatter adding src into self.
func scatterAdd(c *ops.Call) ([]any, error) {
	return scatterReduceOp(c, c.Tensor("src"), "sum", true)
}

// scatterReduce is aten::scatter_reduce.two: scatter reducing src into
// self with "sum", "prod", "mean", "amax" or "amin"; without include_self
// the written elements of self start from the reduction's identity (-inf
// or the dtype's lowest value for amax, +inf or its highest for amin)
// instead of self's value. mean divides by the number of values reduced
// (floor division for integral dtypes); amax and amin propagate NaN.
func scatterReduce(c *ops.Call) ([]any, error) {
	reduce := c.Str("reduce")
	switch reduce {
	case "sum", "prod", "mean", "amax", "amin":
	default:
		return nil, c.Errorf("reduce", "reduce argument must be either sum, prod, mean, amax or amin, got %s", reduce)
	}
	return scatterReduceOp(c, c.Tensor("src"), reduce, c.Bool("include_self"))
}

// scatterReduceOp is the common part of scatter.src (reduce ""),
// scatter_add and scatter_reduce.two.
func scatterReduceOp(c *ops.Call, src *tensor.Tensor, reduce string, includeSelf bool) ([]any, error) {
	x, index := c.Tensor("self"), c.Tensor("index")
	_, tgt, from, err := scatterTargets(c, x, index, src)
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
	out := load(x, dt)
	if tgt == nil {
		return one(out.tensor(x.Shape())), nil
	}
	sv := load(src, dt)
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
			scatterInit(out, t, reduce)
		}
	}
	for k, t := range tgt {
		scatterReduceStep(out, t, sv, from[k], reduce)
		if count != nil {
			count[t] = countAdd(dt, count[t])
		}
	}
	for t, n := range count {
		if n == 0 {
			n = 1
		}
		if out.f != nil {
			out.f[t] = roundTo(dt, out.f[t]/n)
		} else {
			out.i[t] = wrapInt(dt, floorDivWrapped(out.i[t], int64(n)))
		}
	}
	return one(out.tensor(x.Shape())), nil
}

// scatterInit sets element t of out to the identity of reduce, as ATen does
// for the written elements when include_self is false.
func scatterInit(out *scatterValues, t int, reduce string) {
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
	lo, hi := intRange(out.dt)
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

// scatterReduceStep combines element s of src into element t of out with reduce
// ("" assigns), rounding or wrapping to the dtype.
func scatterReduceStep(out *scatterValues, t int, src *scatterValues, s int, reduce string) {
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
		a = wrapInt(dt, a+b)
	case "prod":
		a = wrapInt(dt, a*b)
	case "amax":
		a = max(a, b)
	case "amin":
		a = min(a, b)
	}
	out.i[t] = a
}

// countAdd adds 1 to a mean's count n, which ATen keeps in the dtype of
// self (so it wraps or rounds like the values).
func countAdd(dt tensor.DType, n float64) float64 {
	if dt.IsFloat() {
		return roundTo(dt, n+1)
	}
	return float64(wrapInt(dt, int64(n)+1))
}

// floorDivWrapped is a divided by b rounded toward negative infinity (b != 0).
func floorDivWrapped(a, b int64) int64 {
	if b == -1 {
		return -a // wraps for the minimum, as the C++ division would trap
	}
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// putSlice writes src, converted to out's dtype, into view, a view of
// out that must have src's exact shape (select_scatter and slice_scatter
// do not broadcast).
func putSlice(c *ops.Call, out, view, src *tensor.Tensor) ([]any, error) {
	if !slices.Equal(view.Shape(), src.Shape()) {
		return nil, c.Errorf("src", "expected src to have a size equal to the slice of self. src size = %v, slice size = %v", src.Shape(), view.Shape())
	}
	if out.IsMeta() || src.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(out.DType(), out.Shape()...))), nil
	}
	if view.Numel() > 0 {
		if err := view.CopyFrom(convert(src, out.DType())); err != nil {
			return nil, c.Errorf("src", "%v", err)
		}
	}
	return one(out), nil
}

// isMask reports whether an index tensor is a mask (bool or uint8).
func isMask(t *tensor.Tensor) bool {
	return t != nil && (t.DType() == tensor.Bool || t.DType() == tensor.Uint8)
}

// indexPut is aten::index_put, the functional form of index_put_: a
// copy of self with self[indices] = values (or += values with
// accumulate), indices being int64 tensors (negative values count from
// the end), bool or uint8 masks, or None, as in aten::index.Tensor, and
// values broadcast to the shape of self[indices] with self's dtype.
// Without accumulate, a one-element values and a single mask (with Nones
// before it) take ATen's masked_fill shortcut: values may then have any
// dtype (its element is converted with the overflow check) and the mask
// is broadcast as masked_fill does. A write to the same element twice
// keeps the later one; accumulate adds in row-major order of the index.
func indexPut(c *ops.Call) ([]any, error) {
	x, values := c.Tensor("self"), c.Tensor("values")
	indices := c.Tensors("indices")
	acc := c.Bool("accumulate")
	if len(indices) > x.Dim() {
		return nil, c.Errorf("indices", "too many indices for tensor of dimension %d (got %d)", x.Dim(), len(indices))
	}
	for _, t := range indices {
		if t != nil && t.DType() != tensor.Int64 && !isMask(t) {
			return nil, c.Errorf("indices", "tensors used as indices must be long, byte or bool tensors")
		}
	}
	if !acc {
		if mask, ok, err := maskedFillMask(c, x, indices, values); err != nil || ok {
			if err != nil {
				return nil, err
			}
			return maskedFill(c, x, mask, values)
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
	outShape, offs, err := indexOffsets(c, x.Shape(), indices)
	if err != nil {
		return nil, err
	}
	if _, err := values.Expand(outShape...); err != nil {
		return nil, c.Errorf("values", "shape mismatch: value tensor of shape %v cannot be broadcast to indexing result of shape %v", values.Shape(), outShape)
	}
	out := load(x, x.DType())
	if len(offs) == 0 {
		return one(out.tensor(x.Shape())), nil
	}
	vals := load(tensor.Must(values.Expand(outShape...)), x.DType())
	reduce := ""
	if acc {
		reduce = "sum"
	}
	for i, t := range offs {
		scatterReduceStep(out, t, vals, i, reduce)
	}
	return one(out.tensor(x.Shape())), nil
}

// maskedFillMask reports whether index_put takes ATen's masked_fill
// shortcut (canDispatchToMaskedFill: one-element values and exactly one
// mask among the indices, the others None) and returns the mask with
// trailing dimensions of size 1 for the dimensions after the indexed
// ones. Dimensions of None indices after the mask are counted but not
// added, as in ATen, so such masks broadcast from the right.
func maskedFillMask(c *ops.Call, x *tensor.Tensor, indices []*tensor.Tensor, values *tensor.Tensor) (*tensor.Tensor, bool, error) {
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
		if !isMask(t) || mask != nil {
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

// maskedFill is masked_fill(self, mask, values.item()): a copy of self
// with the elements where mask (broadcast to self's shape) is set replaced
// by the single element of values, converted with the overflow check.
func maskedFill(c *ops.Call, x, mask, values *tensor.Tensor) ([]any, error) {
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
	v, err := scalarValue(c, "values", s, x.DType())
	if err != nil {
		return nil, err
	}
	out := load(x, x.DType())
	for i, set := range em.Bools() {
		if !set {
			continue
		}
		if out.f != nil {
			out.f[i] = v.Float()
		} else {
			out.i[i] = wrapInt(x.DType(), v.Int())
		}
	}
	return one(out.tensor(x.Shape())), nil
}

// indexOffsets computes advanced indexing of a contiguous tensor of the
// given shape as aten::index.Tensor does (see expandMasks and
// advancedIndex) and returns the shape of the result and the row-major
// position in the tensor of every element of the result.
func indexOffsets(c *ops.Call, shape []int, indices []*tensor.Tensor) ([]int, []int, error) {
	idx, err := expandMasks(c, shape, indices, false)
	if err != nil {
		return nil, nil, err
	}
	if !slices.ContainsFunc(idx, func(t *tensor.Tensor) bool { return t != nil }) {
		return nil, nil, c.Errorf("indices", "at least one index must be a tensor (not None, nor a 0-d mask)")
	}
	return advancedIndex(c, shape, tensor.ContiguousStrides(shape), 0, idx, false)
}

// maskedFillValue writes v (already converted to self's dtype) where mask is
// true, into a copy of self broadcast with mask: ATen's functional
// masked_fill (expand_outplace, clone, masked_fill_).
func maskedFillValue(c *ops.Call, v ops.Scalar) ([]any, error) {
	self, mask := c.Tensor("self"), c.Tensor("mask")
	// PyTorch 1.13 still takes uint8 masks (deprecated; 2.x refuses them).
	if mask.DType() != tensor.Bool && mask.DType() != tensor.Uint8 {
		return nil, c.Errorf("mask", "masked_fill_ only supports boolean masks, but got mask with dtype %s", demangledTypeName(mask.DType()))
	}
	shape, err := broadcast(c, "mask", self, mask)
	if err != nil {
		return nil, err
	}
	dt := self.DType()
	if meta(self, mask) {
		return one(tensor.Must(tensor.NewMeta(dt, shape...))), nil
	}
	m := expandedTensor(mask, shape).Bools()
	x := expandedTensor(self, shape)
	if dt.IsFloat() {
		vals, f := x.Float64s(), v.Float()
		for i, b := range m {
			if b {
				vals[i] = f
			}
		}
		return one(tensor.Must(tensor.FromFloat64s(dt, vals, shape...))), nil
	}
	vals, n := x.Int64s(), v.Int()
	for i, b := range m {
		if b {
			vals[i] = n
		}
	}
	return one(tensor.Must(tensor.FromInt64s(dt, vals, shape...))), nil
}

// maskedFillScalar is aten::masked_fill.Scalar: self with value where mask
// (bool, broadcast) is true; value converted to self's dtype with ATen's
// overflow check.
func maskedFillScalar(c *ops.Call) ([]any, error) {
	v, err := scalarValue(c, "value", c.Scalar("value"), c.Tensor("self").DType())
	if err != nil {
		return nil, err
	}
	return maskedFillValue(c, v)
}

// maskedFillTensor is aten::masked_fill.Tensor: masked_fill.Scalar with
// the value of a 0-d tensor.
func maskedFillTensor(c *ops.Call) ([]any, error) {
	value := c.Tensor("value")
	if value.Dim() != 0 {
		return nil, c.Errorf("value", "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", value.Dim())
	}
	dt := c.Tensor("self").DType()
	if value.IsMeta() {
		return maskedFillValue(c, ops.IntScalar(0))
	}
	var s ops.Scalar
	switch vd := value.DType(); {
	case vd.IsFloat():
		s = ops.FloatScalar(value.Float64s()[0])
	case vd == tensor.Bool:
		s = ops.BoolScalar(value.Bools()[0])
	default:
		s = ops.IntScalar(value.Int64s()[0])
	}
	v, err := scalarValue(c, "value", s, dt)
	if err != nil {
		return nil, err
	}
	return maskedFillValue(c, v)
}

// unsafeIndex is aten::_unsafe_index.Tensor (2.x): index.Tensor without
// the promise of bounds checks (these kernels check anyway).
func unsafeIndex(c *ops.Call) ([]any, error) {
	return delegate(c, "aten::index.Tensor", []any{c.Tensor("self"), c.Arg("indices")}, nil)
}

// unsafeIndexPut is aten::_unsafe_index_put (2.x): index_put.
func unsafeIndexPut(c *ops.Call) ([]any, error) {
	return delegate(c, "aten::index_put", []any{c.Tensor("self"), c.Arg("indices"), c.Tensor("values"), c.Bool("accumulate")}, nil)
}

// clampedIndices returns the indices of c clamped into [lo(size), size-1]
// along their dimensions of x, checking they are integral.
func clampedIndices(p *chain, x *tensor.Tensor, indices []*tensor.Tensor, negative bool) []any {
	out := make([]any, len(indices))
	for i, t := range indices {
		if t == nil {
			continue
		}
		if dt := t.DType(); dt != tensor.Int64 && dt != tensor.Int32 {
			if p.err == nil {
				p.err = p.c.Errorf("indices", "tensors used as indices must be long or int tensors")
			}
			return nil
		}
		if i >= x.Dim() {
			continue
		}
		lo := int64(0)
		if negative {
			lo = -int64(x.Size(i))
		}
		out[i] = p.call("aten::clamp", t, ops.IntScalar(lo), ops.IntScalar(int64(x.Size(i)-1)))
	}
	return out
}

// unsafeMaskedIndex is aten::_unsafe_masked_index (2.x, how upsampling
// with padding decomposes): x[indices] with each index clamped into
// [-size, size-1] of its dimension, and fill where mask is false. An empty
// x is first replaced by a tensor of fill whose indexed empty dimensions
// have size 1, as ATen's kernel does.
func unsafeMaskedIndex(c *ops.Call) ([]any, error) {
	x, mask := c.Tensor("self"), c.Tensor("mask")
	if mask.DType() != tensor.Bool {
		return nil, c.Errorf("mask", "_unsafe_masked_index found unexpected dtype for mask. Expected Bool, got %s", scalarTypeName(mask.DType()))
	}
	p := &chain{c: c, arg: "indices"}
	indices := c.Tensors("indices")
	fill := c.Scalar("fill")
	if x.Numel() == 0 {
		shape := x.Shape()
		for i, t := range indices {
			if t != nil && i < len(shape) && shape[i] == 0 {
				shape[i] = 1
			}
		}
		v, err := scalarValue(c, "fill", fill, x.DType())
		if err != nil {
			return nil, err
		}
		full, err := fullTensor(x.IsMeta(), x.DType(), shape, v)
		if err != nil {
			return nil, c.Errorf("self", "%v", err)
		}
		return p.result(p.call("aten::index.Tensor", full, clampedIndices(p, full, indices, true)))
	}
	idx := clampedIndices(p, x, indices, true)
	g := p.call("aten::index.Tensor", x, idx)
	return p.result(p.call("aten::masked_fill.Scalar", g, p.call("aten::logical_not", mask), fill))
}

// unsafeMaskedIndexPutAccumulate is
// aten::_unsafe_masked_index_put_accumulate (2.x): index_put with
// accumulate of values zeroed where mask is false, the indices clamped
// into [-size, size-1].
func unsafeMaskedIndexPutAccumulate(c *ops.Call) ([]any, error) {
	x, mask := c.Tensor("self"), c.Tensor("mask")
	if mask.DType() != tensor.Bool {
		return nil, c.Errorf("mask", "_unsafe_masked_index_put_accumulate found unexpected dtype for mask. Expected Bool, got %s", scalarTypeName(mask.DType()))
	}
	p := &chain{c: c, arg: "indices"}
	idx := clampedIndices(p, x, c.Tensors("indices"), true)
	v := p.call("aten::masked_fill.Scalar", c.Tensor("values"), p.call("aten::logical_not", mask), ops.IntScalar(0))
	return p.result(p.call("aten::index_put", x, idx, v, true))
}

// indexAlong returns the index list that selects index (a 0-d or 1-d
// integer tensor) along dimension dim of x, for index_put, and dim
// normalized.
func indexAlong(c *ops.Call, x *tensor.Tensor) ([]any, int, error) {
	d, err := wrapReduceDim(c, "dim", c.Int("dim"), x.Dim())
	if err != nil {
		return nil, 0, err
	}
	idx := c.Tensor("index")
	if idx.Dim() > 1 {
		return nil, 0, c.Errorf("index", "Index is supposed to be a vector")
	}
	if dt := idx.DType(); dt != tensor.Int64 && dt != tensor.Int32 {
		return nil, 0, c.Errorf("index", "Expected dtype int32/int64 for index but got: %s", scalarTypeName(dt))
	}
	if idx.Dim() == 0 {
		idx = tensor.Must(idx.Reshape(1))
	}
	list := make([]any, d+1)
	list[d] = idx
	return list, d, nil
}

// indexWrite is index_add, index_copy and index_fill: index_put of values
// along dim at index (accumulating for index_add).
func indexWrite(c *ops.Call, values *tensor.Tensor, accumulate bool) ([]any, error) {
	self := c.Tensor("self")
	x := self
	if x.Dim() == 0 {
		x = tensor.Must(x.Reshape(1))
	}
	list, _, err := indexAlong(c, x)
	if err != nil {
		return nil, err
	}
	if values.Dim() == 0 && self.Dim() == 0 {
		values = tensor.Must(values.Reshape(1))
	}
	p := &chain{c: c, arg: "index"}
	out := p.call("aten::index_put", x, list, values, accumulate)
	if p.err == nil && self.Dim() == 0 {
		out = tensor.Must(out.Reshape())
	}
	return p.result(out)
}

// indexAdd is aten::index_add: self with alpha*source[i] added to the
// slice index[i] of dim, for every i.
func indexAdd(c *ops.Call) ([]any, error) {
	p := &chain{c: c, arg: "source"}
	src := p.call("aten::mul.Scalar", c.Tensor("source"), c.Scalar("alpha"))
	if p.err != nil {
		return nil, p.err
	}
	return indexWrite(c, to(src, c.Tensor("self").DType()), true)
}

// indexCopy is aten::index_copy: self with the slice index[i] of dim
// replaced by source[i].
func indexCopy(c *ops.Call) ([]any, error) {
	src := c.Tensor("source")
	if src.DType() != c.Tensor("self").DType() {
		return nil, c.Errorf("source", "index_copy_(): self and source expected to have the same dtype, but got (self) %s and (source) %s",
			scalarTypeName(c.Tensor("self").DType()), scalarTypeName(src.DType()))
	}
	return indexWrite(c, src, false)
}

// indexFill is aten::index_fill.int_Scalar and .int_Tensor: self with the
// slices index of dim filled with value (a Scalar or 0-d tensor),
// converted to self's dtype.
func indexFill(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	var s ops.Scalar
	switch v := c.Arg("value").(type) {
	case *tensor.Tensor:
		if v.Dim() != 0 {
			return nil, c.Errorf("value", "index_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", v.Dim())
		}
		switch {
		case v.IsMeta():
			s = ops.IntScalar(0)
		case v.DType().IsFloat():
			s = ops.FloatScalar(v.Float64s()[0])
		case v.DType() == tensor.Bool:
			s = ops.BoolScalar(v.Bools()[0])
		default:
			s = ops.IntScalar(v.Int64s()[0])
		}
	case ops.Scalar:
		s = v
	}
	val, err := scalarValue(c, "value", s, self.DType())
	if err != nil {
		return nil, err
	}
	t, err := fullTensor(self.IsMeta(), self.DType(), []int{}, val)
	if err != nil {
		return nil, c.Errorf("value", "%v", err)
	}
	return indexWrite(c, t, false)
}

// registerIndexingExtra registers the indexing kernels below (masked_select,
// masked_scatter, take, take_along_dim, put, index_reduce); registerIndexing
// calls it.
func registerIndexingExtra() {
	register("aten::masked_select", maskedSelect, dataDependentMeta)
	registerBoth("aten::masked_scatter", maskedScatter)
	registerBoth("aten::take", takeKernel)
	registerBoth("aten::take_along_dim", takeAlongDim)
	registerBoth("aten::put", put)
	registerBoth("aten::index_reduce", indexReduceKernel)
}

// elems holds a tensor's elements in row-major order: as float64 for
// floating dtypes, int64 otherwise, so that moving them is exact.
type elems struct {
	dt tensor.DType
	f  []float64
	i  []int64
}

func elemsOf(t *tensor.Tensor) elems {
	if t.DType().IsFloat() {
		return elems{dt: t.DType(), f: t.Contiguous().Float64s()}
	}
	return elems{dt: t.DType(), i: t.Contiguous().Int64s()}
}

// tensor returns the elems as a tensor of shape.
func (v elems) tensor(shape ...int) *tensor.Tensor {
	if v.f != nil || v.dt.IsFloat() {
		return tensor.Must(tensor.FromFloat64s(v.dt, v.f, shape...))
	}
	return tensor.Must(tensor.FromInt64s(v.dt, v.i, shape...))
}

// gather returns the elems at positions idx.
func (v elems) gather(idx []int) elems {
	out := elems{dt: v.dt}
	if v.dt.IsFloat() {
		out.f = make([]float64, len(idx))
		for k, j := range idx {
			out.f[k] = v.f[j]
		}
	} else {
		out.i = make([]int64, len(idx))
		for k, j := range idx {
			out.i[k] = v.i[j]
		}
	}
	return out
}

// set copies element j of src to element k of v.
func (v elems) set(k int, src elems, j int) {
	if v.dt.IsFloat() {
		v.f[k] = src.f[j]
	} else {
		v.i[k] = src.i[j]
	}
}

// maskedSelect is aten::masked_select: the elements of self where the
// bool mask is true, self and mask broadcast together, as a 1-d tensor.
func maskedSelect(c *ops.Call) ([]any, error) {
	self, mask := c.Tensor("self"), c.Tensor("mask")
	if mask.DType() != tensor.Bool {
		return nil, c.Errorf("mask", "masked_select: expected BoolTensor for mask")
	}
	shape, err := broadcast(c, "mask", self, mask)
	if err != nil {
		return nil, err
	}
	s := elemsOf(expandedTensor(self, shape))
	m := expandedTensor(mask, shape).Contiguous().Int64s()
	var idx []int
	for k, b := range m {
		if b != 0 {
			idx = append(idx, k)
		}
	}
	return one(s.gather(idx).tensor(len(idx))), nil
}

// maskedScatter is aten::masked_scatter: self and mask broadcast
// together, with the positions where mask is true filled, in order, from
// the elements of source.
func maskedScatter(c *ops.Call) ([]any, error) {
	self, mask, src := c.Tensor("self"), c.Tensor("mask"), c.Tensor("source")
	if mask.DType() != tensor.Bool {
		return nil, c.Errorf("mask", "masked_scatter_ only supports boolean masks, but got mask with dtype %s", scalarTypeName(mask.DType()))
	}
	if src.DType() != self.DType() {
		return nil, c.Errorf("source", "masked_scatter: expected self and source to have same dtypes but got%s and %s", scalarTypeName(self.DType()), scalarTypeName(src.DType()))
	}
	shape, err := broadcast(c, "mask", self, mask)
	if err != nil {
		return nil, err
	}
	if meta(self, mask, src) {
		return oneOrErr(tensor.NewMeta(self.DType(), shape...))
	}
	out := elemsOf(expandedTensor(self, shape))
	m := expandedTensor(mask, shape).Contiguous().Int64s()
	sv := elemsOf(src)
	j := 0
	for k, b := range m {
		if b == 0 {
			continue
		}
		if j >= src.Numel() {
			return nil, c.Errorf("source", "Number of elements of source < number of ones in mask")
		}
		out.set(k, sv, j)
		j++
	}
	return one(out.tensor(shape...)), nil
}

// flatIndex checks index k against n elements (negative counting from the
// end), as take and put do.
func flatIndex(c *ops.Call, arg string, k int64, n int) (int, error) {
	if k < -int64(n) || k >= int64(n) {
		return 0, c.Errorf(arg, "out of range: tried to access index %d on a tensor of %d elements.", k, n)
	}
	if k < 0 {
		k += int64(n)
	}
	return int(k), nil
}

// takeKernel is aten::take: the elements of self, viewed as 1-d, at index, in
// index's shape.
func takeKernel(c *ops.Call) ([]any, error) {
	self, index := c.Tensor("self"), c.Tensor("index")
	if index.DType() != tensor.Int64 {
		return nil, c.Errorf("index", "take(): Expected a long tensor for index, but got %s", scalarTypeName(index.DType()))
	}
	if meta(self, index) {
		return oneOrErr(tensor.NewMeta(self.DType(), index.Shape()...))
	}
	if self.Numel() == 0 && index.Numel() != 0 {
		return nil, c.Errorf("index", "take(): tried to take from an empty tensor")
	}
	ix := index.Contiguous().Int64s()
	idx := make([]int, len(ix))
	for k, v := range ix {
		j, err := flatIndex(c, "index", v, self.Numel())
		if err != nil {
			return nil, err
		}
		idx[k] = j
	}
	return one(elemsOf(self).gather(idx).tensor(index.Shape()...)), nil
}

// takeAlongDim is aten::take_along_dim: gather along dim after
// broadcasting self and indices over every other dimension; with dim None,
// take of the flattened tensors.
func takeAlongDim(c *ops.Call) ([]any, error) {
	self, indices := c.Tensor("self"), c.Tensor("indices")
	if indices.DType() != tensor.Int64 {
		return nil, c.Errorf("indices", "torch.take_along_dim(): dtype of indices should be Long but got %s", scalarTypeName(indices.DType()))
	}
	p := &chain{c: c, arg: "indices"}
	if c.IsNone("dim") {
		return p.result(p.call("aten::gather", p.call("aten::reshape", self, []int64{-1}), 0, p.call("aten::reshape", indices, []int64{-1})))
	}
	if self.Dim() != indices.Dim() {
		return nil, c.Errorf("indices", "torch.take_along_dim(): input and indices should have the same number of dimensions, but got %d dimensions for input, and %d dimensions for indices", self.Dim(), indices.Dim())
	}
	d, err := wrapDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	if self.Dim() == 0 {
		return p.result(p.call("aten::gather", self, d, indices))
	}
	ss := self.Shape()
	ss[d] = indices.Size(d)
	ishape, err := ops.BroadcastShapes(ss, indices.Shape())
	if err != nil {
		return nil, c.Errorf("indices", "%v", err)
	}
	is := indices.Shape()
	is[d] = self.Size(d)
	sshape, err := ops.BroadcastShapes(is, self.Shape())
	if err != nil {
		return nil, c.Errorf("indices", "%v", err)
	}
	return p.result(p.call("aten::gather", p.call("aten::expand", self, int64s(sshape)), d, p.call("aten::expand", indices, int64s(ishape))))
}

// int64s converts ints to int64s.
func int64s(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// put is aten::put: a copy of self with the elements at the flat
// positions index replaced by (accumulate: increased by) the elements of
// source, in order.
func put(c *ops.Call) ([]any, error) {
	self, index, src := c.Tensor("self"), c.Tensor("index"), c.Tensor("source")
	if index.DType() != tensor.Int64 {
		return nil, c.Errorf("index", "put_(): Expected a long tensor for index, but got %s", scalarTypeName(index.DType()))
	}
	if src.DType() != self.DType() {
		return nil, c.Errorf("source", "put_(): self and source expected to have the same dtype, but got self.dtype = %s and source.dtype = %s", scalarTypeName(self.DType()), scalarTypeName(src.DType()))
	}
	if src.Numel() != index.Numel() {
		return nil, c.Errorf("source", "put_(): Expected source and index to have the same number of elements, but got source.numel() = %d, index.numel() = %d", src.Numel(), index.Numel())
	}
	if meta(self, index, src) {
		return one(self.Meta()), nil
	}
	out := elemsOf(self)
	sv := elemsOf(src)
	acc := c.Bool("accumulate")
	r := rounder(computeType(self.DType()))
	for k, v := range index.Contiguous().Int64s() {
		j, err := flatIndex(c, "index", v, self.Numel())
		if err != nil {
			return nil, err
		}
		switch {
		case !acc:
			out.set(j, sv, k)
		case out.dt == tensor.Bool:
			out.i[j] |= sv.i[k]
		case out.dt.IsFloat():
			out.f[j] = r(out.f[j] + sv.f[k])
		default:
			out.i[j] += sv.i[k]
		}
	}
	return one(out.tensor(self.Shape()...)), nil
}

// indexReduceKernel is aten::index_reduce: a copy of self where the slices
// index[i] along dim are reduced ("prod", "mean", "amax" or "amin") with
// slice i of source, starting from self's slice when include_self and
// from the reduction's identity otherwise; mean divides by the number of
// contributions (integers rounding down).
func indexReduceKernel(c *ops.Call) ([]any, error) {
	self, index, src := c.Tensor("self"), c.Tensor("index"), c.Tensor("source")
	reduce := c.Str("reduce")
	switch reduce {
	case "prod", "mean", "amax", "amin":
	default:
		return nil, c.Errorf("reduce", "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got %s.", reduce)
	}
	d, err := wrapDim(c, "dim", c.Int("dim"), self.Dim())
	if err != nil {
		return nil, err
	}
	if index.DType() != tensor.Int64 && index.DType() != tensor.Int32 {
		return nil, c.Errorf("index", "index_reduce_(): Expected dtype int32/int64 for index but got: %s", scalarTypeName(index.DType()))
	}
	if src.DType() != self.DType() {
		return nil, c.Errorf("source", "index_reduce_(): self (%s) and source (%s) must have the same scalar type", scalarTypeName(self.DType()), scalarTypeName(src.DType()))
	}
	srcLen := 1
	if src.Dim() > 0 {
		srcLen = src.Size(d)
	}
	if index.Numel() != srcLen {
		return nil, c.Errorf("index", "index_reduce_(): Number of indices (%d) should be equal to source.size(dim): (%d), for dim: %d", index.Numel(), srcLen, d)
	}
	if meta(self, index, src) {
		return one(self.Meta()), nil
	}
	dt := self.DType()
	n := 1
	if self.Dim() > 0 {
		n = self.Size(d)
	}
	// Rows: self and source with dim moved first, one row per slice.
	rowsOf := func(t *tensor.Tensor) elems {
		if t.Dim() == 0 {
			return elemsOf(t)
		}
		return elemsOf(tensor.Must(t.Permute(dimFirst(t.Dim(), d)...)))
	}
	out, sv := rowsOf(self), rowsOf(src)
	w := self.Numel() / max(n, 1)
	ix := index.Contiguous().Int64s()
	for _, v := range ix {
		if v < -int64(n) || v >= int64(n) {
			return nil, c.Errorf("index", "index out of range in self")
		}
	}
	r := rounder(computeType(dt))
	include := c.Bool("include_self")
	counts := make([]float64, len(out.f)+len(out.i))
	if include {
		for i := range counts {
			counts[i] = 1
		}
	}
	if !include {
		for _, v := range ix {
			if v < 0 {
				v += int64(n)
			}
			for k := int(v) * w; k < int(v)*w+w; k++ {
				if dt.IsFloat() {
					out.f[k] = map[string]float64{"prod": 1, "mean": 0, "amax": math.Inf(-1), "amin": math.Inf(1)}[reduce]
				} else {
					out.i[k] = map[string]int64{"prod": 1, "mean": 0, "amax": math.MinInt64, "amin": math.MaxInt64}[reduce]
				}
			}
		}
	}
	for i, v := range ix {
		if v < 0 {
			v += int64(n)
		}
		for e := range w {
			k, j := int(v)*w+e, i*w+e
			counts[k]++
			if dt.IsFloat() {
				x, y := out.f[k], sv.f[j]
				switch reduce {
				case "prod":
					out.f[k] = r(x * y)
				case "mean":
					out.f[k] = r(x + y)
				case "amax":
					if math.IsNaN(y) || y > x {
						out.f[k] = y
					}
				case "amin":
					if math.IsNaN(y) || y < x {
						out.f[k] = y
					}
				}
			} else {
				x, y := out.i[k], sv.i[j]
				switch reduce {
				case "prod":
					out.i[k] = x * y
				case "mean":
					out.i[k] = x + y
				case "amax":
					out.i[k] = max(x, y)
				case "amin":
					out.i[k] = min(x, y)
				}
			}
		}
	}
	if reduce == "mean" {
		for k, cnt := range counts {
			if cnt == 0 {
				cnt = 1
			}
			if dt.IsFloat() {
				out.f[k] = r(out.f[k] / cnt)
			} else {
				out.i[k] = int64(math.Floor(float64(out.i[k]) / cnt))
			}
		}
	}
	if dt == tensor.Bool {
		for k, v := range out.i {
			out.i[k] = b2i(v != 0)
		}
	}
	if self.Dim() == 0 {
		return one(out.tensor()), nil
	}
	perm := dimFirst(self.Dim(), d)
	res := out.tensor(tensor.Must(self.Permute(perm...)).Shape()...)
	return one(tensor.Must(res.Permute(inverse(perm)...)).Contiguous()), nil
}

// dimFirst is the permutation of rank dimensions that moves d first.
func dimFirst(rank, d int) []int {
	perm := []int{d}
	for i := range rank {
		if i != d {
			perm = append(perm, i)
		}
	}
	return perm
}
