package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Fills, ATen's Fill.cpp: the functional fill.Scalar and the in-place
// fill_.Tensor and zero_.

// registerFill registers the kernels of fill.go.
func registerFill() {
	registerBoth("aten::fill.Scalar", fillKernel)
	registerBoth("aten::zero_", zeroInplace)
	registerBoth("aten::fill_.Tensor", fillTensor)
}

// fillKernel is aten::fill.Scalar, the functional form of fill_: a new tensor
// of self's dtype and shape filled with value, converted with ATen's
// overflow check.
func fillKernel(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	v, err := scalarValue(c, "value", c.Scalar("value"), x.DType())
	if err != nil {
		return nil, err
	}
	out, err := fullTensor(x.IsMeta(), x.DType(), x.Shape(), v)
	if err != nil {
		return nil, c.Errorf("self", "%v", err)
	}
	return one(out), nil
}

// zeroInplace is aten::zero_: self filled with zeros, returned.
func zeroInplace(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if self.IsMeta() {
		return one(self), nil
	}
	if err := self.CopyFrom(tensor.Must(tensor.New(self.DType()))); err != nil {
		return nil, c.Errorf("self", "%v", err)
	}
	return one(self), nil
}

// fillTensor is aten::fill_.Tensor: fill_.Scalar with the value of a
// 0-d tensor.
func fillTensor(c *ops.Call) ([]any, error) {
	self, value := c.Tensor("self"), c.Tensor("value")
	if value.Dim() != 0 {
		return nil, c.Errorf("value", "fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.", value.Dim())
	}
	if self.IsMeta() || value.IsMeta() {
		return one(self), nil
	}
	var v ops.Scalar
	switch dt := value.DType(); {
	case dt.IsFloat():
		v = ops.FloatScalar(value.Float64s()[0])
	case dt == tensor.Bool:
		v = ops.BoolScalar(value.Bools()[0])
	default:
		v = ops.IntScalar(value.Int64s()[0])
	}
	fill := op("aten::fill_.Scalar")
	out, err := fill.Call([]any{self, v}, nil)
	if err != nil {
		return nil, rebind(c, fill, err, nil)
	}
	return out, nil
}
