package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// The trapezoid rule, ATen's Integration.cpp: trapezoid and trapz
// (sample points x or a constant spacing dx) and cumulative_trapezoid,
// composed as ATen composes them.

// registerIntegration registers the kernels of integration.go.
func registerIntegration() {
	registerBoth("aten::trapezoid.x", func(c *ops.Call) ([]any, error) { return trapezoidX(c, false) })
	registerBoth("aten::trapz.x", func(c *ops.Call) ([]any, error) { return trapezoidX(c, false) })
	registerBoth("aten::cumulative_trapezoid.x", func(c *ops.Call) ([]any, error) { return trapezoidX(c, true) })
	registerBoth("aten::trapezoid.dx", func(c *ops.Call) ([]any, error) { return trapezoidDx(c, false) })
	registerBoth("aten::trapz.dx", func(c *ops.Call) ([]any, error) { return trapezoidDx(c, false) })
	registerBoth("aten::cumulative_trapezoid.dx", func(c *ops.Call) ([]any, error) { return trapezoidDx(c, true) })
}

// trapezoidName is the function named in the errors.
func trapezoidName(cumulative bool) string {
	if cumulative {
		return "cumulative_trapezoid"
	}
	return "trapezoid"
}

// trapezoidX integrates y over dim at the sample points x: the sum (or
// cumulative sum) of (y[i] + y[i+1])·(x[i+1] - x[i]), halved.
func trapezoidX(c *ops.Call, cumulative bool) ([]any, error) {
	y, x := c.Tensor("y"), c.Tensor("x")
	fn := trapezoidName(cumulative)
	dim, err := wrapReduceDim(c, "dim", c.Int("dim"), y.Dim())
	if err != nil {
		return nil, err
	}
	p := &chain{c: c, arg: "x"}
	if !cumulative && y.Dim() > 0 && y.Size(dim) == 0 {
		return p.result(zerosExcept(p, y, dim))
	}
	if y.DType() == tensor.Bool || x.DType() == tensor.Bool {
		return nil, c.Errorf("y", "%s: received a bool input for `x` or `y`, but bool is not supported", fn)
	}
	xv := x
	switch {
	case x.Dim() == 1:
		if y.Dim() == 0 || x.Size(0) != y.Size(dim) {
			return nil, c.Errorf("x", "%s: There must be one `x` value for each sample point", fn)
		}
		sizes := make([]int64, y.Dim())
		for i := range sizes {
			sizes[i] = 1
		}
		sizes[dim] = int64(x.Size(0))
		xv = p.call("aten::view", x, sizes)
	case x.Dim() < y.Dim():
		sizes := make([]int64, y.Dim()-x.Dim(), y.Dim())
		for i := range sizes {
			sizes[i] = 1
		}
		sizes = append(sizes, intsToInt64(x.Shape())...)
		xv = p.call("aten::view", x, sizes)
	}
	d := int64(dim)
	dx := p.call("aten::sub.Tensor", p.call("aten::slice.Tensor", xv, d, int64(1)), p.call("aten::slice.Tensor", xv, d, int64(0), int64(-1)))
	s := p.call("aten::add.Tensor", p.call("aten::slice.Tensor", y, d, int64(0), int64(-1)), p.call("aten::slice.Tensor", y, d, int64(1)))
	prod := p.call("aten::mul.Tensor", s, dx)
	if cumulative {
		return p.result(p.call("aten::div.Scalar", p.call("aten::cumsum", prod, d), ops.FloatScalar(2)))
	}
	return p.result(p.call("aten::div.Scalar", p.call("aten::sum.dim_IntList", prod, []int64{d}), ops.FloatScalar(2)))
}

// trapezoidDx integrates y over dim with constant spacing dx:
// (sum(y) - (y[0] + y[-1])/2)·dx, or the cumulative sum of
// dx/2·(y[i] + y[i+1]).
func trapezoidDx(c *ops.Call, cumulative bool) ([]any, error) {
	y := c.Tensor("y")
	var dx float64
	if s, ok := c.Arg("dx").(ops.Scalar); ok {
		dx = s.Float()
	} else {
		dx = c.Float("dx")
	}
	dim, err := wrapReduceDim(c, "dim", c.Int("dim"), y.Dim())
	if err != nil {
		return nil, err
	}
	p := &chain{c: c, arg: "y"}
	if !cumulative && y.Dim() > 0 && y.Size(dim) == 0 {
		return p.result(zerosExcept(p, y, dim))
	}
	if y.DType() == tensor.Bool {
		return nil, c.Errorf("y", "%s: received a bool input for `y`, but bool is not supported", trapezoidName(cumulative))
	}
	d := int64(dim)
	if cumulative {
		s := p.call("aten::add.Tensor", p.call("aten::slice.Tensor", y, d, int64(0), int64(-1)), p.call("aten::slice.Tensor", y, d, int64(1)))
		return p.result(p.call("aten::cumsum", p.call("aten::mul.Scalar", s, ops.FloatScalar(dx/2)), d))
	}
	ends := p.call("aten::add.Tensor", p.call("aten::select.int", y, d, int64(0)), p.call("aten::select.int", y, d, int64(-1)))
	s := p.call("aten::sub.Tensor", p.call("aten::sum.dim_IntList", y, []int64{d}), p.call("aten::mul.Scalar", ends, ops.FloatScalar(0.5)))
	return p.result(p.call("aten::mul.Scalar", s, ops.FloatScalar(dx)))
}

// zerosExcept is zeros of y's shape without dimension dim.
func zerosExcept(p *chain, y *tensor.Tensor, dim int) *tensor.Tensor {
	shape := append(append([]int{}, y.Shape()[:dim]...), y.Shape()[dim+1:]...)
	if y.IsMeta() {
		return tensor.Must(tensor.NewMeta(y.DType(), shape...))
	}
	return p.callKw("aten::zeros", map[string]any{"dtype": y.DType()}, intsToInt64(shape))
}
