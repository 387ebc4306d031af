package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Backward kernels of pooling and embedding, as PyTorch 1.13's CPU
// kernels compute them: each output gradient is spread over the input
// elements its forward value came from, accumulated in the input's type
// (bfloat16 rounds at every addition).

func registerBackward() {
	registerBoth("aten::_adaptive_avg_pool2d_backward", pxAdaptiveAvgPool2dBackward)
	registerBoth("aten::avg_pool2d_backward", pxAvgPool2dBackward)
	registerBoth("aten::max_pool2d_with_indices_backward", pxMaxPool2dWithIndicesBackward)
	registerBoth("aten::embedding_dense_backward", pxEmbeddingDenseBackward)
}

// pxSameDType checks that grad_output has the dtype of self.
func pxSameDType(c *ops.Call, g, x *tensor.Tensor) error {
	if g.DType() != x.DType() {
		return c.Errorf("grad_output", "expected dtype %s for `grad_output` but got dtype %s", x.DType(), g.DType())
	}
	return nil
}

// pxCheckGradShape checks that grad_output has the forward's output shape.
func pxCheckGradShape(c *ops.Call, g *tensor.Tensor, want []int) error {
	gs := g.Shape()
	if len(gs) != len(want) {
		return c.Errorf("grad_output", "expected grad_output of shape %s, got %s", cvShapeString(want), cvShapeString(gs))
	}
	for i := range gs {
		if gs[i] != want[i] {
			return c.Errorf("grad_output", "expected grad_output of shape %s, got %s", cvShapeString(want), cvShapeString(gs))
		}
	}
	return nil
}

// pxFloatKernel reports whether dt is one of the float32, float64 and
// bfloat16 dtypes that ATen's pooling kernels take.
func pxFloatKernel(dt tensor.DType) bool {
	return dt == tensor.Float32 || dt == tensor.Float64 || dt == tensor.BFloat16
}

// pxAdaptiveAvgPool2dBackward is aten::_adaptive_avg_pool2d_backward:
// each output gradient divided by its window's height and width, added to
// every input element of the window.
func pxAdaptiveAvgPool2dBackward(c *ops.Call) ([]any, error) {
	g, x := c.Tensor("grad_output"), c.Tensor("self")
	nd := g.Dim()
	if nd != 3 && nd != 4 {
		return nil, c.Errorf("grad_output", "adaptive_avg_pool2d_backward(): Expected 3D or 4D tensor, but got %s", cvShapeString(g.Shape()))
	}
	gs, xs := g.Shape(), x.Shape()
	for i := 1; i < nd; i++ {
		if gs[i] <= 0 {
			return nil, c.Errorf("grad_output", "adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size for non-batch dimensions, but grad_output has sizes %s with dimension %d being empty", cvShapeString(gs), i)
		}
	}
	if x.Dim() != nd {
		return nil, c.Errorf("self", "adaptive_avg_pool2d_backward(): expected self of %d dimensions like grad_output, got %s", nd, cvShapeString(xs))
	}
	for i := 0; i < nd-2; i++ {
		if xs[i] != gs[i] {
			return nil, c.Errorf("grad_output", "adaptive_avg_pool2d_backward(): grad_output sizes %s do not match self sizes %s", cvShapeString(gs), cvShapeString(xs))
		}
	}
	if err := pxSameDType(c, g, x); err != nil {
		return nil, err
	}
	dt := x.DType()
	if meta(g, x) {
		return cvOne(empty(true, dt, xs))
	}
	if !pxFloatKernel(dt) {
		return nil, notImplemented(c, "self", "adaptive_avg_pool2d_backward_cpu", dt)
	}
	ih, iw, oh, ow := xs[nd-2], xs[nd-1], gs[nd-2], gs[nd-1]
	planes := cvProd(xs[:nd-2])
	gv := g.Float64s()
	res := make([]float64, cvProd(xs))
	r := rounder(dt)
	cvParallel(planes, planes*ih*iw, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			dst := res[pl*ih*iw : (pl+1)*ih*iw]
			for i := range oh {
				h0, h1 := cvAdaptiveStart(i, oh, ih), cvAdaptiveEnd(i, oh, ih)
				for j := range ow {
					w0, w1 := cvAdaptiveStart(j, ow, iw), cvAdaptiveEnd(j, ow, iw)
					delta := r(r(gv[(pl*oh+i)*ow+j]/float64(h1-h0)) / float64(w1-w0))
					for h := h0; h < h1; h++ {
						for w := w0; w < w1; w++ {
							dst[h*iw+w] = r(dst[h*iw+w] + delta)
						}
					}
				}
			}
		}
	})
	return cvOne(tensor.FromFloat64s(dt, res, xs...))
}

