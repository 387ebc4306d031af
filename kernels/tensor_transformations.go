package kernels

import "github.com/gofx/gofx/ops"

// Transformations, ATen's TensorTransformations.cpp: flip.

// registerTensorTransformations registers the kernels of tensor_transformations.go.
func registerTensorTransformations() {
	registerBoth("aten::flip", flipKernel)
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
