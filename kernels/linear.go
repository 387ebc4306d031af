package kernels

import (
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Linear layers, ATen's Linear.cpp: linear.

// registerLinear registers the kernels of linear.go.
func registerLinear() {
	registerBoth("aten::linear", linear)
}

// linear is aten::linear: input @ weight.t() (+ bias), following
// PyTorch 1.13's paths: addmm for 2-D input with a bias and for contiguous
// 3-D (and here, more) dimensional input with a bias (folded to 2-D; the
// bias then added in the GEMM's final stores), and otherwise matmul followed by
// an in-place add of the bias, which must broadcast to the product's shape
// and whose dtype may differ if the sum casts back to the product's dtype.
func linear(c *ops.Call) ([]any, error) {
	x, w, bias := c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias")
	if w.Dim() > 2 {
		return nil, c.Errorf("weight", "t() expects a tensor with <= 2 dimensions, but self is %dD", w.Dim())
	}
	wt := w
	if w.Dim() == 2 {
		wt = tensor.Must(w.T())
	}
	// PyTorch 1.13 folds contiguous 3-D input; gofx folds any contiguous
	// input of more dimensions too when the product is valid and the bias
	// a vector (the same result as matmul then add_, without a pass over
	// the output to add the bias, and errors unchanged).
	fold := x.Dim() == 3 || x.Dim() > 3 && wt.Dim() == 2 && x.Size(-1) == wt.Size(0) &&
		bias != nil && bias.Dim() <= 1 && x.DType() == w.DType() && bias.DType() == w.DType()
	if bias != nil && (x.Dim() == 2 || (fold && x.IsContiguous())) {
		x2 := x
		if x.Dim() >= 3 {
			x2 = tensor.Must(x.Reshape(-1, x.Size(-1)))
		}
		if wt.Dim() != 2 {
			return nil, c.Errorf("weight", "mat2 must be a matrix, got %d-D tensor", wt.Dim())
		}
		if err := checkMultipliable(c, "weight", x2, wt); err != nil {
			return nil, err
		}
		shape := []int{x2.Size(0), wt.Size(1)}
		bb, err := bias.Expand(shape...)
		if err != nil {
			return nil, c.Errorf("bias", "%v", err)
		}
		if x.DType() != w.DType() {
			return nil, c.Errorf("weight", "mat1 and mat2 must have the same dtype")
		}
		if bias.DType() != w.DType() {
			return nil, c.Errorf("bias", "self and mat2 must have the same dtype")
		}
		dt := x.DType()
		outShape := shape
		if x.Dim() >= 3 {
			outShape = append(x.Shape()[:x.Dim()-1], wt.Size(1))
		}
		if meta(x, w, bias) {
			return oneOrErr(empty(true, dt, outShape))
		}
		if !matmulSupported(dt) {
			return nil, notImplemented(c, "input", "addmm_impl_cpu_", dt)
		}
		r := addmmCompute(bb, x2, wt, dt, ops.IntScalar(1), ops.IntScalar(1), bf16Sequential(wt, x2.Size(0), x2.Size(1), wt.Size(1)))
		return one(tensor.Must(r.Reshape(outShape...))), nil
	}
	out, err := matmulTensors(c, "input", "weight", x, wt)
	if err != nil {
		return nil, err
	}
	if bias == nil {
		return one(out), nil
	}
	return addInPlace(c, "bias", out, bias)
}

// addInPlace returns out + b as out.add_(b) computes it: b broadcasts to
// out's shape, the sum is computed in the promoted dtype and cast back to
// out's dtype, which the promoted dtype must be able to cast to.
func addInPlace(c *ops.Call, arg string, out, b *tensor.Tensor) ([]any, error) {
	shape, err := ops.BroadcastShapes(out.Shape(), b.Shape())
	if err != nil {
		return nil, c.Errorf(arg, "%v", err)
	}
	if !slices.Equal(shape, out.Shape()) {
		return nil, c.Errorf(arg, "output with shape %s doesn't match the broadcast shape %s", shapeString(out.Shape()), shapeString(shape))
	}
	dt, err := ops.ResultType(out, b)
	if err != nil {
		return nil, c.Errorf(arg, "%v", err)
	}
	odt := out.DType()
	if (dt.IsFloat() && !odt.IsFloat()) || (dt != tensor.Bool && odt == tensor.Bool) {
		return nil, c.Errorf(arg, "result type %s can't be cast to the desired output type %s", scalarTypeName(dt), scalarTypeName(odt))
	}
	if meta(out, b) {
		return oneOrErr(empty(true, odt, shape))
	}
	sum := mapBinary(out, b, shape, dt,
		func(x, y float64) float64 { return x + y },
		func(x, y int64) int64 { return x + y })
	return one(to(sum, odt)), nil
}