// pxPoolGeometry recomputes a 2-d pooling op's geometry with the forward
// kernel's argument checks, by a meta call of the forward op.
func pxPoolGeometry(c *ops.Call, x *tensor.Tensor, opName string, args []any) (*cvPool, error) {
	mx := x.Meta()
	out, err := pxCallOp(c, opName, append([]any{mx}, args...), nil)
	if err != nil {
		return nil, err
	}
	xs, os := x.Shape(), out[0].(*tensor.Tensor).Shape()
	nd := len(xs)
	return &cvPool{planes: cvProd(xs[:nd-2]), inH: xs[nd-2], inW: xs[nd-1], outH: os[nd-2], outW: os[nd-1], outShape: os}, nil
}

// pxAvgPool2dBackward is aten::avg_pool2d_backward: each output gradient
// divided as the forward divides its window sum, added to every input
// element of the window (clipped to the input).
func pxAvgPool2dBackward(c *ops.Call) ([]any, error) {
	g, x := c.Tensor("grad_output"), c.Tensor("self")
	ks, st, pd := c.Ints("kernel_size"), c.Ints("stride"), c.Ints("padding")
	ceil, countPad := c.Bool("ceil_mode"), c.Bool("count_include_pad")
	div, hasDiv := c.OptInt("divisor_override")
	var divArg any
	if hasDiv {
		divArg = div
	}
	p, err := pxPoolGeometry(c, x, "aten::avg_pool2d", []any{ks, st, pd, ceil, countPad, divArg})
	if err != nil {
		return nil, err
	}
	if err := pxSameDType(c, g, x); err != nil {
		return nil, err
	}
	if err := pxCheckGradShape(c, g, p.outShape); err != nil {
		return nil, err
	}
	dt := x.DType()
	xs := x.Shape()
	if meta(g, x) {
		return cvOne(empty(true, dt, xs))
	}
	if !pxFloatKernel(dt) && dt != tensor.Int64 {
		return nil, notImplemented(c, "self", "avg_pool2d_backward_out_frame", dt)
	}
	p.kH, p.kW = int(ks[0]), int(ks[len(ks)-1])
	p.sH, p.sW = p.kH, p.kW
	if len(st) > 0 {
		p.sH, p.sW = int(st[0]), int(st[len(st)-1])
	}
	p.pH, p.pW = int(pd[0]), int(pd[len(pd)-1])
	lin, lout := p.inH*p.inW, p.outH*p.outW
	// window visits each (plane, output) pair and gives the clipped window
	// and the divisor.
	window := func(oh, ow int) (h0, h1, w0, w1 int, d int64, ok bool) {
		h0, w0 = oh*p.sH-p.pH, ow*p.sW-p.pW
		h1 = min(h0+p.kH, p.inH+p.pH)
		w1 = min(w0+p.kW, p.inW+p.pW)
		size := (h1 - h0) * (w1 - w0)
		h0, w0 = max(h0, 0), max(w0, 0)
		h1, w1 = min(h1, p.inH), min(w1, p.inW)
		if h0 >= h1 || w0 >= w1 {
			return 0, 0, 0, 0, 0, false
		}
		switch {
		case hasDiv:
			d = div
		case countPad:
			d = int64(size)
		default:
			d = int64((h1 - h0) * (w1 - w0))
		}
		return h0, h1, w0, w1, d, true
	}
	if dt == tensor.Int64 {
		gv := g.Int64s()
		res := make([]int64, cvProd(xs))
		for pl := range p.planes {
			dst := res[pl*lin : (pl+1)*lin]
			for oh := range p.outH {
				for ow := range p.outW {
					h0, h1, w0, w1, d, ok := window(oh, ow)
					if !ok {
						continue
					}
					delta := gv[pl*lout+oh*p.outW+ow] / d
					for h := h0; h < h1; h++ {
						for w := w0; w < w1; w++ {
							dst[h*p.inW+w] += delta
						}
					}
				}
			}
		}
		return cvOne(tensor.FromInt64s(dt, res, xs...))
	}
	gv := g.Float64s()
	res := make([]float64, cvProd(xs))
	r := rounder(dt)
	cvParallel(p.planes, p.planes*lout*p.kH*p.kW, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			dst := res[pl*lin : (pl+1)*lin]
			for oh := range p.outH {
				for ow := range p.outW {
					h0, h1, w0, w1, d, ok := window(oh, ow)
					if !ok {
						continue
					}
					delta := r(gv[pl*lout+oh*p.outW+ow] / float64(d))
					for h := h0; h < h1; h++ {
						for w := w0; w < w1; w++ {
							dst[h*p.inW+w] = r(dst[h*p.inW+w] + delta)
						}
					}
				}
			}
		}
	})
	return cvOne(tensor.FromFloat64s(dt, res, xs...))
}

