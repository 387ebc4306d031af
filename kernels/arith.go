package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

func registerArith() {
	registerBoth("aten::add.Tensor", addTensor)
}

// addTensor is aten::add.Tensor: self + alpha*other with type promotion and
// broadcasting; alpha is checked and cast to the result dtype as PyTorch
// does (see ew1Axpy).
func addTensor(c *ops.Call) ([]any, error) {
	o, err := ew1Binary(c, "self", "other")
	if err != nil {
		return nil, err
	}
	return ew1Axpy(c, o, o.a, o.b, ew1ScalarArg(c, "alpha"))
}

// addSame returns a + b for contiguous float32 or float64 tensors of one
// shape and dtype, in a direct loop over both cores: the IEEE sum PyTorch
// computes, without the per-element closure of the general path.
func addSame(a, b *tensor.Tensor) *tensor.Tensor {
	if a.DType() == tensor.Float64 {
		return addTyped[float64](a, b)
	}
	return addTyped[float32](a, b)
}

func addTyped[T float32 | float64](a, b *tensor.Tensor) *tensor.Tensor {
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
