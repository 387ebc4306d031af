package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Ternary pointwise ops, ATen's PointwiseOps.cpp: addcmul and addcdiv.

// registerPointwiseOps registers the kernels of pointwise_ops.go.
func registerPointwiseOps() {
	registerBoth("aten::addcmul", addcmul)
	registerBoth("aten::addcdiv", addcdiv)
}

// addc reads addcmul's and addcdiv's operands: their result dtype, the
// broadcast shape and value converted to the dtype.
func addc(c *ops.Call, kernel string) (dt tensor.DType, shape []int, vf float64, vi int64, err error) {
	self, t1, t2 := c.Tensor("self"), c.Tensor("tensor1"), c.Tensor("tensor2")
	if dt, err = ops.ResultType(self, t1, t2); err != nil {
		return
	}
	if shape, err = ops.BroadcastShapes(self.Shape(), t1.Shape(), t2.Shape()); err != nil {
		err = c.Errorf("tensor2", "%v", err)
		return
	}
	if (dt == tensor.Bool || dt == tensor.Float16) && !meta(self, t1, t2) {
		err = notImplemented(c, "self", kernel, dt)
		return
	}
	vf, vi, err = scalarTo(c, "value", dt)
	return
}

// addcmul is aten::addcmul: self + value*tensor1*tensor2 in the result
// dtype of the three tensors (integers wrap).
func addcmul(c *ops.Call) ([]any, error) {
	dt, shape, vf, vi, err := addc(c, "addcmul_cpu_out")
	if err != nil {
		return nil, err
	}
	self, t1, t2 := c.Tensor("self"), c.Tensor("tensor1"), c.Tensor("tensor2")
	if meta(self, t1, t2) {
		return one(tensor.Must(empty(true, dt, shape))), nil
	}
	r := rounder(computeType(dt))
	return one(map3(to(self, dt), to(t1, dt), to(t2, dt), shape, dt,
		func(s, a, b float64) float64 { return s + r(r(vf*a)*b) },
		func(s, a, b int64) int64 { return s + vi*a*b })), nil
}

// addcdiv is aten::addcdiv: self + value*tensor1/tensor2; integer
// division (tensor1 and tensor2 both integral or bool) is an error.
func addcdiv(c *ops.Call) ([]any, error) {
	t1, t2 := c.Tensor("tensor1"), c.Tensor("tensor2")
	if !t1.DType().IsFloat() && !t2.DType().IsFloat() {
		return nil, c.Errorf("tensor2", "Integer division with addcdiv is no longer supported, and in a future  "+
			"release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "+
			"behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) "+
			"for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "+
			"addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.")
	}
	dt, shape, vf, _, err := addc(c, "addcdiv_cpu_out")
	if err != nil {
		return nil, err
	}
	self := c.Tensor("self")
	if meta(self, t1, t2) {
		return one(tensor.Must(empty(true, dt, shape))), nil
	}
	r := rounder(computeType(dt))
	return one(map3(to(self, dt), to(t1, dt), to(t2, dt), shape, dt,
		func(s, a, b float64) float64 { return s + r(r(vf*a)/b) }, nil)), nil
}
