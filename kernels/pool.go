package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Pooling and resampling: max_pool2d (with and without indices),
// avg_pool2d, adaptive_avg_pool2d and upsample_nearest2d, over the last two
// dimensions of 3-d (unbatched) or 4-d input, as PyTorch 1.13's CPU
// kernels compute them: the same output sizes (ceil_mode included), the
// same window bounds, float32 sums for float32 and bfloat16, and NaN
// winning max pooling.

func registerPool() {
	registerBoth("aten::max_pool2d", cvMaxPool2d)
	registerBoth("aten::max_pool2d_with_indices", cvMaxPool2dWithIndices)
	registerBoth("aten::avg_pool2d", cvAvgPool2d)
	registerBoth("aten::adaptive_avg_pool2d", cvAdaptiveAvgPool2d)
	registerBoth("aten::_adaptive_avg_pool2d", cvAdaptiveAvgPool2dCore)
	registerBoth("aten::upsample_nearest2d.vec", cvUpsampleNearest2dVec)
	registerBoth("aten::upsample_nearest2d", cvUpsampleNearest2d)
}

// cvPool is a 2-d pooling geometry over planes of size [inH, inW].
type cvPool struct {
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

// cvFloorDiv returns ⌊a/b⌋ for b != 0, as ATen's div_rtn.
func cvFloorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// cvPoolOutSize is ATen's pooling_output_shape with its checks: the
// number of windows along a dimension of size in; with ceil the last
// window must start inside the input or the left padding.
func cvPoolOutSize(c *ops.Call, in, k, pad, stride, dil int, ceil bool) (int, error) {
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
	out := cvFloorDiv(in+2*pad-dil*(k-1)-1+extra, stride) + 1
	if ceil && (out-1)*stride >= in+pad {
		out--
	}
	return out, nil
}

// cvPoolArgs reads and checks the arguments of max_pool2d (withDilation)
// or avg_pool2d (name is the op's name in messages) and computes the
// output geometry.
func cvPoolArgs(c *ops.Call, name string, withDilation bool) (*cvPool, error) {
	x := c.Tensor("self")
	ks, st, pd := c.Ints("kernel_size"), c.Ints("stride"), c.Ints("padding")
	if len(ks) != 1 && len(ks) != 2 {
		return nil, c.Errorf("kernel_size", "%s: kernel_size must either be a single int, or a tuple of two ints", name)
	}
	p := &cvPool{}
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
	if p.outH, err = cvPoolOutSize(c, p.inH, p.kH, p.pH, p.sH, p.dH, p.ceil); err != nil {
		return nil, err
	}
	if p.outW, err = cvPoolOutSize(c, p.inW, p.kW, p.pW, p.sW, p.dW, p.ceil); err != nil {
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
		return nil, c.Errorf("self", "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:%s", cvShapeString(xs))
	}
	if p.outH < 1 || p.outW < 1 {
		return nil, c.Errorf("self", "Given input size: (%dx%dx%d). Calculated output size: (%dx%dx%d). Output size is too small",
			xs[nd-3], p.inH, p.inW, xs[nd-3], p.outH, p.outW)
	}
	p.outShape = append(xs[:nd-2:nd-2], p.outH, p.outW)
	p.planes = cvProd(xs[:nd-2])
	return p, nil
}

// cvMaxPool2d is aten::max_pool2d: the values of max_pool2d_with_indices.
func cvMaxPool2d(c *ops.Call) ([]any, error) {
	out, _, err := cvMaxPool(c, false)
	if err != nil {
		return nil, err
	}
	return one(out), nil
}

// cvMaxPool2dWithIndices is aten::max_pool2d_with_indices: the maximum of
// each window, and its flat offset in the input's H*W plane. NaN wins;
// among equal values the first in row-major window order wins, and a later
// NaN replaces an earlier one, as in PyTorch's loop.
func cvMaxPool2dWithIndices(c *ops.Call) ([]any, error) {
	out, idx, err := cvMaxPool(c, true)
	if err != nil {
		return nil, err
	}
	return []any{out, idx}, nil
}

// cvMaxPool computes max pooling and, when withIdx, the indices.
func cvMaxPool(c *ops.Call, withIdx bool) (*tensor.Tensor, *tensor.Tensor, error) {
	x := c.Tensor("self")
	p, err := cvPoolArgs(c, "max_pool2d", true)
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
	idx := tensor.Empty(tensor.Int64, p.outShape...)
	iv := tensor.Data[int64](idx)
	var out *tensor.Tensor
	if dt == tensor.Float64 {
		out = tensor.Empty(dt, p.outShape...)
		cvMaxPoolRun(p, tensor.Values[float64](x), tensor.Data[float64](out), iv)
	} else {
		out = tensor.Empty(tensor.Float32, p.outShape...)
		cvMaxPoolRun(p, tensor.Values[float32](to(x, tensor.Float32)), tensor.Data[float32](out), iv)
		out = to(out, dt)
	}
	return out, idx, nil
}

// cvMaxPoolRun is max pooling over every plane of x.
func cvMaxPoolRun[T float32 | float64](p *cvPool, x, out []T, idx []int64) {
	lin, lout := p.inH*p.inW, p.outH*p.outW
	cvParallel(p.planes, p.planes*lout*p.kH*p.kW, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := x[pl*lin : (pl+1)*lin]
			o := pl * lout
			for oh := range p.outH {
				for ow := range p.outW {
					h0, w0 := oh*p.sH-p.pH, ow*p.sW-p.pW
					h1 := min(h0+(p.kH-1)*p.dH+1, p.inH)
					w1 := min(w0+(p.kW-1)*p.dW+1, p.inW)
					for h0 < 0 {
						h0 += p.dH
					}
					for w0 < 0 {
						w0 += p.dW
					}
					best := h0*p.inW + w0
					m := T(math.Inf(-1))
					for ih := h0; ih < h1; ih += p.dH {
						for iw := w0; iw < w1; iw += p.dW {
							i := ih*p.inW + iw
							v := src[i]
							if v > m || v != v {
								m, best = v, i
							}
						}
					}
					out[o], idx[o] = m, int64(best)
					o++
				}
			}
		}
	})
}

