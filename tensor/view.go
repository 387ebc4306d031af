package tensor

import (
	"fmt"
	"math"
	"slices"
)

func (t *Tensor) view(shape, strides []int, offset int) *Tensor {
	return &Tensor{dtype: t.dtype, shape: shape, strides: strides, offset: offset, st: t.st}
}

// InferShape resolves a shape that may contain one -1 against numel
// elements, as torch's infer_size does.
func InferShape(shape []int, numel int) ([]int, error) {
	out := clone(shape)
	infer := -1
	prod := 1
	for i, d := range shape {
		switch {
		case d == -1:
			if infer >= 0 {
				return nil, fmt.Errorf("only one dimension can be inferred")
			}
			infer = i
		case d < 0:
			return nil, fmt.Errorf("invalid shape dimension %d", d)
		default:
			prod *= d
			if prod > MaxElements {
				return nil, fmt.Errorf("shape %v is too large", shape)
			}
		}
	}
	if infer >= 0 {
		if prod == 0 || numel%prod != 0 {
			return nil, fmt.Errorf("shape '%s' is invalid for input of size %d", fmtShape(shape), numel)
		}
		out[infer] = numel / prod
		return out, nil
	}
	if prod != numel {
		return nil, fmt.Errorf("shape '%s' is invalid for input of size %d", fmtShape(shape), numel)
	}
	return out, nil
}

func fmtShape(s []int) string {
	b := []byte{'['}
	for i, d := range s {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = fmt.Appendf(b, "%d", d)
	}
	return string(append(b, ']'))
}

// viewStrides computes the strides of a view of (oldShape, oldStrides) as
// newShape without copying, or reports false when none exists. It is
// ATen's computeStride.
func viewStrides(oldShape, oldStrides, newShape []int) ([]int, bool) {
	newStrides := make([]int, len(newShape))
	numel := 1
	for _, d := range oldShape {
		numel *= d
	}
	if numel == 0 && len(oldShape) == len(newShape) && slices.Equal(oldShape, newShape) {
		// An empty tensor viewed as its own shape keeps its strides.
		return clone(oldStrides), true
	}
	if numel == 0 || len(oldShape) == 0 {
		return ContiguousStrides(newShape), true
	}
	viewD := len(newShape) - 1
	chunkBase := oldStrides[len(oldStrides)-1]
	tensorNumel, viewNumel := 1, 1
	for td := len(oldShape) - 1; td >= 0; td-- {
		tensorNumel *= oldShape[td]
		if td == 0 || (oldShape[td-1] != 1 && oldStrides[td-1] != tensorNumel*chunkBase) {
			for viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] == 1) {
				newStrides[viewD] = viewNumel * chunkBase
				viewNumel *= newShape[viewD]
				viewD--
			}
			if viewNumel != tensorNumel {
				return nil, false
			}
			if td > 0 {
				chunkBase = oldStrides[td-1]
				tensorNumel, viewNumel = 1, 1
			}
		}
	}
	if viewD != -1 {
		return nil, false
	}
	return newStrides, true
}

// View returns a view of t with the given shape (one dimension may be -1),
// sharing storage, as torch.Tensor.view does. It fails when the shape does
// not hold t's elements or when t's strides do not allow a view.
func (t *Tensor) View(shape ...int) (*Tensor, error) {
	s, err := InferShape(shape, t.Numel())
	if err != nil {
		return nil, fmt.Errorf("view: %w", err)
	}
	st, ok := viewStrides(t.shape, t.strides, s)
	if !ok {
		return nil, fmt.Errorf("view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead")
	}
	return t.view(s, st, t.offset), nil
}

// Reshape returns t with the given shape (one dimension may be -1): a view
// when the strides allow one, and otherwise a contiguous copy.
func (t *Tensor) Reshape(shape ...int) (*Tensor, error) {
	s, err := InferShape(shape, t.Numel())
	if err != nil {
		return nil, fmt.Errorf("reshape: %w", err)
	}
	if st, ok := viewStrides(t.shape, t.strides, s); ok {
		return t.view(s, st, t.offset), nil
	}
	c := t.Clone()
	return c.view(s, ContiguousStrides(s), 0), nil
}

// Permute returns a view of t with its dimensions reordered: dimension i of
// the result is dimension dims[i] of t.
func (t *Tensor) Permute(dims ...int) (*Tensor, error) {
	n := len(t.shape)
	if len(dims) != n {
		return nil, fmt.Errorf("permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %d", n, len(dims))
	}
	seen := make([]bool, n)
	shape, strides := make([]int, n), make([]int, n)
	for i, d := range dims {
		nd, err := NormDim(d, n)
		if err != nil {
			return nil, fmt.Errorf("permute: %w", err)
		}
		if seen[nd] {
			return nil, fmt.Errorf("permute: repeated dim %d", d)
		}
		seen[nd] = true
		shape[i], strides[i] = t.shape[nd], t.strides[nd]
	}
	return t.view(shape, strides, t.offset), nil
}

