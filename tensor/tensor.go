package tensor

import (
	"fmt"
)

// Tensor is a strided view of a storage: element i (a multi-index) lives at
// offset + Σ i[k]*strides[k] in the storage. Tensors are values shared by
// pointer; views share storage.
type Tensor struct {
	dtype   DType
	shape   []int
	strides []int
	offset  int
	st      *storage // nil for meta tensors
	wrapped bool     // a wrapped number (see WrappedNumber)
}

type storage struct {
	data any    // []float32, []float64, []Half, []BHalf, []int64, ... by dtype
	born uint64 // allocation number from New (see StorageKey.Born); 0: not New's
}

// MaxElements bounds the number of elements of one tensor (2^40), so that
// hostile shapes fail with an error instead of exhausting memory through
// overflowed products.
const MaxElements = 1 << 40

// Numel returns the number of elements of a tensor of the given shape, or an
// error if a dimension is negative or the product exceeds MaxElements.
func Numel(shape []int) (int, error) {
	n := 1
	for i, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("tensor: negative dimension %d at index %d of shape %v", d, i, shape)
		}
		if d == 0 {
			n = 0
			continue
		}
		if n > MaxElements/d {
			// Keep checking the rest for negatives and zeros.
			z := false
			for _, r := range shape[i+1:] {
				if r < 0 {
					return 0, fmt.Errorf("tensor: negative dimension %d in shape %v", r, shape)
				}
				z = z || r == 0
			}
			if z || n == 0 {
				return 0, nil
			}
			return 0, fmt.Errorf("tensor: shape %v has more than 2^40 elements", shape)
		}
		n *= d
	}
	return n, nil
}

// ContiguousStrides returns the row-major strides of shape.
func ContiguousStrides(shape []int) []int {
	s := make([]int, len(shape))
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = acc
		if shape[i] > 1 {
			acc *= shape[i]
		}
	}
	return s
}

func makeData(dt DType, n int) any {
	switch dt {
	case Float32:
		return make([]float32, n)
	case Float64:
		return make([]float64, n)
	case Float16:
		return make([]Half, n)
	case BFloat16:
		return make([]BHalf, n)
	case Int64:
		return make([]int64, n)
	case Int32:
		return make([]int32, n)
	case Int16:
		return make([]int16, n)
	case Int8:
		return make([]int8, n)
	case Uint8:
		return make([]uint8, n)
	case Bool:
		return make([]bool, n)
	}
	panic(fmt.Sprintf("tensor: invalid dtype %v", dt))
}

// New returns a contiguous tensor of zeros with the given dtype and shape.
// Its buffer may come from the pool of recycled buffers (see Recycle).
func New(dt DType, shape ...int) (*Tensor, error) {
	if !dt.Valid() {
		return nil, fmt.Errorf("tensor: invalid dtype %v", dt)
	}
	n, err := Numel(shape)
	if err != nil {
		return nil, err
	}
	return &Tensor{dtype: dt, shape: clone(shape), strides: ContiguousStrides(shape), st: newStorage(dt, n)}, nil
}

// Must returns t, panicking if err is not nil. It is meant for tests,
// examples and shapes known to be valid.
func Must(t *Tensor, err error) *Tensor {
	if err != nil {
		panic(err)
	}
	return t
}

// Empty is New for internal callers whose shape is known to be valid.
func Empty(dt DType, shape ...int) *Tensor { return Must(New(dt, shape...)) }

// EmptyUninit is Empty whose elements are unspecified, as torch.empty's
// are: a buffer taken from the pool (Recycle) is not cleared. It is for
// kernels that write every element of their output before anyone reads
// it; shape must be valid.
func EmptyUninit(dt DType, shape ...int) *Tensor {
	n, err := Numel(shape)
	if err != nil || !dt.Valid() {
		return Empty(dt, shape...) // panics with New's error
	}
	return &Tensor{dtype: dt, shape: clone(shape), strides: ContiguousStrides(shape), st: newStorageOf(dt, n, false)}
}

// NewMeta returns a meta tensor: a dtype and a contiguous shape, no storage.
func NewMeta(dt DType, shape ...int) (*Tensor, error) {
	if !dt.Valid() {
		return nil, fmt.Errorf("tensor: invalid dtype %v", dt)
	}
	if _, err := Numel(shape); err != nil {
		return nil, err
	}
	return &Tensor{dtype: dt, shape: clone(shape), strides: ContiguousStrides(shape)}, nil
}