// cvAvgPool2d is aten::avg_pool2d: window sums divided by divisor_override,
// or by the window size clipped to the padded input (count_include_pad) or
// to the input. float32 and bfloat16 sum in float32 as PyTorch does;
// int64 sums in int64 and divides truncating.
func cvAvgPool2d(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	div, hasDiv := c.OptInt("divisor_override")
	if hasDiv && div == 0 {
		return nil, c.Errorf("divisor_override", "divisor must be not zero")
	}
	p, err := cvPoolArgs(c, "avg_pool2d", false)
	if err != nil {
		return nil, err
	}
	p.countPad, p.divisor, p.hasDivisor = c.Bool("count_include_pad"), div, hasDiv
	dt := x.DType()
	if meta(x) {
		return cvOne(empty(true, dt, p.outShape))
	}
	switch dt {
	case tensor.Float64:
		out := tensor.Empty(dt, p.outShape...)
		cvAvgPoolRun(p, tensor.Values[float64](x), tensor.Data[float64](out))
		return one(out), nil
	case tensor.Float32, tensor.BFloat16:
		out := tensor.Empty(tensor.Float32, p.outShape...)
		cvAvgPoolRun(p, tensor.Values[float32](to(x, tensor.Float32)), tensor.Data[float32](out))
		return one(to(out, dt)), nil
	case tensor.Int64:
		out := tensor.Empty(dt, p.outShape...)
		cvAvgPoolRun(p, tensor.Values[int64](x), tensor.Data[int64](out))
		return one(out), nil
	}
	return nil, notImplemented(c, "self", "avg_pool2d", dt)
}