// Transpose returns a view of t with dimensions d0 and d1 swapped.
func (t *Tensor) Transpose(d0, d1 int) (*Tensor, error) {
	n := len(t.shape)
	a, err := NormDim(d0, n)
	if err != nil {
		return nil, fmt.Errorf("transpose: %w", err)
	}
	b, err := NormDim(d1, n)
	if err != nil {
		return nil, fmt.Errorf("transpose: %w", err)
	}
	shape, strides := clone(t.shape), clone(t.strides)
	if n > 0 {
		shape[a], shape[b] = shape[b], shape[a]
		strides[a], strides[b] = strides[b], strides[a]
	}
	return t.view(shape, strides, t.offset), nil
}

// T returns the transpose of a tensor of at most 2 dimensions, as
// torch.Tensor.t does.
func (t *Tensor) T() (*Tensor, error) {
	if len(t.shape) > 2 {
		return nil, fmt.Errorf("t() expects a tensor with <= 2 dimensions, but self is %dD", len(t.shape))
	}
	if len(t.shape) < 2 {
		return t.view(clone(t.shape), clone(t.strides), t.offset), nil
	}
	return t.Transpose(0, 1)
}

// Expand returns a view of t broadcast to the given sizes, with stride 0 in
// the expanded dimensions; -1 keeps a dimension's size, as torch.Tensor.expand.
func (t *Tensor) Expand(sizes ...int) (*Tensor, error) {
	n := len(sizes)
	if n < len(t.shape) {
		return nil, fmt.Errorf("expand(%s{%s}, size=%s): the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)",
			t.dtype, fmtShape(t.shape), fmtShape(sizes), n, len(t.shape))
	}
	shape, strides := make([]int, n), make([]int, n)
	lead := n - len(t.shape)
	for i := n - 1; i >= 0; i-- {
		want := sizes[i]
		if i < lead {
			if want < 0 {
				return nil, fmt.Errorf("expand: the expanded size of the tensor (%d) isn't allowed in a leading, non-existing dimension %d", want, i)
			}
			shape[i], strides[i] = want, 0
			continue
		}
		have := t.shape[i-lead]
		switch {
		case want == -1 || want == have:
			shape[i], strides[i] = have, t.strides[i-lead]
		case have == 1 && want >= 0:
			shape[i], strides[i] = want, 0
		default:
			return nil, fmt.Errorf("expand: the expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
				want, have, i, fmtShape(sizes), fmtShape(t.shape))
		}
	}
	if _, err := Numel(shape); err != nil {
		return nil, fmt.Errorf("expand: %w", err)
	}
	return t.view(shape, strides, t.offset), nil
}

// Slice returns a view of t restricted to start, start+step, ... below end
// along dim, with Python's clamping of start and end (negative values count
// from the end). step must be positive.
func (t *Tensor) Slice(dim, start, end, step int) (*Tensor, error) {
	if len(t.shape) == 0 {
		return nil, fmt.Errorf("slice() cannot be applied to a 0-dim tensor")
	}
	d, err := NormDim(dim, len(t.shape))
	if err != nil {
		return nil, fmt.Errorf("slice: %w", err)
	}
	if step <= 0 {
		return nil, fmt.Errorf("slice step must be positive, got %d", step)
	}
	size := t.shape[d]
	if start < 0 {
		start += size
	}
	if end < 0 {
		end += size
	}
	switch {
	case start < 0:
		start = 0
	case start >= size:
		start = size
	}
	switch {
	case end < start:
		end = start
	case end >= size:
		end = size
	}
	shape, strides := clone(t.shape), clone(t.strides)
	shape[d] = (end - start + step - 1) / step
	strides[d] = t.strides[d] * step
	return t.view(shape, strides, t.offset+start*t.strides[d]), nil
}

// Narrow returns the view of length elements of dim starting at start, as
// torch.narrow: start may be negative (counting from the end) or equal to
// the size, and the elements must lie within the dimension.
func (t *Tensor) Narrow(dim, start, length int) (*Tensor, error) {
	if len(t.shape) == 0 {
		return nil, fmt.Errorf("narrow() cannot be applied to a 0-dim tensor")
	}
	d, err := NormDim(dim, len(t.shape))
	if err != nil {
		return nil, fmt.Errorf("narrow: %w", err)
	}
	size := t.shape[d]
	if start != size {
		if start, err = NormDim(start, size); err != nil {
			return nil, fmt.Errorf("narrow: start: %w", err)
		}
	}
	if length < 0 || start > size-length {
		return nil, fmt.Errorf("start (%d) + length (%d) exceeds dimension size (%d)", start, length, size)
	}
	return t.Slice(d, start, start+length, 1)
}

// Select returns the view of t at index along dim, with that dimension
// removed; index may be negative.
func (t *Tensor) Select(dim, index int) (*Tensor, error) {
	if len(t.shape) == 0 {
		return nil, fmt.Errorf("select() cannot be applied to a 0-dim tensor")
	}
	d, err := NormDim(dim, len(t.shape))
	if err != nil {
		return nil, fmt.Errorf("select: %w", err)
	}
	size := t.shape[d]
	if index < -size || index >= size {
		return nil, fmt.Errorf("select(): index %d out of range for tensor of size %s at dimension %d", index, fmtShape(t.shape), dim)
	}
	if index < 0 {
		index += size
	}
	shape := append(clone(t.shape[:d]), t.shape[d+1:]...)
	strides := append(clone(t.strides[:d]), t.strides[d+1:]...)
	return t.view(shape, strides, t.offset+index*t.strides[d]), nil
}

