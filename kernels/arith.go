package kernels

import (
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

func init() {
	registerBoth("aten::add.Tensor", addTensor)
}

// addTensor is aten::add.Tensor: self + alpha*other with type promotion and
// broadcasting; alpha is checked and cast to the result dtype as PyTorch
// does (see ew1Axpy).
func addTensor(c *ops.Call) ([]any, error) {
	if out := addFast(c); out != nil {
		return one(out), nil
	}
	o, err := ew1Binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	return ew1Axpy(c, o, o.a, o.b, ew1ScalarArg(c, "alpha"))
}

// addFast is the common case of add.Tensor without promotion, broadcasting
// or alpha: two contiguous float32 (or float64) tensors of one shape. The
// sum of two floats is the same IEEE operation PyTorch performs (its
// multiply-add by alpha = 1 is exact), so only the loop differs. It
// returns nil when the case does not apply.
func addFast(c *ops.Call) *tensor.Tensor {
	a, b := c.Tensor("self"), c.Tensor("other")
	alpha := c.Scalar("alpha")
	if a.IsMeta() || b.IsMeta() || a.DType() != b.DType() || alpha.IsBool() || alpha.Float() != 1 ||
		!a.IsContiguous() || !b.IsContiguous() || a.Dim() != b.Dim() || !slices.Equal(a.Shape(), b.Shape()) {
		return nil
	}
	switch a.DType() {
	case tensor.Float32:
		return addSame[float32](a, b)
	case tensor.Float64:
		return addSame[float64](a, b)
	}
	return nil
}

func addSame[T float32 | float64](a, b *tensor.Tensor) *tensor.Tensor {
	x, y := tensor.Values[T](a), tensor.Values[T](b)
	out := tensor.Empty(a.DType(), a.Shape()...)
	o := tensor.Data[T](out)
	parallelFor(len(o), func(lo, hi int) {
		o, x, y := o[lo:hi], x[lo:hi], y[lo:hi]
		for i := range o {
			o[i] = x[i] + y[i]
		}
	})
	return out
}
