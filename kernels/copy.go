package kernels

import (
	"slices"

	"github.com/gofx/gofx/ops"
)

// Copies, ATen's Copy.cpp: the functional copy and the in-place copy_.

// registerCopy registers the kernels of copy.go.
func registerCopy() {
	registerBoth("aten::copy", copyKernel)
	registerBoth("aten::copy_", copyInplace("src"))
	registerBoth("aten::copy_.Tensor", copyInplace("other"))
}

// copyKernel is aten::copy, the functional form of copy_: a new tensor of
// self's dtype and shape holding src broadcast to self's shape and
// converted to its dtype (floating values to integers as x86 casts them).
// non_blocking changes nothing on the CPU.
func copyKernel(c *ops.Call) ([]any, error) {
	x, src := c.Tensor("self"), c.Tensor("src")
	if _, err := src.Expand(x.Shape()...); err != nil {
		return nil, c.Errorf("src", "%v", err)
	}
	out, err := empty(meta(x, src), x.DType(), x.Shape())
	if err != nil {
		return nil, c.Errorf("self", "%v", err)
	}
	if out.IsMeta() || out.Numel() == 0 {
		return one(out), nil
	}
	if err := out.CopyFrom(convert(src, x.DType())); err != nil {
		return nil, c.Errorf("src", "%v", err)
	}
	return one(out), nil
}

// copyInplace returns the kernel of aten::copy_ (source argument src) or of
// TorchScript's copy_.Tensor (other): src broadcast to self's shape and
// converted to self's dtype (floats to integers truncate, as a cast does)
// is written into self, which is returned.
func copyInplace(srcName string) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		self, src := c.Tensor("self"), c.Tensor(srcName)
		if self == src {
			return one(self), nil
		}
		// TensorIterator checks memory overlap before shapes.
		if err := overlapChecks(c, self, inplaceRule{internal: true, partial: true}); err != nil {
			return nil, err
		}
		shape, err := ops.BroadcastShapes(self.Shape(), src.Shape())
		if err != nil {
			return nil, c.Errorf(srcName, "%v", err)
		}
		if !slices.Equal(shape, self.Shape()) {
			return nil, c.Errorf("self", "output with shape %s doesn't match the broadcast shape %s",
				shapeString(self.Shape()), shapeString(shape))
		}
		if err := write(self, src); err != nil {
			return nil, c.Errorf("self", "%v", err)
		}
		return one(self), nil
	}
}