// cvAvgPoolRun is average pooling over every plane of x.
func cvAvgPoolRun[T float32 | float64 | int64](p *cvPool, x, out []T) {
	lin, lout := p.inH*p.inW, p.outH*p.outW
	cvParallel(p.planes, p.planes*lout*p.kH*p.kW, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := x[pl*lin : (pl+1)*lin]
			o := pl * lout
			for oh := range p.outH {
				for ow := range p.outW {
					h0, w0 := oh*p.sH-p.pH, ow*p.sW-p.pW
					h1 := min(h0+p.kH, p.inH+p.pH)
					w1 := min(w0+p.kW, p.inW+p.pW)
					poolSize := (h1 - h0) * (w1 - w0)
					h0, w0 = max(h0, 0), max(w0, 0)
					h1, w1 = min(h1, p.inH), min(w1, p.inW)
					if h0 >= h1 || w0 >= w1 {
						out[o] = 0
						o++
						continue
					}
					var div int64
					switch {
					case p.hasDivisor:
						div = p.divisor
					case p.countPad:
						div = int64(poolSize)
					default:
						div = int64((h1 - h0) * (w1 - w0))
					}
					var sum T
					for ih := h0; ih < h1; ih++ {
						for _, v := range src[ih*p.inW+w0 : ih*p.inW+w1] {
							sum += v
						}
					}
					out[o] = sum / T(div)
					o++
				}
			}
		}
	})
}

// cvAdaptiveAvgPool2d is aten::adaptive_avg_pool2d: for output size 1x1 a
// mean over the last two dimensions (of input of any rank, float16
// included, as PyTorch's shortcut), and otherwise _adaptive_avg_pool2d.
func cvAdaptiveAvgPool2d(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	os := c.Ints("output_size")
	if len(os) != 2 {
		return nil, c.Errorf("output_size", "adaptive_avg_pool2d: output_size must be 2")
	}
	if os[0] < 0 || os[1] < 0 {
		return nil, c.Errorf("output_size", "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {%d, %d}", os[0], os[1])
	}
	if os[0] != 1 || os[1] != 1 {
		return cvAdaptiveAvgPool2dCore(c)
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
		return cvOne(empty(true, dt, shape))
	}
	n := xs[nd-2] * xs[nd-1]
	planes := cvProd(xs[:nd-2])
	vals := x.Float64s()
	res := make([]float64, planes)
	for pl := range res {
		var s float64
		for _, v := range vals[pl*n : (pl+1)*n] {
			s += v
		}
		res[pl] = s / float64(n)
	}
	return cvOne(tensor.FromFloat64s(dt, res, shape...))
}

// cvAdaptiveAvgPool2dCore is aten::_adaptive_avg_pool2d: output cell
// (i, j) averages input rows ⌊i*H/oh⌋ to ⌈(i+1)*H/oh⌉ (exclusive), the
// bounds computed in float32 as PyTorch does, and likewise for columns.
func cvAdaptiveAvgPool2dCore(c *ops.Call) ([]any, error) {
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
					cvShapeString(xs), d)
			}
		}
	}
	if nd != 3 && nd != 4 {
		return nil, c.Errorf("self", "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got %s", cvShapeString(xs))
	}
	oh, ow := int(os[0]), int(os[1])
	shape := append(xs[:nd-2:nd-2], oh, ow)
	dt := x.DType()
	if meta(x) {
		return cvOne(empty(true, dt, shape))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 && dt != tensor.BFloat16 {
		return nil, notImplemented(c, "self", "adaptive_avg_pool2d", dt)
	}
	p := &cvPool{planes: cvProd(xs[:nd-2]), inH: xs[nd-2], inW: xs[nd-1], outH: oh, outW: ow}
	if dt == tensor.Float64 {
		out := tensor.Empty(dt, shape...)
		cvAdaptiveRun(p, tensor.Values[float64](x), tensor.Data[float64](out))
		return one(out), nil
	}
	out := tensor.Empty(tensor.Float32, shape...)
	cvAdaptiveRun(p, tensor.Values[float32](to(x, tensor.Float32)), tensor.Data[float32](out))
	return one(to(out, dt)), nil
}

// cvAdaptiveStart is ATen's adaptive pooling start_index: ⌊a*c/b⌋ with
// the division in float32.
func cvAdaptiveStart(a, b, c int) int {
	return int(math.Floor(float64(float32(a*c) / float32(b))))
}

// cvAdaptiveEnd is ATen's end_index: ⌈(a+1)*c/b⌉ with the division in
// float32.
func cvAdaptiveEnd(a, b, c int) int {
	return int(math.Ceil(float64(float32((a+1)*c) / float32(b))))
}