// pxMaxPool2dWithIndicesBackward is aten::max_pool2d_with_indices_backward:
// each output gradient added to the input element its index names (a flat
// offset in the H*W plane).
func pxMaxPool2dWithIndicesBackward(c *ops.Call) ([]any, error) {
	g, x, idx := c.Tensor("grad_output"), c.Tensor("self"), c.Tensor("indices")
	p, err := pxPoolGeometry(c, x, "aten::max_pool2d", []any{c.Ints("kernel_size"), c.Ints("stride"), c.Ints("padding"), c.Ints("dilation"), c.Bool("ceil_mode")})
	if err != nil {
		return nil, err
	}
	if err := pxSameDType(c, g, x); err != nil {
		return nil, err
	}
	if err := pxCheckGradShape(c, g, p.outShape); err != nil {
		return nil, err
	}
	if idx.DType() != tensor.Int64 {
		return nil, c.Errorf("indices", "expected indices of dtype Long, got %s", scalarTypeName(idx.DType()))
	}
	is := idx.Shape()
	if len(is) != len(p.outShape) {
		return nil, c.Errorf("indices", "expected indices of shape %s, got %s", cvShapeString(p.outShape), cvShapeString(is))
	}
	for i := range is {
		if is[i] != p.outShape[i] {
			return nil, c.Errorf("indices", "expected indices of shape %s, got %s", cvShapeString(p.outShape), cvShapeString(is))
		}
	}
	dt := x.DType()
	xs := x.Shape()
	if meta(g, x, idx) {
		return cvOne(empty(true, dt, xs))
	}
	if !pxFloatKernel(dt) {
		return nil, notImplemented(c, "self", "max_pool2d_backward", dt)
	}
	lin, lout := p.inH*p.inW, p.outH*p.outW
	iv := idx.Int64s()
	for _, i := range iv {
		if i < 0 || i >= int64(lin) {
			return nil, c.Errorf("indices", "index %d out of range for an input plane of %d elements", i, lin)
		}
	}
	gv := g.Float64s()
	res := make([]float64, cvProd(xs))
	r := rounder(dt)
	for pl := range p.planes {
		dst := res[pl*lin : (pl+1)*lin]
		for o := pl * lout; o < (pl+1)*lout; o++ {
			dst[iv[o]] = r(dst[iv[o]] + gv[o])
		}
	}
	return cvOne(tensor.FromFloat64s(dt, res, xs...))
}

// pxEmbeddingDenseBackward is aten::embedding_dense_backward: the gradient
// rows of every index (but padding_idx) summed into a [num_weights, D]
// gradient, each scaled by 1/count of its index when scale_grad_by_freq.
func pxEmbeddingDenseBackward(c *ops.Call) ([]any, error) {
	g, idx := c.Tensor("grad_output"), c.Tensor("indices")
	nw := c.Int("num_weights")
	pad := c.Int("padding_idx")
	scale := c.Bool("scale_grad_by_freq")
	if dt := idx.DType(); dt != tensor.Int64 && dt != tensor.Int32 {
		return nil, c.Errorf("indices", "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got %s instead (while checking arguments for embedding_backward)", scalarTypeName(dt))
	}
	if g.Dim() == 0 {
		return nil, c.Errorf("grad_output", "embedding_dense_backward: expected grad_output of at least one dimension, got a 0-d tensor")
	}
	if nw < 0 {
		return nil, c.Errorf("num_weights", "embedding_dense_backward: num_weights must be non-negative, got %d", nw)
	}
	dim := g.Size(-1)
	n := idx.Numel()
	if n*dim != g.Numel() {
		return nil, c.Errorf("grad_output", "embedding_dense_backward: grad_output of shape %s does not hold one row of %d for each of the %d indices", cvShapeString(g.Shape()), dim, n)
	}
	dt := g.DType()
	shape := []int{int(nw), dim}
	if meta(g, idx) {
		return cvOne(empty(true, dt, shape))
	}
	if !dt.IsFloat() {
		return nil, notImplemented(c, "grad_output", "embedding_dense_backward_cpu", dt)
	}
	iv := idx.Int64s()
	counts := make(map[int64]int)
	for _, i := range iv {
		if i != pad && (i < 0 || i >= nw) {
			return nil, c.Errorf("indices", "embedding_dense_backward: index %d is out of range for %d weights", i, nw)
		}
		counts[i]++
	}
	gv := g.Float64s()
	res := make([]float64, int(nw)*dim)
	r := rounder(dt)
	for i, k := range iv {
		if k == pad {
			continue
		}
		alpha := 1.0
		if scale {
			alpha = r(1 / float64(counts[k]))
		}
		row := res[int(k)*dim : int(k+1)*dim]
		for j, v := range gv[i*dim : (i+1)*dim] {
			row[j] = r(row[j] + r(alpha*v))
		}
	}
	return cvOne(tensor.FromFloat64s(dt, res, shape...))
}
