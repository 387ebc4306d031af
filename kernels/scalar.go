package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Scalars, ATen's Scalar.cpp: _local_scalar_dense and item, the value of
// a one-element tensor (data-dependent: their meta functions refuse).

// registerScalar registers the kernels of scalar.go.
func registerScalar() {
	register("aten::_local_scalar_dense", localScalarDense, dataDependentMeta)
	register("aten::item", item, dataDependentMeta)
}

// localScalarDense is aten::_local_scalar_dense: the tensor's first
// element as a Go number: float64 for floating dtypes, int64 for integral
// ones, bool for bool. Like ATen it does not check that there is exactly
// one element (Tensor.item does); an empty tensor is an error.
func localScalarDense(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if self.Numel() == 0 {
		return nil, c.Errorf("self", "a Tensor with 0 elements cannot be converted to Scalar")
	}
	first := tensor.Must(flatten1d(self).Narrow(0, 0, 1))
	x, err := first.Item()
	if err != nil {
		return nil, c.Errorf("self", "%v", err)
	}
	return []any{x}, nil
}

// item is aten::item: the value of a one-element tensor as a Go number
// (float64, int64 or bool), as _local_scalar_dense gives it; any other
// element count is an error.
func item(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if n := self.Numel(); n != 1 {
		return nil, c.Errorf("self", "a Tensor with %d elements cannot be converted to Scalar", n)
	}
	return localScalarDense(c)
}
