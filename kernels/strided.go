package kernels

import (
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Strided-layout kernels: as_strided and diagonal (views), empty and
// empty_strided (factories), fill.Scalar and copy (functional fills),
// squeeze.dims (a view; newer than PyTorch 1.13), resize_ and the SymInt
// queries sym_size.int, sym_numel, sym_stride.int and sym_storage_offset.
// All of them work on meta tensors: the views and queries touch no data.

func registerStrided() {
	registerBoth("aten::as_strided", ixAsStrided)
	registerBoth("aten::diagonal", ixDiagonal)
	registerBoth("aten::empty.memory_format", ixEmpty)
	registerBoth("aten::empty_strided", ixEmptyStrided)
	registerBoth("aten::fill.Scalar", ixFill)
	registerBoth("aten::copy", ixCopy)
	registerBoth("aten::squeeze.dims", ixSqueezeDims)
	registerBoth("aten::resize_", ixResize)
	registerBoth("aten::sym_size.int", ixSymSize)
	registerBoth("aten::sym_numel", ixSymNumel)
	registerBoth("aten::sym_stride.int", ixSymStride)
	registerBoth("aten::sym_storage_offset", ixSymStorageOffset)
}

// ixStrides converts a stride argument to ints, rejecting negative strides
// (which ATen does not support) and absurd values.
func ixStrides(c *ops.Call, arg, what string, v []int64) ([]int, error) {
	out := make([]int, len(v))
	for i, s := range v {
		if s < 0 {
			return nil, c.Errorf(arg, "%s: Negative strides are not supported at the moment, got strides: %v", what, v)
		}
		if s > tensor.MaxElements {
			return nil, c.Errorf(arg, "stride %d at index %d is too large", s, i)
		}
		out[i] = int(s)
	}
	return out, nil
}

// ixNonNegSizes converts a size argument to ints, rejecting negative
// dimensions as ATen's factories and resize_ do.
func ixNonNegSizes(c *ops.Call, arg string, v []int64) ([]int, error) {
	for _, d := range v {
		if d < 0 {
			return nil, c.Errorf(arg, "Trying to create tensor with negative dimension %d: %v", d, v)
		}
	}
	return shSizes(c, arg, v)
}

// ixAsStrided is aten::as_strided: a view of self's storage with the given
// sizes, strides and storage offset (self's own offset when None). Every
// element it reaches must lie in the storage (meta tensors have none to
// check).
func ixAsStrided(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	size, stride := c.Ints("size"), c.Ints("stride")
	if len(size) != len(stride) {
		return nil, c.Errorf("stride", "mismatch in length of strides and shape")
	}
	shape, err := ixNonNegSizes(c, "size", size)
	if err != nil {
		return nil, err
	}
	strides, err := ixStrides(c, "stride", "as_strided", stride)
	if err != nil {
		return nil, err
	}
	off := int64(x.Offset())
	if o, ok := c.OptInt("storage_offset"); ok {
		off = o
	}
	if off < 0 {
		return nil, c.Errorf("storage_offset", "Tensor: invalid storage offset %d", off)
	}
	if off > tensor.MaxElements {
		return nil, c.Errorf("storage_offset", "storage offset %d is too large", off)
	}
	v, err := x.AsStrided(shape, strides, int(off))
	if err != nil {
		return nil, c.Errorf("size", "%v", err)
	}
	return one(v), nil
}

// ixDiagonal is aten::diagonal: the view of the elements (i, i+offset) of
// dimensions dim1 and dim2, which are removed and replaced by a last
// dimension of the diagonal's length (0 when offset is past the end).
func ixDiagonal(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	d1, err := shDim(c, "dim1", c.Int("dim1"), x.Dim())
	if err != nil {
		return nil, err
	}
	d2, err := shDim(c, "dim2", c.Int("dim2"), x.Dim())
	if err != nil {
		return nil, err
	}
	if d1 == d2 {
		return nil, c.Errorf("dim2", "diagonal dimensions cannot be identical %d, %d", c.Int("dim1"), c.Int("dim2"))
	}
	offset := c.Int("offset")
	shape, strides := x.Shape(), x.Strides()
	s1, s2 := int64(shape[d1]), int64(shape[d2])
	var n int64
	if offset >= 0 {
		n = max(min(s1, s2-min(offset, s2)), 0)
	} else {
		n = max(min(s1+max(offset, -s1), s2), 0)
	}
	off := x.Offset()
	if n > 0 {
		if offset >= 0 {
			off += int(offset) * strides[d2]
		} else {
			off -= int(offset) * strides[d1]
		}
	}
	st := strides[d1] + strides[d2]
	hi, lo := max(d1, d2), min(d1, d2)
	shape = slices.Delete(shape, hi, hi+1)
	shape = slices.Delete(shape, lo, lo+1)
	strides = slices.Delete(strides, hi, hi+1)
	strides = slices.Delete(strides, lo, lo+1)
	shape = append(shape, int(n))
	strides = append(strides, st)
	v, err := x.AsStrided(shape, strides, off)
	if err != nil {
		return nil, c.Errorf("offset", "%v", err)
	}
	return one(shRebase(v)), nil
}

// ixFormatStrides returns the strides of shape in memory format f
// (contiguous_format when None), blaming argument arg for a format that
// does not apply: preserve_format has no layout of its own here, and the
// channels-last formats need rank 4 or 5.
func ixFormatStrides(c *ops.Call, arg string, shape []int) ([]int, error) {
	f := "contiguous_format"
	if !c.IsNone(arg) {
		f = c.Str(arg)
	}
	switch f {
	case "contiguous_format":
		return tensor.ContiguousStrides(shape), nil
	case "preserve_format":
		return nil, c.Errorf(arg, "unsupported memory format Preserve")
	case "channels_last", "channels_last_3d":
		rank := 4
		if f == "channels_last_3d" {
			rank = 5
		}
		if len(shape) != rank {
			return nil, c.Errorf(arg, "required rank %d tensor to use %s format", rank, f)
		}
		// The channel dimension (1) is the innermost, then the spatial
		// dimensions in order, then the batch; as in ATen's
		// get_channels_last_strides, empty dimensions are not counted as 1.
		strides := make([]int, rank)
		strides[1] = 1
		s := shape[1]
		for d := rank - 1; d >= 2; d-- {
			strides[d] = s
			s *= shape[d]
		}
		strides[0] = s
		return strides, nil
	}
	return nil, c.Errorf(arg, "unknown memory format %q", f)
}

// ixStorageSize is the number of storage elements a layout reaches from
// offset 0: 0 for an empty shape.
func ixStorageSize(shape, strides []int) int {
	n := 1
	for i, d := range shape {
		if d == 0 {
			return 0
		}
		n += (d - 1) * strides[i]
	}
	return n
}

// ixEmptyLayout returns a tensor of dt with the given shape and strides
// over a new zeroed storage; a meta tensor (with contiguous strides) when
// isMeta.
func ixEmptyLayout(c *ops.Call, arg string, isMeta bool, dt tensor.DType, shape, strides []int) (*tensor.Tensor, error) {
	if isMeta {
		return tensor.NewMeta(dt, shape...)
	}
	n := ixStorageSize(shape, strides)
	if n > tensor.MaxElements {
		return nil, c.Errorf(arg, "sizes %v with strides %v need a storage of %d elements, which is too large", shape, strides, n)
	}
	st, err := tensor.New(dt, n)
	if err != nil {
		return nil, c.Errorf(arg, "%v", err)
	}
	v, err := st.AsStrided(shape, strides, 0)
	if err != nil {
		return nil, c.Errorf(arg, "%v", err)
	}
	return v, nil
}

// ixEmpty is aten::empty.memory_format. PyTorch leaves the contents
// unspecified (uninitialized memory); here they are zeros. The strides
// follow memory_format; the dtype defaults to float32.
func ixEmpty(c *ops.Call) ([]any, error) {
	shape, err := shFullSize(c, "size", c.Ints("size"))
	if err != nil {
		return nil, err
	}
	isMeta, err := shFactoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	dt, ok := c.DType("dtype")
	if !ok {
		dt = tensor.Float32
	}
	strides, err := ixFormatStrides(c, "memory_format", shape)
	if err != nil {
		return nil, err
	}
	out, err := ixEmptyLayout(c, "size", isMeta, dt, shape, strides)
	if err != nil {
		return nil, err
	}
	return one(out), nil
}

// ixEmptyStrided is aten::empty_strided: a tensor with the given sizes and
// strides over a new storage just large enough. PyTorch leaves the
// contents unspecified; here they are zeros.
func ixEmptyStrided(c *ops.Call) ([]any, error) {
	size, stride := c.Ints("size"), c.Ints("stride")
	if len(size) != len(stride) {
		return nil, c.Errorf("stride", "dimensionality of sizes (%d) must match dimensionality of strides (%d)", len(size), len(stride))
	}
	shape, err := shFullSize(c, "size", size)
	if err != nil {
		return nil, err
	}
	strides, err := ixStrides(c, "stride", "empty_strided", stride)
	if err != nil {
		return nil, err
	}
	isMeta, err := shFactoryOptions(c, nil)
	if err != nil {
		return nil, err
	}
	dt, ok := c.DType("dtype")
	if !ok {
		dt = tensor.Float32
	}
	out, err := ixEmptyLayout(c, "size", isMeta, dt, shape, strides)
	if err != nil {
		return nil, err
	}
	return one(out), nil
}

// ixFill is aten::fill.Scalar, the functional form of fill_: a new tensor
// of self's dtype and shape filled with value, converted with ATen's
// overflow check.
func ixFill(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	v, err := shScalarValue(c, "value", c.Scalar("value"), x.DType())
	if err != nil {
		return nil, err
	}
	out, err := shFull(x.IsMeta(), x.DType(), x.Shape(), v)
	if err != nil {
		return nil, c.Errorf("self", "%v", err)
	}
	return one(out), nil
}

// ixCopy is aten::copy, the functional form of copy_: a new tensor of
// self's dtype and shape holding src broadcast to self's shape and
// converted to its dtype (floating values to integers as x86 casts them).
// non_blocking changes nothing on the CPU.
func ixCopy(c *ops.Call) ([]any, error) {
	x, src := c.Tensor("self"), c.Tensor("src")
	if _, err := src.Expand(x.Shape()...); err != nil {
		return nil, c.Errorf("src", "%v", err)
	}
	out, err := empty(meta(x, src), x.DType(), x.Shape())
	if err != nil {
		return nil, c.Errorf("self", "%v", err)
	}
	if out.IsMeta() || out.Numel() == 0 {
		return one(out), nil
	}
	if err := out.CopyFrom(shConvert(src, x.DType())); err != nil {
		return nil, c.Errorf("src", "%v", err)
	}
	return one(out), nil
}

// ixSqueezeDims is aten::squeeze.dims (newer than PyTorch 1.13): a view of
// self without those of the dimensions dim that have size 1; the others
// stay. Dimensions wrap; a repeated one is an error.
func ixSqueezeDims(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	drop := make([]bool, max(x.Dim(), 1))
	for _, d := range c.Ints("dim") {
		n, err := shDim(c, "dim", d, x.Dim())
		if err != nil {
			return nil, err
		}
		if drop[n] {
			return nil, c.Errorf("dim", "dim %d appears multiple times in the list of dims", n)
		}
		drop[n] = true
	}
	var shape, strides []int
	for d, s := range x.Shape() {
		if drop[d] && s == 1 {
			continue
		}
		shape = append(shape, s)
		strides = append(strides, x.Strides()[d])
	}
	if shape == nil {
		shape, strides = []int{}, []int{}
	}
	v, err := x.AsStrided(shape, strides, x.Offset())
	if err != nil {
		return nil, c.Errorf("self", "%v", err)
	}
	return one(v), nil
}

// ixStorageLen is the number of elements of x's storage.
func ixStorageLen(x *tensor.Tensor) int {
	switch x.DType() {
	case tensor.Float32:
		return len(tensor.Data[float32](x))
	case tensor.Float64:
		return len(tensor.Data[float64](x))
	case tensor.Float16:
		return len(tensor.Data[tensor.Half](x))
	case tensor.BFloat16:
		return len(tensor.Data[tensor.BHalf](x))
	case tensor.Int64:
		return len(tensor.Data[int64](x))
	case tensor.Int32:
		return len(tensor.Data[int32](x))
	case tensor.Int16:
		return len(tensor.Data[int16](x))
	case tensor.Int8:
		return len(tensor.Data[int8](x))
	case tensor.Uint8:
		return len(tensor.Data[uint8](x))
	}
	return len(tensor.Data[bool](x))
}

// ixResize is aten::resize_. ATen resizes self in place: it keeps self's
// storage and storage offset, gives self the new sizes with the strides of
// memory_format (contiguous by default), and grows the storage when it is
// too small, the new elements being uninitialized. gofx tensors cannot
// change shape, so this returns the resized tensor instead of changing
// self: a view of self's storage when it is large enough (so the elements
// are self's storage from its offset on, as after ATen's resize_), and
// otherwise a tensor over a new storage holding a copy of the old one
// from self's offset on, followed by zeros.
func ixResize(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	shape, err := ixNonNegSizes(c, "size", c.Ints("size"))
	if err != nil {
		return nil, err
	}
	if _, err := tensor.Numel(shape); err != nil {
		return nil, c.Errorf("size", "%v", err)
	}
	strides, err := ixFormatStrides(c, "memory_format", shape)
	if err != nil {
		if c.Str("memory_format") == "preserve_format" {
			return nil, c.Errorf("memory_format", "Unsupported memory format Preserve")
		}
		return nil, err
	}
	if x.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(x.DType(), shape...))), nil
	}
	need := ixStorageSize(shape, strides)
	off, have := x.Offset(), ixStorageLen(x)
	if need == 0 || off+need <= have {
		return one(tensor.Must(x.AsStrided(shape, strides, off))), nil
	}
	if need > tensor.MaxElements {
		return nil, c.Errorf("size", "resize to %v needs a storage of %d elements, which is too large", shape, need)
	}
	st := tensor.Empty(x.DType(), need)
	if kept := have - off; kept > 0 {
		old := tensor.Must(x.AsStrided([]int{kept}, []int{1}, off))
		if err := tensor.Must(st.Narrow(0, 0, kept)).CopyFrom(old); err != nil {
			return nil, err
		}
	}
	return one(tensor.Must(st.AsStrided(shape, strides, 0))), nil
}

