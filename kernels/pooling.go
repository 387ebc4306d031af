package kernels

import (
	"math"

	"github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Pooling, ATen's Pooling.cpp and the files it dispatches to
// (AveragePool2d/3d, AdaptiveAveragePooling, DilatedMaxPool2d/3d):
// max_pool2d (with and without indices), max_pool3d_with_indices,
// avg_pool1d/2d/3d, adaptive_avg_pool1d/2d/3d and the backward kernels of
// avg_pool2d, max_pool2d_with_indices and _adaptive_avg_pool2d. They
// compute as PyTorch 1.13's CPU kernels do: the same output sizes
// (ceil_mode included), the same window bounds, float32 sums for float32
// and bfloat16, and NaN winning max pooling; the 1-d kernels run the 2-d
// ones on an added dimension of size 1, as ATen's composites do. A
// backward kernel spreads each output gradient over the input elements its
// forward value came from, accumulated in the input's type (bfloat16
// rounds at every addition).

// registerPooling registers the kernels of pooling.go.
func registerPooling() {
	registerBoth("aten::_adaptive_avg_pool2d_backward", adaptiveAvgPool2dBackward)
	registerBoth("aten::avg_pool2d_backward", avgPool2dBackward)
	registerBoth("aten::max_pool2d_with_indices_backward", maxPool2dWithIndicesBackward)
	registerBoth("aten::max_pool2d", maxPool2d)
	registerBoth("aten::max_pool2d_with_indices", maxPool2dWithIndices)
	registerBoth("aten::avg_pool2d", avgPool2d)
	registerBoth("aten::adaptive_avg_pool2d", adaptiveAvgPool2d)
	registerBoth("aten::_adaptive_avg_pool2d", adaptiveAvgPool2dCore)
	registerBoth("aten::avg_pool1d", avgPool1d)
	registerBoth("aten::adaptive_avg_pool1d", adaptiveAvgPool1d)
	registerBoth("aten::avg_pool3d", avgPool3d)
	registerBoth("aten::_adaptive_avg_pool3d", adaptiveAvgPool3d)
	registerBoth("aten::max_pool3d_with_indices", maxPool3dWithIndices)
}

// gradSameDType checks that grad_output has the dtype of self.
func gradSameDType(c *ops.Call, g, x *tensor.Tensor) error {
	if g.DType() != x.DType() {
		return c.Errorf("grad_output", "expected dtype %s for `grad_output` but got dtype %s", x.DType(), g.DType())
	}
	return nil
}

// checkGradShape checks that grad_output has the forward's output shape.
func checkGradShape(c *ops.Call, g *tensor.Tensor, want []int) error {
	gs := g.Shape()
	if len(gs) != len(want) {
		return c.Errorf("grad_output", "expected grad_output of shape %s, got %s", shapeString(want), shapeString(gs))
	}
	for i := range gs {
		if gs[i] != want[i] {
			return c.Errorf("grad_output", "expected grad_output of shape %s, got %s", shapeString(want), shapeString(gs))
		}
	}
	return nil
}

// floatKernel reports whether dt is one of the float32, float64 and
// bfloat16 dtypes that ATen's pooling kernels take.
func floatKernel(dt tensor.DType) bool {
	return dt == tensor.Float32 || dt == tensor.Float64 || dt == tensor.BFloat16
}

// adaptiveAvgPool2dBackward is aten::_adaptive_avg_pool2d_backward:
// each output gradient divided by its window's height and width, added to
// every input element of the window.
func adaptiveAvgPool2dBackward(c *ops.Call) ([]any, error) {
	g, x := c.Tensor("grad_output"), c.Tensor("self")
	nd := g.Dim()
	if nd != 3 && nd != 4 {
		return nil, c.Errorf("grad_output", "adaptive_avg_pool2d_backward(): Expected 3D or 4D tensor, but got %s", shapeString(g.Shape()))
	}
	gs, xs := g.Shape(), x.Shape()
	for i := 1; i < nd; i++ {
		if gs[i] <= 0 {
			return nil, c.Errorf("grad_output", "adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size for non-batch dimensions, but grad_output has sizes %s with dimension %d being empty", shapeString(gs), i)
		}
	}
	if x.Dim() != nd {
		return nil, c.Errorf("self", "adaptive_avg_pool2d_backward(): expected self of %d dimensions like grad_output, got %s", nd, shapeString(xs))
	}
	for i := 0; i < nd-2; i++ {
		if xs[i] != gs[i] {
			return nil, c.Errorf("grad_output", "adaptive_avg_pool2d_backward(): grad_output sizes %s do not match self sizes %s", shapeString(gs), shapeString(xs))
		}
	}
	if err := gradSameDType(c, g, x); err != nil {
		return nil, err
	}
	dt := x.DType()
	if meta(g, x) {
		return oneOrErr(empty(true, dt, xs))
	}
	if !floatKernel(dt) {
		return nil, notImplemented(c, "self", "adaptive_avg_pool2d_backward_cpu", dt)
	}
	ih, iw, oh, ow := xs[nd-2], xs[nd-1], gs[nd-2], gs[nd-1]
	planes := product(xs[:nd-2])
	gv := g.Float64s()
	res := make([]float64, product(xs))
	r := rounder(dt)
	parallel(planes, planes*ih*iw, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			dst := res[pl*ih*iw : (pl+1)*ih*iw]
			for i := range oh {
				h0, h1 := adaptiveStart(i, oh, ih), adaptiveEnd(i, oh, ih)
				for j := range ow {
					w0, w1 := adaptiveStart(j, ow, iw), adaptiveEnd(j, ow, iw)
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
	return oneOrErr(tensor.FromFloat64s(dt, res, xs...))
}

// poolGeometry recomputes a 2-d pooling op's geometry with the forward
// kernel's argument checks, by a meta call of the forward op.
func poolGeometry(c *ops.Call, x *tensor.Tensor, opName string, args []any) (*pool, error) {
	mx := x.Meta()
	out, err := callOp(c, opName, append([]any{mx}, args...), nil)
	if err != nil {
		return nil, err
	}
	xs, os := x.Shape(), out[0].(*tensor.Tensor).Shape()
	nd := len(xs)
	return &pool{planes: product(xs[:nd-2]), inH: xs[nd-2], inW: xs[nd-1], outH: os[nd-2], outW: os[nd-1], outShape: os}, nil
}

// avgPool2dBackward is aten::avg_pool2d_backward: each output gradient
// divided as the forward divides its window sum, added to every input
// element of the window (clipped to the input).
func avgPool2dBackward(c *ops.Call) ([]any, error) {
	g, x := c.Tensor("grad_output"), c.Tensor("self")
	ks, st, pd := c.Ints("kernel_size"), c.Ints("stride"), c.Ints("padding")
	ceil, countPad := c.Bool("ceil_mode"), c.Bool("count_include_pad")
	div, hasDiv := c.OptInt("divisor_override")
	var divArg any
	if hasDiv {
		divArg = div
	}
	p, err := poolGeometry(c, x, "aten::avg_pool2d", []any{ks, st, pd, ceil, countPad, divArg})
	if err != nil {
		return nil, err
	}
	if err := gradSameDType(c, g, x); err != nil {
		return nil, err
	}
	if err := checkGradShape(c, g, p.outShape); err != nil {
		return nil, err
	}
	dt := x.DType()
	xs := x.Shape()
	if meta(g, x) {
		return oneOrErr(empty(true, dt, xs))
	}
	if !floatKernel(dt) && dt != tensor.Int64 {
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
		res := make([]int64, product(xs))
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
		return oneOrErr(tensor.FromInt64s(dt, res, xs...))
	}
	gv := g.Float64s()
	res := make([]float64, product(xs))
	r := rounder(dt)
	parallel(p.planes, p.planes*lout*p.kH*p.kW, func(lo, hi int) {
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
	return oneOrErr(tensor.FromFloat64s(dt, res, xs...))
}

// maxPool2dWithIndicesBackward is aten::max_pool2d_with_indices_backward:
// each output gradient added to the input element its index names (a flat
// offset in the H*W plane).
func maxPool2dWithIndicesBackward(c *ops.Call) ([]any, error) {
	g, x, idx := c.Tensor("grad_output"), c.Tensor("self"), c.Tensor("indices")
	p, err := poolGeometry(c, x, "aten::max_pool2d", []any{c.Ints("kernel_size"), c.Ints("stride"), c.Ints("padding"), c.Ints("dilation"), c.Bool("ceil_mode")})
	if err != nil {
		return nil, err
	}
	if err := gradSameDType(c, g, x); err != nil {
		return nil, err
	}
	if err := checkGradShape(c, g, p.outShape); err != nil {
		return nil, err
	}
	if idx.DType() != tensor.Int64 {
		return nil, c.Errorf("indices", "expected indices of dtype Long, got %s", scalarTypeName(idx.DType()))
	}
	is := idx.Shape()
	if len(is) != len(p.outShape) {
		return nil, c.Errorf("indices", "expected indices of shape %s, got %s", shapeString(p.outShape), shapeString(is))
	}
	for i := range is {
		if is[i] != p.outShape[i] {
			return nil, c.Errorf("indices", "expected indices of shape %s, got %s", shapeString(p.outShape), shapeString(is))
		}
	}
	dt := x.DType()
	xs := x.Shape()
	if meta(g, x, idx) {
		return oneOrErr(empty(true, dt, xs))
	}
	if !floatKernel(dt) {
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
	res := make([]float64, product(xs))
	r := rounder(dt)
	for pl := range p.planes {
		dst := res[pl*lin : (pl+1)*lin]
		for o := pl * lout; o < (pl+1)*lout; o++ {
			dst[iv[o]] = r(dst[iv[o]] + gv[o])
		}
	}
	return oneOrErr(tensor.FromFloat64s(dt, res, xs...))
}

// pool is a 2-d pooling geometry over planes of size [inH, inW].
type pool struct {
	planes     int // product of the leading (batch, channel) sizes
	inH, inW   int
	outH, outW int
	kH, kW     int // kernel
	sH, sW     int // stride
	pH, pW     int // padding
	dH, dW     int // dilation
	outShape   []int
	ceil       bool
	countPad   bool  // avg_pool2d's count_include_pad
	divisor    int64 // avg_pool2d's divisor_override, when hasDivisor
	hasDivisor bool
}

// floorDivInt returns ⌊a/b⌋ for b != 0, as ATen's div_rtn.
func floorDivInt(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// poolOutSize is ATen's pooling_output_shape with its checks: the
// number of windows along a dimension of size in; with ceil the last
// window must start inside the input or the left padding.
func poolOutSize(c *ops.Call, in, k, pad, stride, dil int, ceil bool) (int, error) {
	if stride == 0 {
		return 0, c.Errorf("stride", "stride should not be zero")
	}
	if pad < 0 {
		return 0, c.Errorf("padding", "pad must be non-negative, but got pad: %d", pad)
	}
	if pad > k/2 {
		return 0, c.Errorf("padding", "pad should be at most half of kernel size, but got pad=%d and kernel_size=%d", pad, k)
	}
	extra := 0
	if ceil {
		extra = stride - 1
	}
	out := floorDivInt(in+2*pad-dil*(k-1)-1+extra, stride) + 1
	if ceil && (out-1)*stride >= in+pad {
		out--
	}
	return out, nil
}

// poolArgs reads and checks the arguments of max_pool2d (withDilation)
// or avg_pool2d (name is the op's name in messages) and computes the
// output geometry.
func poolArgs(c *ops.Call, name string, withDilation bool) (*pool, error) {
	x := c.Tensor("self")
	ks, st, pd := c.Ints("kernel_size"), c.Ints("stride"), c.Ints("padding")
	if len(ks) != 1 && len(ks) != 2 {
		return nil, c.Errorf("kernel_size", "%s: kernel_size must either be a single int, or a tuple of two ints", name)
	}
	p := &pool{}
	p.kH = int(ks[0])
	p.kW = int(ks[len(ks)-1])
	if len(st) > 2 {
		return nil, c.Errorf("stride", "%s: stride must either be omitted, a single int, or a tuple of two ints", name)
	}
	switch len(st) {
	case 0:
		p.sH, p.sW = p.kH, p.kW
	default:
		p.sH, p.sW = int(st[0]), int(st[len(st)-1])
	}
	if len(pd) != 1 && len(pd) != 2 {
		return nil, c.Errorf("padding", "%s: padding must either be a single int, or a tuple of two ints", name)
	}
	p.pH, p.pW = int(pd[0]), int(pd[len(pd)-1])
	p.dH, p.dW = 1, 1
	if withDilation {
		dl := c.Ints("dilation")
		if len(dl) != 1 && len(dl) != 2 {
			return nil, c.Errorf("dilation", "%s: dilation must be either a single int, or a tuple of two ints", name)
		}
		p.dH, p.dW = int(dl[0]), int(dl[len(dl)-1])
	}
	p.ceil = c.Bool("ceil_mode")
	nd := x.Dim()
	if nd != 3 && nd != 4 {
		return nil, c.Errorf("self", "non-empty 3D or 4D (batch mode) tensor expected for input, got %d-D", nd)
	}
	xs := x.Shape()
	p.inH, p.inW = xs[nd-2], xs[nd-1]
	var err error
	if p.outH, err = poolOutSize(c, p.inH, p.kH, p.pH, p.sH, p.dH, p.ceil); err != nil {
		return nil, err
	}
	if p.outW, err = poolOutSize(c, p.inW, p.kW, p.pW, p.sW, p.dW, p.ceil); err != nil {
		return nil, err
	}
	switch {
	case p.kH <= 0 || p.kW <= 0:
		return nil, c.Errorf("kernel_size", "kernel size should be greater than zero, but got kH: %d kW: %d", p.kH, p.kW)
	case p.sH <= 0 || p.sW <= 0:
		return nil, c.Errorf("stride", "stride should be greater than zero, but got dH: %d dW: %d", p.sH, p.sW)
	case p.dH <= 0 || p.dW <= 0:
		return nil, c.Errorf("dilation", "dilation should be greater than zero, but got dilationH: %d dilationW: %d", p.dH, p.dW)
	}
	valid := xs[1] != 0 && xs[2] != 0 && (nd == 3 && xs[0] != 0 || nd == 4 && xs[3] != 0)
	if !valid {
		return nil, c.Errorf("self", "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:%s", shapeString(xs))
	}
	if p.outH < 1 || p.outW < 1 {
		return nil, c.Errorf("self", "Given input size: (%dx%dx%d). Calculated output size: (%dx%dx%d). Output size is too small",
			xs[nd-3], p.inH, p.inW, xs[nd-3], p.outH, p.outW)
	}
	p.outShape = append(xs[:nd-2:nd-2], p.outH, p.outW)
	p.planes = product(xs[:nd-2])
	return p, nil
}

// maxPool2d is aten::max_pool2d: the values of max_pool2d_with_indices.
func maxPool2d(c *ops.Call) ([]any, error) {
	out, _, err := maxPool(c, false)
	if err != nil {
		return nil, err
	}
	return one(out), nil
}

// maxPool2dWithIndices is aten::max_pool2d_with_indices: the maximum of
// each window, and its flat offset in the input's H*W plane. NaN wins;
// among equal values the first in row-major window order wins, and a later
// NaN replaces an earlier one, as in PyTorch's loop.
func maxPool2dWithIndices(c *ops.Call) ([]any, error) {
	out, idx, err := maxPool(c, true)
	if err != nil {
		return nil, err
	}
	return []any{out, idx}, nil
}

// maxPool computes max pooling and, when withIdx, the indices (nil
// otherwise).
func maxPool(c *ops.Call, withIdx bool) (*tensor.Tensor, *tensor.Tensor, error) {
	x := c.Tensor("self")
	p, err := poolArgs(c, "max_pool2d", true)
	if err != nil {
		return nil, nil, err
	}
	dt := x.DType()
	if meta(x) {
		return tensor.Must(empty(true, dt, p.outShape)), tensor.Must(empty(true, tensor.Int64, p.outShape)), nil
	}
	if dt != tensor.Float32 && dt != tensor.Float64 && dt != tensor.BFloat16 {
		return nil, nil, notImplemented(c, "self", "max_pool2d", dt)
	}
	var idx *tensor.Tensor
	var iv []int64
	if withIdx {
		idx = tensor.EmptyUninit(tensor.Int64, p.outShape...)
		iv = tensor.Data[int64](idx)
	}
	var out *tensor.Tensor
	if dt == tensor.Float64 {
		out = tensor.EmptyUninit(dt, p.outShape...)
		maxPoolPlanes(p, tensor.Values[float64](x), tensor.Data[float64](out), iv, vec.MaxFoldArg64, vec.MaxFold3Arg64)
	} else {
		out = tensor.EmptyUninit(tensor.Float32, p.outShape...)
		maxPoolPlanes(p, tensor.Values[float32](to(x, tensor.Float32)), tensor.Data[float32](out), iv, vec.MaxFoldArg32, vec.MaxFold3Arg32)
		out = to(out, dt)
	}
	return out, idx, nil
}

// avgPool2d is aten::avg_pool2d: window sums divided by divisor_override,
// or by the window size clipped to the padded input (count_include_pad) or
// to the input. float32 and bfloat16 sum in float32 as PyTorch does;
// int64 sums in int64 and divides truncating.
func avgPool2d(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	div, hasDiv := c.OptInt("divisor_override")
	if hasDiv && div == 0 {
		return nil, c.Errorf("divisor_override", "divisor must be not zero")
	}
	p, err := poolArgs(c, "avg_pool2d", false)
	if err != nil {
		return nil, err
	}
	p.countPad, p.divisor, p.hasDivisor = c.Bool("count_include_pad"), div, hasDiv
	dt := x.DType()
	if meta(x) {
		return oneOrErr(empty(true, dt, p.outShape))
	}
	switch dt {
	case tensor.Float64:
		out := tensor.EmptyUninit(dt, p.outShape...)
		avgPoolPlanes(p, tensor.Values[float64](x), tensor.Data[float64](out))
		return one(out), nil
	case tensor.Float32, tensor.BFloat16:
		out := tensor.EmptyUninit(tensor.Float32, p.outShape...)
		avgPoolPlanes(p, tensor.Values[float32](to(x, tensor.Float32)), tensor.Data[float32](out))
		return one(to(out, dt)), nil
	case tensor.Int64:
		out := tensor.EmptyUninit(dt, p.outShape...)
		avgPoolRun(p, tensor.Values[int64](x), tensor.Data[int64](out))
		return one(out), nil
	}
	return nil, notImplemented(c, "self", "avg_pool2d", dt)
}

// avgPoolRun is average pooling over every plane of x, one window at a
// time (the int64 kernel; float planes take avgPoolPlanes).
func avgPoolRun[T float32 | float64 | int64](p *pool, x, out []T) {
	lin, lout := p.inH*p.inW, p.outH*p.outW
	parallel(p.planes, p.planes*lout*p.kH*p.kW, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := x[pl*lin : (pl+1)*lin]
			o := pl * lout
			for oh := range p.outH {
				for ow := range p.outW {
					out[o] = avgPoolAt(p, src, oh, ow)
					o++
				}
			}
		}
	})
}

// adaptiveAvgPool2d is aten::adaptive_avg_pool2d: for output size 1x1 a
// mean over the last two dimensions (of input of any rank, float16
// included, as PyTorch's shortcut), and otherwise _adaptive_avg_pool2d.
func adaptiveAvgPool2d(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	os := c.Ints("output_size")
	if len(os) != 2 {
		return nil, c.Errorf("output_size", "adaptive_avg_pool2d: output_size must be 2")
	}
	if os[0] < 0 || os[1] < 0 {
		return nil, c.Errorf("output_size", "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {%d, %d}", os[0], os[1])
	}
	if os[0] != 1 || os[1] != 1 {
		return adaptiveAvgPool2dCore(c)
	}
	nd := x.Dim()
	if nd < 2 {
		return nil, c.Errorf("self", "Dimension out of range (expected to be in range of [%d, %d], but got -2)", -max(nd, 1), max(nd, 1)-1)
	}
	dt := x.DType()
	if !dt.IsFloat() {
		return nil, c.Errorf("self", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %s", scalarTypeName(dt))
	}
	xs := x.Shape()
	shape := append(xs[:nd-2:nd-2], 1, 1)
	if meta(x) {
		return oneOrErr(empty(true, dt, shape))
	}
	n := xs[nd-2] * xs[nd-1]
	planes := product(xs[:nd-2])
	switch dt {
	case tensor.Float32:
		out := tensor.EmptyUninit(dt, shape...)
		globalAvg(tensor.Values[float32](x), tensor.Data[float32](out), n)
		return one(out), nil
	case tensor.Float64:
		out := tensor.EmptyUninit(dt, shape...)
		globalAvg(tensor.Values[float64](x), tensor.Data[float64](out), n)
		return one(out), nil
	}
	vals := x.Float64s()
	res := make([]float64, planes)
	for pl := range res {
		var s float64
		for _, v := range vals[pl*n : (pl+1)*n] {
			s += v
		}
		res[pl] = s / float64(n)
	}
	return oneOrErr(tensor.FromFloat64s(dt, res, shape...))
}

// globalAvg sets out[p] to the mean of x's plane p of n elements as
// mean.dim computes it (the float64 sum rounded to the element type, then
// divided): float32 sums in four interleaved float64 sums (sum4),
// float64 with compensation (sumF64).
func globalAvg[T float32 | float64](x, out []T, n int) {
	parallel(len(out), len(x), func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			row := x[pl*n : (pl+1)*n]
			if r, ok := any(row).([]float64); ok {
				out[pl] = T(sumF64(r) / float64(n))
			} else {
				out[pl] = T(float64(T(sum4(row))) / float64(n))
			}
		}
	})
}

// adaptiveAvgPool2dCore is aten::_adaptive_avg_pool2d: output cell
// (i, j) averages input rows ⌊i*H/oh⌋ to ⌈(i+1)*H/oh⌉ (exclusive), the
// bounds computed in float32 as PyTorch does, and likewise for columns.
func adaptiveAvgPool2dCore(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	os := c.Ints("output_size")
	if len(os) != 2 {
		return nil, c.Errorf("output_size", "adaptive_avg_pool2d: output_size must be 2")
	}
	if os[0] < 0 || os[1] < 0 {
		return nil, c.Errorf("output_size", "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {%d, %d}", os[0], os[1])
	}
	nd := x.Dim()
	xs := x.Shape()
	if nd >= 2 {
		for _, d := range []int{nd - 2, nd - 1} {
			if xs[d] <= 0 {
				return nil, c.Errorf("self", "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes %s with dimension %d being empty",
					shapeString(xs), d)
			}
		}
	}
	if nd != 3 && nd != 4 {
		return nil, c.Errorf("self", "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got %s", shapeString(xs))
	}
	oh, ow := int(os[0]), int(os[1])
	shape := append(xs[:nd-2:nd-2], oh, ow)
	dt := x.DType()
	if meta(x) {
		return oneOrErr(empty(true, dt, shape))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 && dt != tensor.BFloat16 {
		return nil, notImplemented(c, "self", "adaptive_avg_pool2d", dt)
	}
	p := &pool{planes: product(xs[:nd-2]), inH: xs[nd-2], inW: xs[nd-1], outH: oh, outW: ow}
	if dt == tensor.Float64 {
		out := tensor.EmptyUninit(dt, shape...)
		adaptiveRun(p, tensor.Values[float64](x), tensor.Data[float64](out))
		return one(out), nil
	}
	out := tensor.EmptyUninit(tensor.Float32, shape...)
	adaptiveRun(p, tensor.Values[float32](to(x, tensor.Float32)), tensor.Data[float32](out))
	return one(to(out, dt)), nil
}

// adaptiveStart is ATen's adaptive pooling start_index: ⌊a*c/b⌋ with
// the division in float32.
func adaptiveStart(a, b, c int) int {
	return int(math.Floor(float64(float32(a*c) / float32(b))))
}

// adaptiveEnd is ATen's end_index: ⌈(a+1)*c/b⌉ with the division in
// float32.
func adaptiveEnd(a, b, c int) int {
	return int(math.Ceil(float64(float32((a+1)*c) / float32(b))))
}

// adaptiveWindows returns the adaptive windows [start, end) of every
// output index along a dimension of in elements pooled to out.
func adaptiveWindows(out, in int) (start, end []int) {
	start, end = make([]int, out), make([]int, out)
	for o := range out {
		start[o], end[o] = adaptiveStart(o, out, in), adaptiveEnd(o, out, in)
	}
	return start, end
}

// adaptiveRun is adaptive average pooling over every plane of x: each
// window summed row by row in T from zero and divided by its height, then
// its width (adaptiveAvgPlanes).
func adaptiveRun[T float32 | float64](p *pool, x, out []T) {
	hs, he := adaptiveWindows(p.outH, p.inH)
	ws, we := adaptiveWindows(p.outW, p.inW)
	parallel(p.planes, p.planes*p.inH*p.inW, func(lo, hi int) {
		adaptiveAvgPlanes(p, x, out, lo, hi, hs, he, ws, we)
	})
}

// check1d is ATen's check1d: an int[1] argument must hold one int.
func check1d(c *ops.Call, fn, arg string, v []int64) error {
	if len(v) != 1 {
		return c.Errorf(arg, "%s() argument '%s' should contain one int (got %d)", fn, arg, len(v))
	}
	return nil
}

// avgPool1d is aten::avg_pool1d: avg_pool2d over self.unsqueeze(-2) with
// a 1-row window, squeezed back.
func avgPool1d(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	ks, st, pd := c.Ints("kernel_size"), c.Ints("stride"), c.Ints("padding")
	if len(st) == 0 {
		st = ks
	}
	if x.Dim() < 2 || x.Dim() > 3 {
		return nil, c.Errorf("self", "avg_pool1d: Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while checking arguments for avg_pool1d)", x.Dim())
	}
	for _, a := range []struct {
		n string
		v []int64
	}{{"kernel_size", ks}, {"stride", st}, {"padding", pd}} {
		if err := check1d(c, "avg_pool1d", a.n, a.v); err != nil {
			return nil, err
		}
	}
	xu := tensor.Must(x.Unsqueeze(-2))
	out, err := callOp(c, "aten::avg_pool2d", []any{xu, []int64{1, ks[0]}, []int64{1, st[0]}, []int64{0, pd[0]},
		c.Bool("ceil_mode"), c.Bool("count_include_pad")}, nil)
	if err != nil {
		return nil, err
	}
	return oneOrErr(out[0].(*tensor.Tensor).SqueezeDim(-2))
}

// adaptiveAvgPool1d is aten::adaptive_avg_pool1d: adaptive_avg_pool2d
// over self.unsqueeze(-2) to [1, output_size], squeezed back.
func adaptiveAvgPool1d(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	os := c.Ints("output_size")
	if x.Dim() < 2 || x.Dim() > 3 {
		return nil, c.Errorf("self", "adaptive_avg_pool1d: Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while checking arguments for adaptive_avg_pool1d)", x.Dim())
	}
	if err := check1d(c, "adaptive_avg_pool1d", "output_size", os); err != nil {
		return nil, err
	}
	xu := tensor.Must(x.Unsqueeze(-2))
	out, err := callOp(c, "aten::adaptive_avg_pool2d", []any{xu, []int64{1, os[0]}}, nil)
	if err != nil {
		return nil, err
	}
	return oneOrErr(out[0].(*tensor.Tensor).SqueezeDim(-2))
}

// pool3 is a 3-d pooling geometry over volumes [in[0], in[1], in[2]].
type pool3 struct {
	planes   int
	in, out  [3]int
	k, s     [3]int
	p, d     [3]int
	outShape []int
}

// expand3 reads an int[3] pooling argument: one value for all three
// dimensions or three values; empty gives def (when def is non-nil).
func expand3(c *ops.Call, fn, arg string, v []int64, def *[3]int, what string) ([3]int, error) {
	switch {
	case len(v) == 0 && def != nil:
		return *def, nil
	case len(v) == 1:
		return [3]int{int(v[0]), int(v[0]), int(v[0])}, nil
	case len(v) == 3:
		return [3]int{int(v[0]), int(v[1]), int(v[2])}, nil
	}
	return [3]int{}, c.Errorf(arg, "%s: %s must be %s", fn, arg, what)
}

// pool3Args reads the kernel_size, stride, padding (and dilation when
// withDilation) of a 3-d pooling op fn and checks them and self as ATen's
// pool3d_shape_check does.
func pool3Args(c *ops.Call, fn string, withDilation, checkInput bool) (*pool3, error) {
	x := c.Tensor("self")
	p := &pool3{}
	var err error
	if p.k, err = expand3(c, fn, "kernel_size", c.Ints("kernel_size"), nil, "a single int, or a tuple of three ints"); err != nil {
		return nil, err
	}
	if p.s, err = expand3(c, fn, "stride", c.Ints("stride"), &p.k, "omitted, a single int, or a tuple of three ints"); err != nil {
		return nil, err
	}
	if p.p, err = expand3(c, fn, "padding", c.Ints("padding"), nil, "a single int, or a tuple of three ints"); err != nil {
		return nil, err
	}
	p.d = [3]int{1, 1, 1}
	if withDilation {
		if p.d, err = expand3(c, fn, "dilation", c.Ints("dilation"), nil, "a single int, or a tuple of three ints"); err != nil {
			return nil, err
		}
	}
	nd := x.Dim()
	if nd != 4 && nd != 5 {
		return nil, c.Errorf("self", "non-empty 4D or 5D (batch mode) tensor expected for input")
	}
	xs := x.Shape()
	ceil := c.Bool("ceil_mode")
	for i := range 3 {
		p.in[i] = xs[nd-3+i]
		if p.out[i], err = poolOutSize(c, p.in[i], p.k[i], p.p[i], p.s[i], p.d[i], ceil); err != nil {
			return nil, err
		}
	}
	switch {
	case p.k[0] <= 0 || p.k[1] <= 0 || p.k[2] <= 0:
		return nil, c.Errorf("kernel_size", "kernel size should be greater than zero, but got kT: %d kH: %d kW: %d", p.k[0], p.k[1], p.k[2])
	case p.s[0] <= 0 || p.s[1] <= 0 || p.s[2] <= 0:
		return nil, c.Errorf("stride", "stride should be greater than zero, but got dT: %d dH: %d dW: %d", p.s[0], p.s[1], p.s[2])
	case p.d[0] <= 0 || p.d[1] <= 0 || p.d[2] <= 0:
		return nil, c.Errorf("dilation", "dilation should be greater than zero, but got dilationT: %d dilationH: %d dilationW: %d", p.d[0], p.d[1], p.d[2])
	}
	for i := 1; i < nd; i++ {
		if xs[i] == 0 {
			return nil, c.Errorf("self", "%s: Expected input's non-batch dimensions to have positive length, but input has a shape of %s and non-batch dimension %d has length zero!", fn, shapeString(xs), i)
		}
	}
	if checkInput && (p.in[0] < p.k[0] || p.in[1] < p.k[1] || p.in[2] < p.k[2]) {
		return nil, c.Errorf("self", "input image (T: %d H: %d W: %d) smaller than kernel size (kT: %d kH: %d kW: %d)",
			p.in[0], p.in[1], p.in[2], p.k[0], p.k[1], p.k[2])
	}
	if p.out[0] < 1 || p.out[1] < 1 || p.out[2] < 1 {
		return nil, c.Errorf("self", "Given input size: (%dx%dx%dx%d). Calculated output size: (%dx%dx%dx%d). Output size is too small",
			xs[nd-4], p.in[0], p.in[1], p.in[2], xs[nd-4], p.out[0], p.out[1], p.out[2])
	}
	p.outShape = append(xs[:nd-3:nd-3], p.out[0], p.out[1], p.out[2])
	p.planes = product(xs[:nd-3])
	return p, nil
}

// avgPool3d is aten::avg_pool3d: as avg_pool2d in three dimensions;
// float32 sums in float32, int64 in int64 with a truncating division.
func avgPool3d(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	p, err := pool3Args(c, "avg_pool3d", false, true)
	if err != nil {
		return nil, err
	}
	div, hasDiv := c.OptInt("divisor_override")
	if hasDiv && div == 0 {
		return nil, c.Errorf("divisor_override", "divisor must be not zero")
	}
	dt := x.DType()
	if meta(x) {
		return oneOrErr(empty(true, dt, p.outShape))
	}
	countPad := c.Bool("count_include_pad")
	switch dt {
	case tensor.Float64:
		out := tensor.Empty(dt, p.outShape...)
		avgPool3Run(p, tensor.Values[float64](x), tensor.Data[float64](out), countPad, div, hasDiv)
		return one(out), nil
	case tensor.Float32:
		out := tensor.Empty(dt, p.outShape...)
		avgPool3Run(p, tensor.Values[float32](x), tensor.Data[float32](out), countPad, div, hasDiv)
		return one(out), nil
	case tensor.Int64:
		out := tensor.Empty(dt, p.outShape...)
		avgPool3Run(p, tensor.Values[int64](x), tensor.Data[int64](out), countPad, div, hasDiv)
		return one(out), nil
	}
	return nil, notImplemented(c, "self", "avg_pool3d_out_frame", dt)
}

// avgPool3Run is 3-d average pooling over every volume of x.
func avgPool3Run[T float32 | float64 | int64](p *pool3, x, out []T, countPad bool, divisor int64, hasDiv bool) {
	lin := p.in[0] * p.in[1] * p.in[2]
	lout := p.out[0] * p.out[1] * p.out[2]
	parallel(p.planes, p.planes*lout*p.k[0]*p.k[1]*p.k[2], func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := x[pl*lin : (pl+1)*lin]
			o := pl * lout
			for ot := range p.out[0] {
				for oh := range p.out[1] {
					for ow := range p.out[2] {
						var a, b [3]int
						pos := [3]int{ot, oh, ow}
						size := 1
						for i := range 3 {
							a[i] = pos[i]*p.s[i] - p.p[i]
							b[i] = min(a[i]+p.k[i], p.in[i]+p.p[i])
							size *= b[i] - a[i]
							a[i], b[i] = max(a[i], 0), min(b[i], p.in[i])
						}
						if a[0] >= b[0] || a[1] >= b[1] || a[2] >= b[2] {
							out[o] = 0
							o++
							continue
						}
						div := int64((b[0] - a[0]) * (b[1] - a[1]) * (b[2] - a[2]))
						switch {
						case hasDiv:
							div = divisor
						case countPad:
							div = int64(size)
						}
						var sum T
						for t := a[0]; t < b[0]; t++ {
							for h := a[1]; h < b[1]; h++ {
								row := (t*p.in[1] + h) * p.in[2]
								for _, v := range src[row+a[2] : row+b[2]] {
									sum += v
								}
							}
						}
						out[o] = sum / T(div)
						o++
					}
				}
			}
		}
	})
}

// maxPool3dWithIndices is aten::max_pool3d_with_indices: window maxima
// and their flat offsets in each T*H*W volume; NaN wins, the first of
// equal values wins.
func maxPool3dWithIndices(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	p, err := pool3Args(c, "max_pool3d", true, false)
	if err != nil {
		return nil, err
	}
	dt := x.DType()
	if meta(x) {
		return []any{tensor.Must(empty(true, dt, p.outShape)), tensor.Must(empty(true, tensor.Int64, p.outShape))}, nil
	}
	idx := tensor.Empty(tensor.Int64, p.outShape...)
	out := tensor.Empty(dt, p.outShape...)
	switch dt {
	case tensor.Float64:
		maxPool3Run(p, tensor.Values[float64](x), tensor.Data[float64](out), tensor.Data[int64](idx))
	case tensor.Float32:
		maxPool3Run(p, tensor.Values[float32](x), tensor.Data[float32](out), tensor.Data[int64](idx))
	default:
		return nil, notImplemented(c, "self", "max_pool3d_with_indices_cpu", dt)
	}
	return []any{out, idx}, nil
}

// maxPool3Run is 3-d max pooling over every volume of x.
func maxPool3Run[T float32 | float64](p *pool3, x, out []T, idx []int64) {
	lin := p.in[0] * p.in[1] * p.in[2]
	lout := p.out[0] * p.out[1] * p.out[2]
	parallel(p.planes, p.planes*lout*p.k[0]*p.k[1]*p.k[2], func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := x[pl*lin : (pl+1)*lin]
			o := pl * lout
			for ot := range p.out[0] {
				for oh := range p.out[1] {
					for ow := range p.out[2] {
						var a, b [3]int
						pos := [3]int{ot, oh, ow}
						for i := range 3 {
							a[i] = pos[i]*p.s[i] - p.p[i]
							b[i] = min(a[i]+(p.k[i]-1)*p.d[i]+1, p.in[i])
							for a[i] < 0 {
								a[i] += p.d[i]
							}
						}
						best := (a[0]*p.in[1]+a[1])*p.in[2] + a[2]
						m := T(math.Inf(-1))
						for t := a[0]; t < b[0]; t += p.d[0] {
							for h := a[1]; h < b[1]; h += p.d[1] {
								for w := a[2]; w < b[2]; w += p.d[2] {
									i := (t*p.in[1]+h)*p.in[2] + w
									if v := src[i]; v > m || v != v {
										m, best = v, i
									}
								}
							}
						}
						out[o], idx[o] = m, int64(best)
						o++
					}
				}
			}
		}
	})
}

// adaptiveAvgPool3d is aten::_adaptive_avg_pool3d: cell (t, h, w)
// averages the input ranges [⌊t*T/ot⌋, ⌈(t+1)*T/ot⌉) (bounds in float32)
// and so on. The sum and the three divisions are in the input's type
// (float16 rounds at every step, as ATen's scalar_t loop).
func adaptiveAvgPool3d(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	os := c.Ints("output_size")
	if len(os) != 3 {
		return nil, c.Errorf("output_size", "adaptive_avg_pool3d: output_size must be 3")
	}
	xs := x.Shape()
	nd := x.Dim()
	for i := 1; i < nd; i++ {
		if xs[i] <= 0 {
			return nil, c.Errorf("self", "adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes %s with dimension %d being empty", shapeString(xs), i)
		}
	}
	if nd != 4 && nd != 5 {
		return nil, c.Errorf("self", "adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got %s", shapeString(xs))
	}
	for _, v := range os {
		if v < 0 {
			return nil, c.Errorf("output_size", "adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but received %v", os)
		}
	}
	shape := append(xs[:nd-3:nd-3], int(os[0]), int(os[1]), int(os[2]))
	dt := x.DType()
	if meta(x) {
		return oneOrErr(empty(true, dt, shape))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 && dt != tensor.Float16 {
		return nil, notImplemented(c, "self", "adaptive_avg_pool3d_cpu", dt)
	}
	p := &pool3{planes: product(xs[:nd-3])}
	for i := range 3 {
		p.in[i], p.out[i] = xs[nd-3+i], int(os[i])
	}
	vals := x.Float64s()
	res := make([]float64, product(shape))
	r := rounder(dt)
	lin := p.in[0] * p.in[1] * p.in[2]
	lout := p.out[0] * p.out[1] * p.out[2]
	parallel(p.planes, p.planes*lin, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := vals[pl*lin : (pl+1)*lin]
			o := pl * lout
			for ot := range p.out[0] {
				t0, t1 := adaptiveStart(ot, p.out[0], p.in[0]), adaptiveEnd(ot, p.out[0], p.in[0])
				for oh := range p.out[1] {
					h0, h1 := adaptiveStart(oh, p.out[1], p.in[1]), adaptiveEnd(oh, p.out[1], p.in[1])
					for ow := range p.out[2] {
						w0, w1 := adaptiveStart(ow, p.out[2], p.in[2]), adaptiveEnd(ow, p.out[2], p.in[2])
						var sum float64
						for t := t0; t < t1; t++ {
							for h := h0; h < h1; h++ {
								row := (t*p.in[1] + h) * p.in[2]
								for _, v := range src[row+w0 : row+w1] {
									sum = r(sum + v)
								}
							}
						}
						res[o] = r(r(r(sum/float64(t1-t0))/float64(h1-h0)) / float64(w1-w0))
						o++
					}
				}
			}
		}
	})
	return oneOrErr(tensor.FromFloat64s(dt, res, shape...))
}