// FromSlice returns a contiguous tensor holding data (not copied) with the given
// shape; len(data) must equal the number of elements of shape. With no shape
// the tensor is one-dimensional.
func FromSlice[T Elem](data []T, shape ...int) (*Tensor, error) {
	if shape == nil {
		shape = []int{len(data)}
	}
	n, err := Numel(shape)
	if err != nil {
		return nil, err
	}
	if n != len(data) {
		return nil, fmt.Errorf("tensor: %d elements do not fill shape %v (%d elements)", len(data), shape, n)
	}
	return &Tensor{dtype: DTypeOf[T](), shape: clone(shape), strides: ContiguousStrides(shape), st: &storage{data: data}}, nil
}

// Scalar returns a 0-d tensor holding v.
func Scalar[T Elem](v T) *Tensor { return Must(FromSlice([]T{v}, []int{}...)) }

func clone(s []int) []int {
	c := make([]int, len(s))
	copy(c, s)
	return c
}

// DType returns the element type.
func (t *Tensor) DType() DType { return t.dtype }

// Shape returns a copy of the sizes of the dimensions.
func (t *Tensor) Shape() []int { return clone(t.shape) }

// Strides returns a copy of the strides, in elements.
func (t *Tensor) Strides() []int { return clone(t.strides) }

// Offset returns the position of the first element in the storage.
func (t *Tensor) Offset() int { return t.offset }

// Dim returns the number of dimensions.
func (t *Tensor) Dim() int { return len(t.shape) }

// Size returns the size of dimension d; negative d counts from the end. It
// panics if d is out of range; use NormDim to check user input.
func (t *Tensor) Size(d int) int {
	nd, err := NormDim(d, len(t.shape))
	if err != nil {
		panic(err)
	}
	return t.shape[nd]
}

// Numel returns the number of elements.
func (t *Tensor) Numel() int {
	n := 1
	for _, d := range t.shape {
		n *= d
	}
	return n
}

// WrappedNumber returns t, a 0-d tensor, marked as a wrapped number: a
// Python number given for a Tensor parameter, as c10's
// TensorImpl::set_wrapped_number marks it. A wrapped number takes part in
// type promotion as a number, with the lowest priority (ops.ResultType).
// The mark is not carried to views of t nor to results computed from it.
// It panics if t is not 0-d.
func (t *Tensor) WrappedNumber() *Tensor {
	if len(t.shape) != 0 {
		panic(fmt.Sprintf("tensor: WrappedNumber of a tensor of shape %v (only 0-d tensors wrap a number)", t.shape))
	}
	u := *t
	u.wrapped = true
	return &u
}

// IsWrappedNumber reports whether t is a wrapped number (see WrappedNumber).
func (t *Tensor) IsWrappedNumber() bool { return t.wrapped }

// IsMeta reports whether t is a meta tensor (metadata only, no storage).
func (t *Tensor) IsMeta() bool { return t.st == nil }

// Meta returns a meta tensor with t's dtype and shape.
func (t *Tensor) Meta() *Tensor {
	return &Tensor{dtype: t.dtype, shape: clone(t.shape), strides: ContiguousStrides(t.shape)}
}

// SharesStorage reports whether t and u are views of the same storage.
func (t *Tensor) SharesStorage(u *Tensor) bool { return t.st != nil && t.st == u.st }

// IsContiguous reports whether t's elements are laid out in row-major order
// without gaps (dimensions of size 1 may have any stride, and an empty
// tensor is contiguous whatever its strides), as torch.Tensor.is_contiguous
// does.
func (t *Tensor) IsContiguous() bool {
	for _, d := range t.shape {
		if d == 0 {
			return true
		}
	}
	acc := 1
	for i := len(t.shape) - 1; i >= 0; i-- {
		if t.shape[i] == 1 {
			continue
		}
		if t.shape[i] == 0 {
			return true
		}
		if t.strides[i] != acc {
			return false
		}
		acc *= t.shape[i]
	}
	return true
}

// NormDim turns a possibly negative dimension index into one in [0, rank),
// as PyTorch's maybe_wrap_dim does (a 0-d tensor accepts 0 and -1).
func NormDim(d, rank int) (int, error) {
	r := rank
	if r == 0 {
		r = 1
	}
	if d < -r || d >= r {
		return 0, fmt.Errorf("dimension out of range (expected to be in range of [%d, %d], but got %d)", -r, r-1, d)
	}
	if d < 0 {
		d += r
	}
	return d, nil
}

// Data returns t's whole storage as a []T, from its first element (not from
// t's offset): index it with Offset and Strides. It panics if T is not t's
// element type or t is a meta tensor.
func Data[T Elem](t *Tensor) []T {
	if t.st == nil {
		panic("tensor: Data of a meta tensor")
	}
	d, ok := t.st.data.([]T)
	if !ok {
		var z T
		panic(fmt.Sprintf("tensor: Data[%T] of a %v tensor", z, t.dtype))
	}
	return d
}

