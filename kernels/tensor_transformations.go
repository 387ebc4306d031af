package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Transformations, ATen's TensorTransformations.cpp: flip and roll.

// registerTensorTransformations registers the kernels of tensor_transformations.go.
func registerTensorTransformations() {
	registerBoth("aten::flip", flipKernel)
	registerBoth("aten::roll", roll)
}

// flipKernel is aten::flip: a copy of self with the order of elements reversed
// along each of dims.
func flipKernel(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	dims := c.Ints("dims")
	flip := make([]bool, max(x.Dim(), 1))
	for _, d := range dims {
		n, err := wrapDim(c, "dims", d, x.Dim())
		if err != nil {
			return nil, err
		}
		if flip[n] {
			return nil, c.Errorf("dims", "dim %d appears multiple times in the list of dims", n)
		}
		flip[n] = true
	}
	if x.IsMeta() {
		return one(x.Meta()), nil
	}
	shape, strides, off := x.Shape(), x.Strides(), x.Offset()
	for d := range shape {
		if flip[d] && shape[d] > 0 {
			off += (shape[d] - 1) * strides[d]
			strides[d] = -strides[d]
		}
	}
	return one(take(x, shape, offsets(shape, strides, off))), nil
}

// roll is aten::roll: self with its elements shifted by shifts along dims
// (those wrapping round to the front); without dims, along the flattened
// tensor, keeping self's shape.
func roll(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	shifts, dims := c.Ints("shifts"), c.Ints("dims")
	if len(shifts) == 0 {
		return nil, c.Errorf("shifts", "`shifts` required")
	}
	if len(dims) == 0 && len(shifts) == 1 {
		if self.IsMeta() {
			return one(self.Meta()), nil
		}
		flat := tensor.Must(self.Contiguous().Reshape(self.Numel()))
		out, err := delegateKernel("aten::roll", roll, []any{flat, shifts, []int64{0}}, nil)
		if err != nil {
			return nil, err
		}
		return oneOrErr(out[0].(*tensor.Tensor).Reshape(self.Shape()...))
	}
	if len(shifts) != len(dims) {
		return nil, c.Errorf("dims", "shifts and dimensions must align. shifts: %d, dims:%d", len(shifts), len(dims))
	}
	x := self
	p := &chain{c: c, arg: "self"}
	for i, d := range dims {
		nd, err := wrapReduceDim(c, "dims", d, self.Dim())
		if err != nil {
			return nil, err
		}
		n := self.Size(nd)
		if n == 0 {
			continue
		}
		s := int(((shifts[i] % int64(n)) + int64(n)) % int64(n))
		idx := make([]int64, n)
		for j := range idx {
			idx[j] = int64((j - s + n) % n)
		}
		x = p.call("aten::index_select", x, int64(nd), tensor.Must(tensor.FromInt64s(tensor.Int64, idx, n)))
	}
	if x == self && p.err == nil {
		x = self.Contiguous().Clone()
		if self.IsMeta() {
			x = self.Meta()
		}
	}
	return p.result(x)
}
