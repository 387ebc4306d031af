package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Linear interpolation, ATen's Lerp.cpp: lerp.Scalar and lerp.Tensor.

// registerLerp registers the kernels of lerp.go.
func registerLerp() {
	registerBoth("aten::lerp.Scalar", lerp)
	registerBoth("aten::lerp.Tensor", lerp)
}

// lerpOf is ATen's lerp in its opmath precision (rounding each step with
// r): self + w*(end-self) for |w| < 0.5, end - (end-self)*(1-w) otherwise.
func lerpOf(r func(float64) float64, s, e, w float64) float64 {
	if math.Abs(w) < 0.5 {
		return r(s + r(w*r(e-s)))
	}
	return r(e - r(r(e-s)*r(1-w)))
}

// lerp is aten::lerp.Scalar and aten::lerp.Tensor: self, end (and a
// tensor weight) must share a floating dtype other than float16.
func lerp(c *ops.Call) ([]any, error) {
	self, end := c.Tensor("self"), c.Tensor("end")
	dt := self.DType()
	if end.DType() != dt {
		return nil, c.Errorf("end", "expected dtype %s for `end` but got dtype %s", demangledTypeName(dt), demangledTypeName(end.DType()))
	}
	wt, isT := c.Arg("weight").(*tensor.Tensor)
	kernel := "lerp_kernel_scalar"
	shapes := [][]int{self.Shape(), end.Shape()}
	if isT {
		kernel = "lerp_kernel_tensor"
		if wt.DType() != dt {
			return nil, c.Errorf("weight", "expected dtype %s for `weight` but got dtype %s", demangledTypeName(dt), demangledTypeName(wt.DType()))
		}
		shapes = append(shapes, wt.Shape())
	}
	shape, err := ops.BroadcastShapes(shapes...)
	if err != nil {
		return nil, c.Errorf("end", "%v", err)
	}
	isMeta := meta(self, end, wt)
	if (!dt.IsFloat() || dt == tensor.Float16) && !isMeta {
		return nil, notImplemented(c, "self", kernel, dt)
	}
	ct := computeType(dt)
	var w float64
	if !isT {
		// Scalar::to<scalar_t>, then opmath: bfloat16 weights round twice.
		if w, _, err = scalarTo(c, "weight", dt); err != nil {
			return nil, err
		}
	}
	if isMeta {
		return one(tensor.Must(empty(true, dt, shape))), nil
	}
	r := rounder(ct)
	if !isT {
		return one(mapBinary(self, end, shape, dt, func(s, e float64) float64 { return lerpOf(r, s, e, w) }, nil)), nil
	}
	return one(map3(self, end, wt, shape, dt, func(s, e, w float64) float64 { return lerpOf(r, s, e, w) }, nil)), nil
}
