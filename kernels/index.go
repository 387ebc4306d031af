package kernels

import (
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Indexing kernels: gather, index.Tensor (advanced indexing) and
// index_select. They compute the storage offset of every output element
// in self and copy the elements with shTake.

func registerIndex() {
	registerBoth("aten::gather", shGather)
	registerBoth("aten::index.Tensor", shIndex)
	registerBoth("aten::index_select", shIndexSelect)
}

// shNonEmptyShape is a tensor's shape with a 0-d tensor counted as [1], as
// ATen's ensure_nonempty_dim and ensure_nonempty_size do.
func shNonEmptyShape(t *tensor.Tensor) []int {
	if t.Dim() == 0 {
		return []int{1}
	}
	return t.Shape()
}

// shNonEmptyStrides is the strides matching shNonEmptyShape.
func shNonEmptyStrides(t *tensor.Tensor) []int {
	if t.Dim() == 0 {
		return []int{1}
	}
	return t.Strides()
}

// shGather is aten::gather: out[i][j][k] = self[index[i][j][k]][j][k] (for
// dim 0), with index's shape. Indices are not wrapped: a negative one is
// out of range.
func shGather(c *ops.Call) ([]any, error) {
	x, index := c.Tensor("self"), c.Tensor("index")
	dim, err := shDim(c, "dim", c.Int("dim"), x.Dim())
	if err != nil {
		return nil, err
	}
	if index.DType() != tensor.Int64 {
		return nil, c.Errorf("index", "gather(): Expected dtype int64 for index")
	}
	xs, is := shNonEmptyShape(x), shNonEmptyShape(index)
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
	strides := shNonEmptyStrides(x)
	ds := strides[dim]
	strides[dim] = 0
	if len(is) != len(strides) {
		// Only an empty index gets here.
		return one(tensor.Empty(x.DType(), index.Shape()...)), nil
	}
	offs := shOffsets(is, strides, x.Offset())
	size := int64(xs[dim])
	for i, v := range index.Int64s() {
		if v < 0 || v >= size {
			return nil, c.Errorf("index", "index %d is out of bounds for dimension %d with size %d", v, dim, size)
		}
		offs[i] += int(v) * ds
	}
	return one(shTake(x, index.Shape(), offs)), nil
}

// shIndexSelect is aten::index_select: the entries of self at index (int64
// or int32, at most 1-d, not wrapped) along dim.
func shIndexSelect(c *ops.Call) ([]any, error) {
	x, index := c.Tensor("self"), c.Tensor("index")
	dim, err := shDim(c, "dim", c.Int("dim"), x.Dim())
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
	size := int64(shNonEmptyShape(x)[dim])
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
	offs := shOffsets(shape, strides, x.Offset())
	// The coordinate along dim of every output element.
	unit := make([]int, len(shape))
	unit[dim] = 1
	for i, k := range shOffsets(shape, unit, 0) {
		offs[i] += int(idx[k]) * ds
	}
	return one(shTake(x, shape, offs)), nil
}

// shIndex is aten::index.Tensor, NumPy-style advanced indexing: indices
// (int64 tensors, bool or uint8 masks, or None) are broadcast together; the
// indexed dimensions are replaced by the broadcast shape, in place when
// the indexed dimensions are adjacent and at the front otherwise. Negative
// indices count from the end. A mask's output shape depends on its values,
// so meta tensors with masks are an error.
func shIndex(c *ops.Call) ([]any, error) {
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
	idx, err := shExpandMasks(c, x.Shape(), indices, isMeta)
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
	outShape, offs, err := shAdvancedIndex(c, x.Shape(), x.Strides(), x.Offset(), idx, isMeta)
	if err != nil {
		return nil, err
	}
	if isMeta {
		return one(tensor.Must(tensor.NewMeta(x.DType(), outShape...))), nil
	}
	if len(offs) == 0 {
		return one(tensor.Must(tensor.New(x.DType(), outShape...))), nil
	}
	return one(shTake(x, outShape, offs)), nil
}

// shExpandMasks replaces every bool or uint8 mask among indices by the
// int64 indices of its nonzero positions, one per mask dimension, after
// checking the mask's shape against the indexed dimensions (0-d masks
// vanish). Meta masks with dimensions are refused: the number of nonzero
// positions is data.
func shExpandMasks(c *ops.Call, shape []int, indices []*tensor.Tensor, isMeta bool) ([]*tensor.Tensor, error) {
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
		idx = append(idx, shNonzero(t)...)
	}
	return idx, nil
}

// shAdvancedIndex is the core of aten::index.Tensor on a tensor of the
// given shape, strides and storage offset, with int64 indices (nil for a
// whole dimension; at least one is set): the indices broadcast together,
// and indexed dimensions that are not adjacent move to the front. It
// returns the shape of the result and, unless isMeta or the result is
// empty, the storage offset of every element of the result.
func shAdvancedIndex(c *ops.Call, shape, strides []int, offset int, idx []*tensor.Tensor, isMeta bool) ([]int, []int, error) {
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
		idx = shPermuteSlice(idx, order)
		shape = shPermuteSlice(shape, order)
		strides = shPermuteSlice(strides, order)
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
	offs := shOffsets(outShape, ostr, offset)
	rstr := slices.Concat(make([]int, len(before)), tensor.ContiguousStrides(repl), make([]int, len(after)))
	for i, r := range shOffsets(outShape, rstr, 0) {
		offs[i] += add[r]
	}
	return outShape, offs, nil
}

// shPermuteSlice returns s reordered: element i of the result is
// s[order[i]].
func shPermuteSlice[T any](s []T, order []int) []T {
	out := make([]T, len(order))
	for i, o := range order {
		out[i] = s[o]
	}
	return out
}

// shNonzero returns, for each dimension of mask, the int64 coordinates of
// its nonzero elements in row-major order (the columns of
// mask.nonzero()).
func shNonzero(mask *tensor.Tensor) []*tensor.Tensor {
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