// Squeeze returns a view of t without its dimensions of size 1.
func (t *Tensor) Squeeze() *Tensor {
	var shape, strides []int
	for i, d := range t.shape {
		if d != 1 {
			shape = append(shape, d)
			strides = append(strides, t.strides[i])
		}
	}
	if shape == nil {
		shape, strides = []int{}, []int{}
	}
	return t.view(shape, strides, t.offset)
}

// SqueezeDim returns a view of t without dimension dim if its size is 1, and
// a view with t's shape otherwise.
func (t *Tensor) SqueezeDim(dim int) (*Tensor, error) {
	d, err := NormDim(dim, len(t.shape))
	if err != nil {
		return nil, fmt.Errorf("squeeze: %w", err)
	}
	if len(t.shape) == 0 || t.shape[d] != 1 {
		return t.view(clone(t.shape), clone(t.strides), t.offset), nil
	}
	shape := append(clone(t.shape[:d]), t.shape[d+1:]...)
	strides := append(clone(t.strides[:d]), t.strides[d+1:]...)
	return t.view(shape, strides, t.offset), nil
}

// Unsqueeze returns a view of t with a dimension of size 1 inserted at dim,
// which may be in [-(rank+1), rank].
func (t *Tensor) Unsqueeze(dim int) (*Tensor, error) {
	d, err := NormDim(dim, len(t.shape)+1)
	if err != nil {
		return nil, fmt.Errorf("unsqueeze: %w", err)
	}
	st := 1
	if d < len(t.shape) {
		st = t.shape[d] * t.strides[d]
	}
	shape := append(append(clone(t.shape[:d]), 1), t.shape[d:]...)
	strides := append(append(clone(t.strides[:d]), st), t.strides[d:]...)
	return t.view(shape, strides, t.offset), nil
}

// AsStrided returns a view of t's storage with the given shape, strides and
// storage offset, as torch.as_strided does. Every element it reaches must lie
// within the storage.
func (t *Tensor) AsStrided(shape, strides []int, offset int) (*Tensor, error) {
	if len(shape) != len(strides) {
		return nil, fmt.Errorf("as_strided: mismatch in length of strides and shape")
	}
	if offset < 0 {
		return nil, fmt.Errorf("as_strided: negative storage offset %d", offset)
	}
	n, err := Numel(shape)
	if err != nil {
		return nil, fmt.Errorf("as_strided: %w", err)
	}
	if t.st != nil && n > 0 {
		hi := offset
		for i, s := range strides {
			if s < 0 {
				return nil, fmt.Errorf("as_strided: negative strides are not supported, got stride %d at dim %d", s, i)
			}
			if s > 0 && shape[i]-1 > (math.MaxInt-hi)/s {
				return nil, fmt.Errorf("as_strided: shape %v with strides %v overflows", shape, strides)
			}
			hi += (shape[i] - 1) * s
		}
		if hi >= t.storageLen() {
			return nil, fmt.Errorf("as_strided: setStorage: sizes %s, strides %s, storage offset %d requiring a storage size of %d are out of bounds for storage of size %d",
				fmtShape(shape), fmtShape(strides), offset, hi+1, t.storageLen())
		}
	}
	return t.view(clone(shape), clone(strides), offset), nil
}

func (t *Tensor) storageLen() int {
	switch d := t.st.data.(type) {
	case []float32:
		return len(d)
	case []float64:
		return len(d)
	case []Half:
		return len(d)
	case []BHalf:
		return len(d)
	case []int64:
		return len(d)
	case []int32:
		return len(d)
	case []int16:
		return len(d)
	case []int8:
		return len(d)
	case []uint8:
		return len(d)
	case []bool:
		return len(d)
	}
	return 0
}

// Flatten returns t with dimensions start..end (inclusive, negative counting
// from the end) merged into one, as torch.flatten: a view when possible.
func (t *Tensor) Flatten(start, end int) (*Tensor, error) {
	if len(t.shape) == 0 {
		return t.Reshape(1)
	}
	s, err := NormDim(start, len(t.shape))
	if err != nil {
		return nil, fmt.Errorf("flatten: %w", err)
	}
	e, err := NormDim(end, len(t.shape))
	if err != nil {
		return nil, fmt.Errorf("flatten: %w", err)
	}
	if s > e {
		return nil, fmt.Errorf("flatten() has invalid args: start_dim cannot come after end_dim")
	}
	if s == e {
		return t.view(clone(t.shape), clone(t.strides), t.offset), nil
	}
	m := 1
	for _, d := range t.shape[s : e+1] {
		m *= d
	}
	shape := append(append(clone(t.shape[:s]), m), t.shape[e+1:]...)
	return t.Reshape(shape...)
}
