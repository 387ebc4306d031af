package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Tensor properties, ATen's TensorProperties.cpp: contiguous and the
// SymInt queries sym_size.int, sym_numel, sym_stride.int and
// sym_storage_offset, which touch no data and work on meta tensors.

// registerTensorProperties registers the kernels of tensor_properties.go.
func registerTensorProperties() {
	registerBoth("aten::sym_size.int", symSize)
	registerBoth("aten::sym_numel", symNumel)
	registerBoth("aten::sym_stride.int", symStride)
	registerBoth("aten::sym_storage_offset", symStorageOffset)
	registerBoth("aten::contiguous", contiguous)
}

// queryDim wraps dimension d for the size and stride queries, which
// reject any dimension of a 0-d tensor.
func queryDim(c *ops.Call, x *tensor.Tensor) (int, error) {
	d := c.Int("dim")
	if x.Dim() == 0 {
		return 0, c.Errorf("dim", "Dimension specified as %d but tensor has no dimensions", d)
	}
	return wrapDim(c, "dim", d, x.Dim())
}

// symSize is aten::sym_size.int: the size of dimension dim as an int64.
// (PyTorch 1.13's implementation neither wraps nor checks dim; this
// follows Tensor.size(dim): negative dims count from the end and out of
// range ones are an error.)
func symSize(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	d, err := queryDim(c, x)
	if err != nil {
		return nil, err
	}
	return []any{int64(x.Shape()[d])}, nil
}

// symNumel is aten::sym_numel: the number of elements as an int64.
func symNumel(c *ops.Call) ([]any, error) {
	return []any{int64(c.Tensor("self").Numel())}, nil
}

// symStride is aten::sym_stride.int: the stride of dimension dim as an
// int64, with Tensor.stride(dim)'s wrapping and checks.
func symStride(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	d, err := queryDim(c, x)
	if err != nil {
		return nil, err
	}
	return []any{int64(x.Strides()[d])}, nil
}

// symStorageOffset is aten::sym_storage_offset: the storage offset as
// an int64.
func symStorageOffset(c *ops.Call) ([]any, error) {
	return []any{int64(c.Tensor("self").Offset())}, nil
}

// contiguous is aten::contiguous: self itself when it is contiguous in
// memory_format, else a copy that is (contiguous_format, or channels_last
// for 4-d and channels_last_3d for 5-d tensors).
func contiguous(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	f := c.Str("memory_format")
	switch f {
	case "", "0", "contiguous_format":
		if self.IsContiguous() {
			return one(self), nil
		}
		if self.IsMeta() {
			return one(tensor.Must(tensor.NewMeta(self.DType(), self.Shape()...))), nil
		}
		return one(self.Clone()), nil
	case "preserve_format":
		if self.IsContiguous() {
			return one(self), nil
		}
		return nil, c.Errorf("memory_format", "preserve memory format is unsupported by the contiguous operator")
	case "channels_last", "channels_last_3d":
		rank := 4
		if f == "channels_last_3d" {
			rank = 5
		}
		if self.Dim() != rank {
			return nil, c.Errorf("memory_format", "required rank %d tensor to use %s format", rank, f)
		}
		// Channels last: dims ordered (N, spatial..., C) in memory.
		order := []int{0}
		for d := 2; d < rank; d++ {
			order = append(order, d)
		}
		order = append(order, 1)
		if contiguousIn(self, order) || self.IsMeta() {
			return one(self), nil
		}
		back := make([]int, rank)
		for i, d := range order {
			back[d] = i
		}
		p := tensor.Must(self.Permute(order...)).Clone()
		return one(tensor.Must(p.Permute(back...))), nil
	}
	return nil, c.Errorf("memory_format", "unknown memory format %q", f)
}

// contiguousIn reports whether t is contiguous with its dimensions laid
// out in memory in order (outermost first), size-1 dimensions aside, as
// ATen's compute_channels_last_contiguous_2d/3d do.
func contiguousIn(t *tensor.Tensor, order []int) bool {
	shape, strides := t.Shape(), t.Strides()
	want := 1
	for i := len(order) - 1; i >= 0; i-- {
		d := order[i]
		if shape[d] == 1 {
			continue
		}
		if strides[d] != want {
			return false
		}
		want *= shape[d]
	}
	return true
}