// cvAdaptiveRun is adaptive average pooling over every plane of x.
func cvAdaptiveRun[T float32 | float64](p *cvPool, x, out []T) {
	lin, lout := p.inH*p.inW, p.outH*p.outW
	cvParallel(p.planes, p.planes*lin, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := x[pl*lin : (pl+1)*lin]
			o := pl * lout
			for oh := range p.outH {
				h0, h1 := cvAdaptiveStart(oh, p.outH, p.inH), cvAdaptiveEnd(oh, p.outH, p.inH)
				for ow := range p.outW {
					w0, w1 := cvAdaptiveStart(ow, p.outW, p.inW), cvAdaptiveEnd(ow, p.outW, p.inW)
					var sum T
					for ih := h0; ih < h1; ih++ {
						for _, v := range src[ih*p.inW+w0 : ih*p.inW+w1] {
							sum += v
						}
					}
					out[o] = sum / T(h1-h0) / T(w1-w0)
					o++
				}
			}
		}
	})
}

// cvUpsampleNearest2dVec is aten::upsample_nearest2d.vec: exactly one of
// output_size and scale_factors; the output size from scale factors is
// ⌊in*scale⌋ (truncated), and then the scales themselves map output to
// input indices.
func cvUpsampleNearest2dVec(c *ops.Call) ([]any, error) {
	x := c.Tensor("input")
	osz, sf := c.Ints("output_size"), c.Floats("scale_factors")
	hasOS, hasSF := !c.IsNone("output_size"), !c.IsNone("scale_factors")
	if hasOS == hasSF {
		arg := "output_size"
		if hasSF {
			arg = "scale_factors"
		}
		return nil, c.Errorf(arg, "Must specify exactly one of output_size and scale_factors")
	}
	spatial := x.Dim() - 2
	var size []int
	var scales []float64
	if hasOS {
		if len(osz) != spatial {
			return nil, c.Errorf("output_size", "expected output_size to have %d elements (the input's spatial dimensions), got %d", max(spatial, 0), len(osz))
		}
		size = ints(osz)
		scales = []float64{0, 0}
	} else {
		if len(sf) != spatial {
			return nil, c.Errorf("scale_factors", "expected scale_factors to have %d elements (the input's spatial dimensions), got %d", max(spatial, 0), len(sf))
		}
		xs := x.Shape()
		for i, s := range sf {
			size = append(size, cvTruncInt(float64(xs[i+2])*s))
		}
		scales = sf
	}
	return cvUpsample(c, "input", x, size, scales[0], scales[1])
}

// cvTruncInt converts v to an int truncating toward zero, as a C++ cast;
// NaN and values out of range become 0 or the int bounds.
func cvTruncInt(v float64) int {
	switch {
	case v != v:
		return 0
	case v >= math.MaxInt64:
		return math.MaxInt64
	case v <= math.MinInt64:
		return math.MinInt64
	}
	return int(v)
}

// cvUpsampleNearest2d is aten::upsample_nearest2d with explicit output
// size and optional scales.
func cvUpsampleNearest2d(c *ops.Call) ([]any, error) {
	sh, _ := c.OptFloat("scales_h")
	sw, _ := c.OptFloat("scales_w")
	return cvUpsample(c, "self", c.Tensor("self"), ints(c.Ints("output_size")), sh, sw)
}