// Values returns t's elements in row-major order as a []T. When t is
// contiguous the slice shares t's storage (writes are seen by t); otherwise
// it is a copy. It panics if T is not t's element type.
func Values[T Elem](t *Tensor) []T {
	d := Data[T](t)
	n := t.Numel()
	if n == 0 {
		// An empty view may have any offset, even past the storage.
		return []T{}
	}
	if t.IsContiguous() {
		return d[t.offset : t.offset+n : t.offset+n]
	}
	out := make([]T, n)
	i := 0
	t.eachOffset(func(off int) { out[i] = d[off]; i++ })
	return out
}

// eachOffset calls f with the storage offset of every element in row-major
// order.
func (t *Tensor) eachOffset(f func(off int)) {
	n := t.Numel()
	if n == 0 {
		return
	}
	nd := len(t.shape)
	if nd == 0 {
		f(t.offset)
		return
	}
	idx := make([]int, nd)
	off := t.offset
	last := nd - 1
	inner, istride := t.shape[last], t.strides[last]
	for {
		o := off
		for j := 0; j < inner; j++ {
			f(o)
			o += istride
		}
		// advance the outer dimensions
		k := last - 1
		for ; k >= 0; k-- {
			idx[k]++
			off += t.strides[k]
			if idx[k] < t.shape[k] {
				break
			}
			off -= t.strides[k] * t.shape[k]
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// Offsets returns the storage offset of every element in row-major order.
func (t *Tensor) Offsets() []int {
	out := make([]int, 0, t.Numel())
	t.eachOffset(func(off int) { out = append(out, off) })
	return out
}

// Contiguous returns t if it is contiguous, and otherwise a contiguous copy.
func (t *Tensor) Contiguous() *Tensor {
	if t.st == nil || t.IsContiguous() {
		return t
	}
	return t.Clone()
}

// Clone returns a contiguous copy of t with its own storage.
func (t *Tensor) Clone() *Tensor {
	if t.st == nil {
		return t.Meta()
	}
	out := Empty(t.dtype, t.shape...)
	copyInto(out, t)
	return out
}

// CopyFrom copies src's elements into t, converting dtypes and broadcasting
// src to t's shape, as torch.Tensor.copy_ does.
func (t *Tensor) CopyFrom(src *Tensor) error {
	if t.st == nil || src.st == nil {
		return fmt.Errorf("tensor: copy with a meta tensor")
	}
	s, err := src.Expand(t.shape...)
	if err != nil {
		return fmt.Errorf("tensor: copy: source shape %v does not broadcast to %v", src.shape, t.shape)
	}
	if s.dtype != t.dtype {
		s = s.To(t.dtype)
	}
	copyInto(t, s)
	return nil
}

// copyInto copies same-dtype, same-shape src into dst.
func copyInto(dst, src *Tensor) {
	switch dst.dtype {
	case Float32:
		copyTyped[float32](dst, src)
	case Float64:
		copyTyped[float64](dst, src)
	case Float16:
		copyTyped[Half](dst, src)
	case BFloat16:
		copyTyped[BHalf](dst, src)
	case Int64:
		copyTyped[int64](dst, src)
	case Int32:
		copyTyped[int32](dst, src)
	case Int16:
		copyTyped[int16](dst, src)
	case Int8:
		copyTyped[int8](dst, src)
	case Uint8:
		copyTyped[uint8](dst, src)
	case Bool:
		copyTyped[bool](dst, src)
	}
}

func copyTyped[T Elem](dst, src *Tensor) {
	sv := Values[T](src)
	if dst.IsContiguous() {
		copy(Values[T](dst), sv)
		return
	}
	d := Data[T](dst)
	i := 0
	dst.eachOffset(func(off int) { d[off] = sv[i]; i++ })
}

// Item returns the single element of a one-element tensor as a float64 (for
// floating and bool dtypes) or an int64 (for integral dtypes), boxed in any.
func (t *Tensor) Item() (any, error) {
	if t.Numel() != 1 {
		return nil, fmt.Errorf("tensor: a tensor with %d elements cannot be converted to a scalar", t.Numel())
	}
	if t.st == nil {
		return nil, fmt.Errorf("tensor: Item of a meta tensor")
	}
	switch {
	case t.dtype.IsFloat():
		return t.Float64s()[0], nil
	case t.dtype == Bool:
		return Values[bool](t)[0], nil
	}
	return t.Int64s()[0], nil
}
