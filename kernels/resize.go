package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Resizing, ATen's Resize.cpp: resize_.

// registerResize registers the kernels of resize.go.
func registerResize() {
	registerBoth("aten::resize_", resize)
}

// storageLen is the number of elements of x's storage.
func storageLen(x *tensor.Tensor) int {
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

// resize is aten::resize_. ATen resizes self in place: it keeps self's
// storage and storage offset, gives self the new sizes with the strides of
// memory_format (contiguous by default), and grows the storage when it is
// too small, the new elements being uninitialized. gofx tensors cannot
// change shape, so this returns the resized tensor instead of changing
// self: a view of self's storage when it is large enough (so the elements
// are self's storage from its offset on, as after ATen's resize_), and
// otherwise a tensor over a new storage holding a copy of the old one
// from self's offset on, followed by zeros.
func resize(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	shape, err := nonNegSizes(c, "size", c.Ints("size"))
	if err != nil {
		return nil, err
	}
	if _, err := tensor.Numel(shape); err != nil {
		return nil, c.Errorf("size", "%v", err)
	}
	strides, err := formatStrides(c, "memory_format", shape)
	if err != nil {
		if c.Str("memory_format") == "preserve_format" {
			return nil, c.Errorf("memory_format", "Unsupported memory format Preserve")
		}
		return nil, err
	}
	if x.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(x.DType(), shape...))), nil
	}
	need := storageSize(shape, strides)
	off, have := x.Offset(), storageLen(x)
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
