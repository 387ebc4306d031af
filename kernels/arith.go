package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

func init() {
	registerBoth("aten::add.Tensor", addTensor)
}

// addTensor is aten::add.Tensor: self + alpha*other with type promotion and
// broadcasting.
func addTensor(c *ops.Call) ([]any, error) {
	a, b := c.Tensor("self"), c.Tensor("other")
	alpha := c.Scalar("alpha")
	dt, err := ops.ResultType(a, b)
	if err != nil {
		return nil, err
	}
	if alpha.IsFloat() && !dt.IsFloat() {
		return nil, c.Errorf("alpha", "for integral input tensors, argument alpha must not be a floating point number")
	}
	if dt == tensor.Bool && !alpha.IsBool() && alpha.Int() != 1 && alpha.Int() != 0 {
		return nil, c.Errorf("alpha", "boolean alpha only supported for Tensor of dtype bool")
	}
	shape, err := broadcast(c, "other", a, b)
	if err != nil {
		return nil, err
	}
	af, ai := alpha.Float(), alpha.Int()
	if af == 1 {
		return one(mapBinary(a, b, shape, dt,
			func(x, y float64) float64 { return x + y },
			func(x, y int64) int64 { return x + y })), nil
	}
	if dt == tensor.Float32 || computeType(dt) == tensor.Float32 {
		// PyTorch multiplies in float32: alpha is cast to the dtype first.
		a32 := float64(float32(af))
		return one(mapBinary(a, b, shape, dt,
			func(x, y float64) float64 { return x + float64(float32(a32*y)) },
			nil)), nil
	}
	return one(mapBinary(a, b, shape, dt,
		func(x, y float64) float64 { return x + af*y },
		func(x, y int64) int64 { return x + ai*y })), nil
}