// cvUpsample is nearest upsampling of the 4-d x to size [oh, ow]; scale
// values <= 0 mean none was given.
func cvUpsample(c *ops.Call, arg string, x *tensor.Tensor, size []int, sh, sw float64) ([]any, error) {
	if len(size) != 2 {
		return nil, c.Errorf("output_size", "It is expected output_size equals to 2, but got size %d", len(size))
	}
	if x.Dim() != 4 {
		return nil, c.Errorf(arg, "It is expected input_size equals to 4, but got size %d", x.Dim())
	}
	xs := x.Shape()
	ih, iw, oh, ow := xs[2], xs[3], size[0], size[1]
	if ih <= 0 || iw <= 0 || oh <= 0 || ow <= 0 {
		return nil, c.Errorf(arg, "Input and output sizes should be greater than 0, but got input (H: %d, W: %d) output (H: %d, W: %d)", ih, iw, oh, ow)
	}
	if x.Numel() == 0 && xs[1] == 0 {
		return nil, c.Errorf(arg, "Non-empty 4D data tensor expected but got a tensor with sizes %s", cvShapeString(xs))
	}
	shape := []int{xs[0], xs[1], oh, ow}
	dt := x.DType()
	if meta(x) {
		return cvOne(empty(true, dt, shape))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 && dt != tensor.BFloat16 && dt != tensor.Uint8 {
		return nil, notImplemented(c, arg, "compute_indices_weights_nearest", dt)
	}
	cl := cvChannelsLast(x)
	hIdx := cvNearestIndices(ih, oh, sh, cl)
	wIdx := cvNearestIndices(iw, ow, sw, cl)
	out := tensor.Empty(dt, shape...)
	planes := xs[0] * xs[1]
	switch dt {
	case tensor.Float32:
		cvUpsampleRun(tensor.Values[float32](x), tensor.Data[float32](out), planes, ih, iw, hIdx, wIdx)
	case tensor.Float64:
		cvUpsampleRun(tensor.Values[float64](x), tensor.Data[float64](out), planes, ih, iw, hIdx, wIdx)
	case tensor.BFloat16:
		cvUpsampleRun(tensor.Values[tensor.BHalf](x), tensor.Data[tensor.BHalf](out), planes, ih, iw, hIdx, wIdx)
	case tensor.Uint8:
		cvUpsampleRun(tensor.Values[uint8](x), tensor.Data[uint8](out), planes, ih, iw, hIdx, wIdx)
	}
	return one(out), nil
}

// cvNearestIndices returns the source index of every output index:
// min(⌊dst*scale⌋, in-1) in float32, with scale = 1/scaleFactor when one
// (> 0) was given and in/out otherwise. PyTorch 1.13 has two CPU kernels:
// the channels-last one (which a contiguous input with one channel also
// takes) uses nearest_idx, whose shortcuts map equal sizes to the identity
// and doubled sizes to dst/2 whatever the scale factor; the generic one
// (compute_indices_weights_nearest) has no shortcuts. shortcuts selects
// the former.
func cvNearestIndices(in, out int, scaleFactor float64, shortcuts bool) []int {
	var scale float32
	if scaleFactor > 0 {
		scale = float32(1.0 / scaleFactor)
	} else {
		scale = float32(in) / float32(out)
	}
	idx := make([]int, out)
	for d := range idx {
		switch {
		case shortcuts && out == in:
			idx[d] = d
		case shortcuts && out == 2*in:
			idx[d] = d >> 1
		default:
			idx[d] = min(int(float32(math.Floor(float64(float32(d)*scale)))), in-1)
		}
	}
	return idx
}

// cvChannelsLast reports whether the 4-d t is contiguous in channels-last
// order (N, H, W, C), dimensions of size 1 being ignored, as
// is_contiguous(ChannelsLast) does; a contiguous tensor with one channel
// is.
func cvChannelsLast(t *tensor.Tensor) bool {
	sh, st := t.Shape(), t.Strides()
	acc := 1
	for _, d := range []int{1, 3, 2, 0} {
		if sh[d] == 1 {
			continue
		}
		if st[d] != acc {
			return false
		}
		acc *= sh[d]
	}
	return true
}

// cvUpsampleRun gathers each output element of every plane from its
// source element.
func cvUpsampleRun[T tensor.Elem](x, out []T, planes, ih, iw int, hIdx, wIdx []int) {
	oh, ow := len(hIdx), len(wIdx)
	cvParallel(planes, planes*oh*ow, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := x[pl*ih*iw : (pl+1)*ih*iw]
			dst := out[pl*oh*ow : (pl+1)*oh*ow]
			for i, h := range hIdx {
				srow := src[h*iw : (h+1)*iw]
				drow := dst[i*ow : (i+1)*ow]
				for j, w := range wIdx {
					drow[j] = srow[w]
				}
			}
		}
	})
}