// ixQueryDim wraps dimension d for the size and stride queries, which
// reject any dimension of a 0-d tensor.
func ixQueryDim(c *ops.Call, x *tensor.Tensor) (int, error) {
	d := c.Int("dim")
	if x.Dim() == 0 {
		return 0, c.Errorf("dim", "Dimension specified as %d but tensor has no dimensions", d)
	}
	return shDim(c, "dim", d, x.Dim())
}

// ixSymSize is aten::sym_size.int: the size of dimension dim as an int64.
// (PyTorch 1.13's implementation neither wraps nor checks dim; this
// follows Tensor.size(dim): negative dims count from the end and out of
// range ones are an error.)
func ixSymSize(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	d, err := ixQueryDim(c, x)
	if err != nil {
		return nil, err
	}
	return []any{int64(x.Shape()[d])}, nil
}

// ixSymNumel is aten::sym_numel: the number of elements as an int64.
func ixSymNumel(c *ops.Call) ([]any, error) {
	return []any{int64(c.Tensor("self").Numel())}, nil
}

// ixSymStride is aten::sym_stride.int: the stride of dimension dim as an
// int64, with Tensor.stride(dim)'s wrapping and checks.
func ixSymStride(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	d, err := ixQueryDim(c, x)
	if err != nil {
		return nil, err
	}
	return []any{int64(x.Strides()[d])}, nil
}

// ixSymStorageOffset is aten::sym_storage_offset: the storage offset as
// an int64.
func ixSymStorageOffset(c *ops.Call) ([]any, error) {
	return []any{int64(c.Tensor("self").Offset())}, nil
}
