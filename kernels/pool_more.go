package kernels

import (
	"errors"
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// More pooling and resampling kernels, as PyTorch 1.13 computes them on
// CPU: avg_pool1d and adaptive_avg_pool1d (the 2-d kernels on an added
// dimension of size 1, as ATen's composites do), avg_pool3d,
// _adaptive_avg_pool3d, max_pool3d_with_indices, upsample_bilinear2d.vec,
// grid_sampler_2d and col2im. Float math mimics ATen's scalar type: every
// operation of a float32 (or bfloat16, float16) kernel is rounded to that
// type through rounder.

func registerPoolMore() {
	registerBoth("aten::avg_pool1d", pxAvgPool1d)
	registerBoth("aten::adaptive_avg_pool1d", pxAdaptiveAvgPool1d)
	registerBoth("aten::avg_pool3d", pxAvgPool3d)
	registerBoth("aten::_adaptive_avg_pool3d", pxAdaptiveAvgPool3d)
	registerBoth("aten::max_pool3d_with_indices", pxMaxPool3dWithIndices)
	registerBoth("aten::upsample_bilinear2d.vec", pxUpsampleBilinear2dVec)
	registerBoth("aten::grid_sampler_2d", pxGridSampler2d)
	registerBoth("aten::col2im", pxCol2im)
}

// pxCallOp calls the operator name with args and turns its error into one
// of c that blames the same argument (rename maps the callee's argument
// names to c's).
func pxCallOp(c *ops.Call, name string, args []any, rename map[string]string) ([]any, error) {
	out, err := op(name).Call(args, nil)
	if err == nil {
		return out, nil
	}
	var ce *ops.CallError
	if errors.As(err, &ce) {
		arg := ce.Arg
		if r, ok := rename[arg]; ok {
			arg = r
		}
		if arg == "" {
			arg = "self"
		}
		return nil, c.Errorf(arg, "%v", ce.Err)
	}
	return nil, c.Errorf("self", "%v", err)
}

// pxCheck1d is ATen's check1d: an int[1] argument must hold one int.
func pxCheck1d(c *ops.Call, fn, arg string, v []int64) error {
	if len(v) != 1 {
		return c.Errorf(arg, "%s() argument '%s' should contain one int (got %d)", fn, arg, len(v))
	}
	return nil
}

// pxAvgPool1d is aten::avg_pool1d: avg_pool2d over self.unsqueeze(-2) with
// a 1-row window, squeezed back.
func pxAvgPool1d(c *ops.Call) ([]any, error) {
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
		if err := pxCheck1d(c, "avg_pool1d", a.n, a.v); err != nil {
			return nil, err
		}
	}
	xu := tensor.Must(x.Unsqueeze(-2))
	out, err := pxCallOp(c, "aten::avg_pool2d", []any{xu, []int64{1, ks[0]}, []int64{1, st[0]}, []int64{0, pd[0]},
		c.Bool("ceil_mode"), c.Bool("count_include_pad")}, nil)
	if err != nil {
		return nil, err
	}
	return cvOne(out[0].(*tensor.Tensor).SqueezeDim(-2))
}

// pxAdaptiveAvgPool1d is aten::adaptive_avg_pool1d: adaptive_avg_pool2d
// over self.unsqueeze(-2) to [1, output_size], squeezed back.
func pxAdaptiveAvgPool1d(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	os := c.Ints("output_size")
	if x.Dim() < 2 || x.Dim() > 3 {
		return nil, c.Errorf("self", "adaptive_avg_pool1d: Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while checking arguments for adaptive_avg_pool1d)", x.Dim())
	}
	if err := pxCheck1d(c, "adaptive_avg_pool1d", "output_size", os); err != nil {
		return nil, err
	}
	xu := tensor.Must(x.Unsqueeze(-2))
	out, err := pxCallOp(c, "aten::adaptive_avg_pool2d", []any{xu, []int64{1, os[0]}}, nil)
	if err != nil {
		return nil, err
	}
	return cvOne(out[0].(*tensor.Tensor).SqueezeDim(-2))
}

// pxPool3 is a 3-d pooling geometry over volumes [in[0], in[1], in[2]].
type pxPool3 struct {
	planes   int
	in, out  [3]int
	k, s     [3]int
	p, d     [3]int
	outShape []int
}

// pxExpand3 reads an int[3] pooling argument: one value for all three
// dimensions or three values; empty gives def (when def is non-nil).
func pxExpand3(c *ops.Call, fn, arg string, v []int64, def *[3]int, what string) ([3]int, error) {
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

// pxPool3Args reads the kernel_size, stride, padding (and dilation when
// withDilation) of a 3-d pooling op fn and checks them and self as ATen's
// pool3d_shape_check does.
func pxPool3Args(c *ops.Call, fn string, withDilation, checkInput bool) (*pxPool3, error) {
	x := c.Tensor("self")
	p := &pxPool3{}
	var err error
	if p.k, err = pxExpand3(c, fn, "kernel_size", c.Ints("kernel_size"), nil, "a single int, or a tuple of three ints"); err != nil {
		return nil, err
	}
	if p.s, err = pxExpand3(c, fn, "stride", c.Ints("stride"), &p.k, "omitted, a single int, or a tuple of three ints"); err != nil {
		return nil, err
	}
	if p.p, err = pxExpand3(c, fn, "padding", c.Ints("padding"), nil, "a single int, or a tuple of three ints"); err != nil {
		return nil, err
	}
	p.d = [3]int{1, 1, 1}
	if withDilation {
		if p.d, err = pxExpand3(c, fn, "dilation", c.Ints("dilation"), nil, "a single int, or a tuple of three ints"); err != nil {
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
		if p.out[i], err = cvPoolOutSize(c, p.in[i], p.k[i], p.p[i], p.s[i], p.d[i], ceil); err != nil {
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
			return nil, c.Errorf("self", "%s: Expected input's non-batch dimensions to have positive length, but input has a shape of %s and non-batch dimension %d has length zero!", fn, cvShapeString(xs), i)
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
	p.planes = cvProd(xs[:nd-3])
	return p, nil
}

// pxAvgPool3d is aten::avg_pool3d: as avg_pool2d in three dimensions;
// float32 sums in float32, int64 in int64 with a truncating division.
func pxAvgPool3d(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	p, err := pxPool3Args(c, "avg_pool3d", false, true)
	if err != nil {
		return nil, err
	}
	div, hasDiv := c.OptInt("divisor_override")
	if hasDiv && div == 0 {
		return nil, c.Errorf("divisor_override", "divisor must be not zero")
	}
	dt := x.DType()
	if meta(x) {
		return cvOne(empty(true, dt, p.outShape))
	}
	countPad := c.Bool("count_include_pad")
	switch dt {
	case tensor.Float64:
		out := tensor.Empty(dt, p.outShape...)
		pxAvgPool3Run(p, tensor.Values[float64](x), tensor.Data[float64](out), countPad, div, hasDiv)
		return one(out), nil
	case tensor.Float32:
		out := tensor.Empty(dt, p.outShape...)
		pxAvgPool3Run(p, tensor.Values[float32](x), tensor.Data[float32](out), countPad, div, hasDiv)
		return one(out), nil
	case tensor.Int64:
		out := tensor.Empty(dt, p.outShape...)
		pxAvgPool3Run(p, tensor.Values[int64](x), tensor.Data[int64](out), countPad, div, hasDiv)
		return one(out), nil
	}
	return nil, notImplemented(c, "self", "avg_pool3d_out_frame", dt)
}

// pxAvgPool3Run is 3-d average pooling over every volume of x.
func pxAvgPool3Run[T float32 | float64 | int64](p *pxPool3, x, out []T, countPad bool, divisor int64, hasDiv bool) {
	lin := p.in[0] * p.in[1] * p.in[2]
	lout := p.out[0] * p.out[1] * p.out[2]
	cvParallel(p.planes, p.planes*lout*p.k[0]*p.k[1]*p.k[2], func(lo, hi int) {
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

// pxMaxPool3dWithIndices is aten::max_pool3d_with_indices: window maxima
// and their flat offsets in each T*H*W volume; NaN wins, the first of
// equal values wins.
func pxMaxPool3dWithIndices(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	p, err := pxPool3Args(c, "max_pool3d", true, false)
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
		pxMaxPool3Run(p, tensor.Values[float64](x), tensor.Data[float64](out), tensor.Data[int64](idx))
	case tensor.Float32:
		pxMaxPool3Run(p, tensor.Values[float32](x), tensor.Data[float32](out), tensor.Data[int64](idx))
	default:
		return nil, notImplemented(c, "self", "max_pool3d_with_indices_cpu", dt)
	}
	return []any{out, idx}, nil
}

// pxMaxPool3Run is 3-d max pooling over every volume of x.
func pxMaxPool3Run[T float32 | float64](p *pxPool3, x, out []T, idx []int64) {
	lin := p.in[0] * p.in[1] * p.in[2]
	lout := p.out[0] * p.out[1] * p.out[2]
	cvParallel(p.planes, p.planes*lout*p.k[0]*p.k[1]*p.k[2], func(lo, hi int) {
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

// pxAdaptiveAvgPool3d is aten::_adaptive_avg_pool3d: cell (t, h, w)
// averages the input ranges [⌊t*T/ot⌋, ⌈(t+1)*T/ot⌉) (bounds in float32)
// and so on. The sum and the three divisions are in the input's type
// (float16 rounds at every step, as ATen's scalar_t loop).
func pxAdaptiveAvgPool3d(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	os := c.Ints("output_size")
	if len(os) != 3 {
		return nil, c.Errorf("output_size", "adaptive_avg_pool3d: output_size must be 3")
	}
	xs := x.Shape()
	nd := x.Dim()
	for i := 1; i < nd; i++ {
		if xs[i] <= 0 {
			return nil, c.Errorf("self", "adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes %s with dimension %d being empty", cvShapeString(xs), i)
		}
	}
	if nd != 4 && nd != 5 {
		return nil, c.Errorf("self", "adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got %s", cvShapeString(xs))
	}
	for _, v := range os {
		if v < 0 {
			return nil, c.Errorf("output_size", "adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but received %v", os)
		}
	}
	shape := append(xs[:nd-3:nd-3], int(os[0]), int(os[1]), int(os[2]))
	dt := x.DType()
	if meta(x) {
		return cvOne(empty(true, dt, shape))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 && dt != tensor.Float16 {
		return nil, notImplemented(c, "self", "adaptive_avg_pool3d_cpu", dt)
	}
	p := &pxPool3{planes: cvProd(xs[:nd-3])}
	for i := range 3 {
		p.in[i], p.out[i] = xs[nd-3+i], int(os[i])
	}
	vals := x.Float64s()
	res := make([]float64, cvProd(shape))
	r := rounder(dt)
	lin := p.in[0] * p.in[1] * p.in[2]
	lout := p.out[0] * p.out[1] * p.out[2]
	cvParallel(p.planes, p.planes*lin, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := vals[pl*lin : (pl+1)*lin]
			o := pl * lout
			for ot := range p.out[0] {
				t0, t1 := cvAdaptiveStart(ot, p.out[0], p.in[0]), cvAdaptiveEnd(ot, p.out[0], p.in[0])
				for oh := range p.out[1] {
					h0, h1 := cvAdaptiveStart(oh, p.out[1], p.in[1]), cvAdaptiveEnd(oh, p.out[1], p.in[1])
					for ow := range p.out[2] {
						w0, w1 := cvAdaptiveStart(ow, p.out[2], p.in[2]), cvAdaptiveEnd(ow, p.out[2], p.in[2])
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
	return cvOne(tensor.FromFloat64s(dt, res, shape...))
}

// pxUpsampleBilinear2dVec is aten::upsample_bilinear2d.vec: output size
// from output_size or ⌊in*scale⌋, then bilinear interpolation with ATen's
// area_pixel_compute_source_index (align_corners or half-pixel centres
// clamped at 0) and its index and weight arithmetic in the input's type.
func pxUpsampleBilinear2dVec(c *ops.Call) ([]any, error) {
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
	if x.Dim() != 4 {
		return nil, c.Errorf("input", "It is expected input_size equals to 4, but got size %d", x.Dim())
	}
	spatial := x.Dim() - 2
	var size []int
	scales := []float64{0, 0}
	if hasOS {
		if len(osz) != spatial {
			return nil, c.Errorf("output_size", "expected output_size to have %d elements (the input's spatial dimensions), got %d", max(spatial, 0), len(osz))
		}
		size = ints(osz)
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
	xs := x.Shape()
	ih, iw, oh, ow := xs[2], xs[3], size[0], size[1]
	if ih <= 0 || iw <= 0 || oh <= 0 || ow <= 0 {
		return nil, c.Errorf("input", "Input and output sizes should be greater than 0, but got input (H: %d, W: %d) output (H: %d, W: %d)", ih, iw, oh, ow)
	}
	if x.Numel() == 0 && xs[1] == 0 {
		return nil, c.Errorf("input", "Non-empty 4D data tensor expected but got a tensor with sizes %s", cvShapeString(xs))
	}
	shape := []int{xs[0], xs[1], oh, ow}
	dt := x.DType()
	if meta(x) {
		return cvOne(empty(true, dt, shape))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 && dt != tensor.BFloat16 {
		return nil, notImplemented(c, "input", "upsample_bilinear2d_channels_last", dt)
	}
	ac := c.Bool("align_corners")
	r := rounder(dt)
	h0, h1, hl0, hl1 := pxLinearIndices(ih, oh, ac, scales[0], r)
	w0, w1, wl0, wl1 := pxLinearIndices(iw, ow, ac, scales[1], r)
	vals := x.Float64s()
	planes := xs[0] * xs[1]
	res := make([]float64, planes*oh*ow)
	cvParallel(planes, planes*oh*ow*4, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := vals[pl*ih*iw : (pl+1)*ih*iw]
			dst := res[pl*oh*ow : (pl+1)*oh*ow]
			for i := range oh {
				r0, r1 := src[h0[i]*iw:], src[h1[i]*iw:]
				for j := range ow {
					t0 := r(r(r0[w0[j]]*wl0[j]) + r(r0[w1[j]]*wl1[j]))
					t1 := r(r(r1[w0[j]]*wl0[j]) + r(r1[w1[j]]*wl1[j]))
					dst[i*ow+j] = r(r(t0*hl0[i]) + r(t1*hl1[i]))
				}
			}
		}
	})
	return cvOne(tensor.FromFloat64s(dt, res, shape...))
}

// pxAreaScale is ATen's area_pixel_compute_scale in the type r rounds to.
func pxAreaScale(in, out int, alignCorners bool, scale float64, r func(float64) float64) float64 {
	if alignCorners {
		if out > 1 {
			return r(r(float64(in-1)) / r(float64(out-1)))
		}
		return 0
	}
	if scale > 0 {
		return r(1 / scale)
	}
	return r(r(float64(in)) / r(float64(out)))
}

// pxSourceIndex is ATen's area_pixel_compute_source_index: with
// align_corners scale*dst, and otherwise scale*(dst+0.5)-0.5 (in double,
// then rounded) clamped at 0 unless cubic.
func pxSourceIndex(scale float64, dst int, alignCorners, cubic bool, r func(float64) float64) float64 {
	if alignCorners {
		return r(scale * r(float64(dst)))
	}
	src := r(scale*(float64(dst)+0.5) - 0.5)
	if !cubic && src < 0 {
		return 0
	}
	return src
}

// pxLinearIndices is compute_source_index_and_lambda for every output
// index: the two source indices and their weights. The scale is in the
// input's type (r), the source index in its opmath type (float32 for
// bfloat16), and the weights are rounded to the input's type.
func pxLinearIndices(in, out int, alignCorners bool, scale float64, r func(float64) float64) (i0, i1 []int, l0, l1 []float64) {
	i0, i1 = make([]int, out), make([]int, out)
	l0, l1 = make([]float64, out), make([]float64, out)
	s := pxAreaScale(in, out, alignCorners, scale, r)
	rop := r
	if r(1+1.0/512) == 1 { // bfloat16 or float16: opmath is float32
		rop = rounder(tensor.Float32)
	}
	for d := range out {
		if in == out {
			i0[d], i1[d], l0[d], l1[d] = d, d, 1, 0
			continue
		}
		src := pxSourceIndex(s, d, alignCorners, false, rop)
		i0[d] = min(int(src), in-1)
		i1[d] = i0[d]
		if i0[d] < in-1 {
			i1[d]++
		}
		l1[d] = r(min(max(rop(src-float64(i0[d])), 0), 1))
		l0[d] = r(1 - l1[d])
	}
	return
}

// pxGridSampler2d is aten::grid_sampler_2d: input [N, C, H, W] sampled at
// grid [N, Ho, Wo, 2] (x, y in [-1, 1]) with bilinear (0), nearest (1) or
// bicubic (2) interpolation and zeros (0), border (1) or reflection (2)
// padding, as ATen's scalar CPU kernel computes it in the input's type.
func pxGridSampler2d(c *ops.Call) ([]any, error) {
	x, g := c.Tensor("input"), c.Tensor("grid")
	mode, pad := c.Int("interpolation_mode"), c.Int("padding_mode")
	ac := c.Bool("align_corners")
	if x.Dim() != 4 || g.Dim() != 4 {
		return nil, c.Errorf("grid", "grid_sampler(): expected 4D input and grid with same number of dimensions, but got input with sizes %s and grid with sizes %s",
			cvShapeString(x.Shape()), cvShapeString(g.Shape()))
	}
	if x.DType() != g.DType() {
		return nil, c.Errorf("grid", "grid_sampler(): expected input and grid to have same dtype, but input has %s and grid has %s", scalarTypeName(x.DType()), scalarTypeName(g.DType()))
	}
	xs, gs := x.Shape(), g.Shape()
	if xs[0] != gs[0] {
		return nil, c.Errorf("grid", "grid_sampler(): expected grid and input to have same batch size, but got input with sizes %s and grid with sizes %s", cvShapeString(xs), cvShapeString(gs))
	}
	if gs[3] != 2 {
		return nil, c.Errorf("grid", "grid_sampler(): expected grid to have size 2 in last dimension, but got grid with sizes %s", cvShapeString(gs))
	}
	for i := 2; i < 4; i++ {
		if xs[i] <= 0 {
			return nil, c.Errorf("input", "grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes %s with dimension %d being empty", cvShapeString(xs), i)
		}
	}
	if mode < 0 || mode > 2 {
		return nil, c.Errorf("interpolation_mode", "grid_sampler(): expected interpolation_mode to be 0 (bilinear), 1 (nearest) or 2 (bicubic), got %d", mode)
	}
	if pad < 0 || pad > 2 {
		return nil, c.Errorf("padding_mode", "grid_sampler(): expected padding_mode to be 0 (zeros), 1 (border) or 2 (reflection), got %d", pad)
	}
	n, ch, ih, iw, oh, ow := xs[0], xs[1], xs[2], xs[3], gs[1], gs[2]
	shape := []int{n, ch, oh, ow}
	dt := x.DType()
	if meta(x, g) {
		return cvOne(empty(true, dt, shape))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return nil, notImplemented(c, "input", "grid_sampler_2d_cpu", dt)
	}
	r := rounder(dt)
	vals, gv := x.Float64s(), g.Float64s()
	res := make([]float64, cvProd(shape))
	gsm := &pxGridSampler{ih: ih, iw: iw, pad: int(pad), ac: ac, r: r}
	cvParallel(n, n*ch*oh*ow*16, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			for i := range oh {
				for j := range ow {
					gp := ((b*oh+i)*ow + j) * 2
					gx, gy := gv[gp], gv[gp+1]
					for cc := range ch {
						plane := vals[(b*ch+cc)*ih*iw : (b*ch+cc+1)*ih*iw]
						res[((b*ch+cc)*oh+i)*ow+j] = gsm.sample(plane, int(mode), gx, gy)
					}
				}
			}
		}
	})
	return cvOne(tensor.FromFloat64s(dt, res, shape...))
}

// pxGridSampler holds a grid sampler's input geometry and options.
type pxGridSampler struct {
	ih, iw int
	pad    int
	ac     bool
	r      func(float64) float64
}

// unnormalize maps a grid coordinate in [-1, 1] to pixel units.
func (s *pxGridSampler) unnormalize(coord float64, size int) float64 {
	r := s.r
	if s.ac {
		return r(r(r(coord+1)/2) * float64(size-1))
	}
	return r(r(r(r(coord+1)*float64(size))-1) / 2)
}

// clip clamps coord to [0, size-1] (NaN stays NaN as std::min/max with
// the bound second do... ATen's clip_coordinates).
func (s *pxGridSampler) clip(coord float64, size int) float64 {
	return math.Min(float64(size-1), math.Max(coord, 0))
}

// reflect is ATen's reflect_coordinates over [twiceLow/2, twiceHigh/2].
func (s *pxGridSampler) reflect(coord float64, twiceLow, twiceHigh int) float64 {
	r := s.r
	if twiceLow == twiceHigh {
		return 0
	}
	lo := r(float64(twiceLow) / 2)
	span := r(float64(twiceHigh-twiceLow) / 2)
	coord = math.Abs(r(coord - lo))
	extra := r(math.Mod(coord, span))
	flips := int(math.Floor(r(coord / span)))
	if flips%2 == 0 {
		return r(extra + lo)
	}
	return r(r(span-extra) + lo)
}

// pad applies the padding mode to an unnormalized coordinate.
func (s *pxGridSampler) padCoord(coord float64, size int) float64 {
	switch s.pad {
	case 1:
		return s.clip(coord, size)
	case 2:
		if s.ac {
			coord = s.reflect(coord, 0, 2*(size-1))
		} else {
			coord = s.reflect(coord, -1, 2*size-1)
		}
		return s.clip(coord, size)
	}
	return coord
}

// at returns plane[y][x], or 0 outside the input.
func (s *pxGridSampler) at(plane []float64, y, x int) float64 {
	if y < 0 || y >= s.ih || x < 0 || x >= s.iw {
		return 0
	}
	return plane[y*s.iw+x]
}

// sample is one output value at grid point (gx, gy).
func (s *pxGridSampler) sample(plane []float64, mode int, gx, gy float64) float64 {
	r := s.r
	switch mode {
	case 0:
		x := s.padCoord(s.unnormalize(gx, s.iw), s.iw)
		y := s.padCoord(s.unnormalize(gy, s.ih), s.ih)
		if x != x || y != y {
			return 0
		}
		x0, y0 := math.Floor(x), math.Floor(y)
		x1, y1 := x0+1, y0+1
		nw := r(r(x1-x) * r(y1-y))
		ne := r(r(x-x0) * r(y1-y))
		sw := r(r(x1-x) * r(y-y0))
		se := r(r(x-x0) * r(y-y0))
		ix0, iy0, ix1, iy1 := int(x0), int(y0), int(x1), int(y1)
		out := r(s.at(plane, iy0, ix0) * nw)
		out = r(out + r(s.at(plane, iy0, ix1)*ne))
		out = r(out + r(s.at(plane, iy1, ix0)*sw))
		return r(out + r(s.at(plane, iy1, ix1)*se))
	case 1:
		x := s.padCoord(s.unnormalize(gx, s.iw), s.iw)
		y := s.padCoord(s.unnormalize(gy, s.ih), s.ih)
		if x != x || y != y {
			return 0
		}
		return s.at(plane, int(math.RoundToEven(y)), int(math.RoundToEven(x)))
	}
	x := s.unnormalize(gx, s.iw)
	y := s.unnormalize(gy, s.ih)
	x0, y0 := math.Floor(x), math.Floor(y)
	tx, ty := r(x-x0), r(y-y0)
	var rows [4]float64
	for i := range 4 {
		var v [4]float64
		for j := range 4 {
			v[j] = s.bounded(plane, x0-1+float64(j), y0-1+float64(i))
		}
		rows[i] = pxCubicInterp(v, tx, r)
	}
	return pxCubicInterp(rows, ty, r)
}

// bounded is ATen's get_value_bounded: the padded coordinates' value, or
// 0 outside the input.
func (s *pxGridSampler) bounded(plane []float64, x, y float64) float64 {
	x = s.padCoord(x, s.iw)
	y = s.padCoord(y, s.ih)
	if x != x || y != y || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return 0
	}
	return s.at(plane, int(y), int(x))
}

// pxCubicInterp is ATen's cubic_interp1d with A = -0.75.
func pxCubicInterp(v [4]float64, t float64, r func(float64) float64) float64 {
	const a = -0.75
	conv1 := func(x float64) float64 { // ((A+2)*x - (A+3))*x*x + 1
		return r(r(r(r(r((a+2)*x)-(a+3))*x)*x) + 1)
	}
	conv2 := func(x float64) float64 { // ((A*x - 5A)*x + 8A)*x - 4A
		return r(r(r(r(r(r(a*x)-5*a)*x)+8*a)*x) - 4*a)
	}
	x2 := r(1 - t)
	c0, c1 := conv2(r(t+1)), conv1(t)
	c2, c3 := conv1(x2), conv2(r(x2+1))
	out := r(v[0] * c0)
	out = r(out + r(v[1]*c1))
	out = r(out + r(v[2]*c2))
	return r(out + r(v[3]*c3))
}

// pxCol2im is aten::col2im: columns [N, C*kh*kw, L] (or unbatched) summed
// back into images [N, C, oh, ow], in ATen's order, adding in the input's
// type.
func pxCol2im(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	var geo [5][]int64
	for i, a := range []string{"output_size", "kernel_size", "dilation", "padding", "stride"} {
		geo[i] = c.Ints(a)
		if len(geo[i]) != 2 {
			return nil, c.Errorf(a, "It is expected %s equals to 2, but got size %d", a, len(geo[i]))
		}
	}
	oh, ow := int(geo[0][0]), int(geo[0][1])
	kh, kw := int(geo[1][0]), int(geo[1][1])
	dh, dw := int(geo[2][0]), int(geo[2][1])
	ph, pw := int(geo[3][0]), int(geo[3][1])
	sh, sw := int(geo[4][0]), int(geo[4][1])
	switch {
	case kh <= 0 || kw <= 0:
		return nil, c.Errorf("kernel_size", "kernel size should be greater than zero, but got kernel_height: %d kernel_width: %d", kh, kw)
	case sh <= 0 || sw <= 0:
		return nil, c.Errorf("stride", "stride should be greater than zero, but got stride_height: %d stride_width: %d", sh, sw)
	case dh <= 0 || dw <= 0:
		return nil, c.Errorf("dilation", "dilation should be greater than zero, but got dilation_height: %d dilation_width: %d", dh, dw)
	case ph < 0 || pw < 0:
		return nil, c.Errorf("padding", "padding should be non-negative, but got pad_height: %d pad_width: %d", ph, pw)
	}
	xs := x.Shape()
	nd := len(xs)
	if !(nd == 2 && xs[0] != 0 && xs[1] != 0 || nd == 3 && xs[1] != 0 && xs[2] != 0) {
		return nil, c.Errorf("self", "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: %s", cvShapeString(xs))
	}
	planes, length := xs[nd-2], xs[nd-1]
	if planes%(kh*kw) != 0 {
		return nil, c.Errorf("self", "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=%d and kernel_size=(%d, %d)", planes, kh, kw)
	}
	bh := cvFloorDiv(oh+2*ph-dh*(kh-1)-1, sh) + 1
	bw := cvFloorDiv(ow+2*pw-dw*(kw-1)-1, sw) + 1
	if length != bh*bw {
		return nil, c.Errorf("self", "Given output_size=(%d, %d), kernel_size=(%d, %d), dilation=(%d, %d), padding=(%d, %d), stride=(%d, %d), expected size of input's dimension 2 to match the calculated number of sliding blocks %d * %d = %d, but got input.size(2)=%d.",
			oh, ow, kh, kw, dh, dw, ph, pw, sh, sw, bh, bw, bh*bw, length)
	}
	if bh < 1 || bw < 1 {
		return nil, c.Errorf("output_size", "Given output_size=(%d, %d), kernel_size=(%d, %d), dilation=(%d, %d), padding=(%d, %d), stride=(%d, %d), calculated shape of the array of sliding blocks as (%d, %d), which is too small (non-positive)",
			oh, ow, kh, kw, dh, dw, ph, pw, sh, sw, bh, bw)
	}
	ch := planes / (kh * kw)
	batch := 1
	shape := []int{ch, oh, ow}
	if nd == 3 {
		batch = xs[0]
		shape = []int{batch, ch, oh, ow}
	}
	dt := x.DType()
	if meta(x) {
		return cvOne(empty(true, dt, shape))
	}
	if !dt.IsFloat() {
		return nil, notImplemented(c, "self", "col2im_out_cpu", dt)
	}
	r := rounder(dt)
	vals := x.Float64s()
	res := make([]float64, cvProd(shape))
	cvParallel(batch, batch*planes*length, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			col := vals[b*planes*length : (b+1)*planes*length]
			im := res[b*ch*oh*ow : (b+1)*ch*oh*ow]
			for cc := range planes {
				wo, ho, ci := cc%kw, (cc/kw)%kh, cc/kw/kh
				for hc := range bh {
					hi := hc*sh - ph + ho*dh
					if hi < 0 || hi >= oh {
						continue
					}
					for wc := range bw {
						wi := wc*sw - pw + wo*dw
						if wi < 0 || wi >= ow {
							continue
						}
						k := (ci*oh+hi)*ow + wi
						im[k] = r(im[k] + col[(cc*bh+hc)*bw+wc])
					}
				}
			}
		}
	})
	return cvOne(tensor.FromFloat64s(dt, res, shape...))
}

func registerPoolMore2() {
	registerBoth("aten::_cdist_forward", pxCdistForward)
	registerBoth("aten::_pdist_forward", pxPdistForward)
	registerBoth("aten::_embedding_bag", pxEmbeddingBag)
}

// pxDist accumulates a p-norm distance as ATen's Dist functors do: p = 0
// counts differing elements, 1 sums |d|, 2 is the square root of the sum
// of squares, inf is the largest |d|, and other p the p-th root of the sum
// of |d|^p; every step rounded by r.
type pxDist struct {
	p    float64
	invP float64
	r    func(float64) float64
}

// newPxDist returns the distance functor for p in the type r rounds to.
func newPxDist(p float64, r func(float64) float64) *pxDist {
	return &pxDist{p: p, invP: r(1 / p), r: r}
}

// dist is the distance between rows a and b.
func (d *pxDist) dist(a, b []float64) float64 {
	r := d.r
	var agg float64
	for i := range a {
		diff := math.Abs(r(a[i] - b[i]))
		switch {
		case d.p == 0:
			if diff != 0 {
				agg = r(agg + 1)
			} else if diff != diff {
				agg = r(agg + diff)
			}
		case d.p == 1:
			agg = r(agg + diff)
		case d.p == 2:
			agg = r(agg + r(diff*diff))
		case math.IsInf(d.p, 1):
			if diff > agg || diff != diff {
				agg = diff
			}
		default:
			agg = r(agg + r(math.Pow(diff, d.p)))
		}
	}
	switch {
	case d.p == 2:
		return r(math.Sqrt(agg))
	case d.p == 0 || d.p == 1 || math.IsInf(d.p, 1):
		return agg
	}
	return r(math.Pow(agg, d.invP))
}

// pxCdistForward is aten::_cdist_forward: p-norm distances between the
// rows of x1 [..., r1, c] and x2 [..., r2, c], batch dimensions
// broadcast. For p = 2 with compute_mode 1, or 0 and more than 25 rows,
// PyTorch computes through a matrix product (|a|² + |b|² - 2a·b, clamped
// at 0), and so does this kernel.
func pxCdistForward(c *ops.Call) ([]any, error) {
	x1, x2 := c.Tensor("x1"), c.Tensor("x2")
	p := c.Float("p")
	if x1.Dim() < 2 {
		return nil, c.Errorf("x1", "cdist only supports at least 2D tensors, X1 got: %dD", x1.Dim())
	}
	if x2.Dim() < 2 {
		return nil, c.Errorf("x2", "cdist only supports at least 2D tensors, X2 got: %dD", x2.Dim())
	}
	s1, s2 := x1.Shape(), x2.Shape()
	cols := s1[len(s1)-1]
	if cols != s2[len(s2)-1] {
		return nil, c.Errorf("x2", "X1 and X2 must have the same number of columns. X1: %d X2: %d", cols, s2[len(s2)-1])
	}
	dt := x1.DType()
	if !dt.IsFloat() {
		return nil, c.Errorf("x1", "cdist only supports floating-point dtypes, X1 got: %s", scalarTypeName(dt))
	}
	if !x2.DType().IsFloat() {
		return nil, c.Errorf("x2", "cdist only supports floating-point dtypes, X2 got: %s", scalarTypeName(x2.DType()))
	}
	if p < 0 || p != p {
		return nil, c.Errorf("p", "cdist only supports non-negative p values")
	}
	mode, _ := c.OptInt("compute_mode")
	if mode < 0 || mode > 2 {
		return nil, c.Errorf("compute_mode", "possible modes: 0, 1, 2, but was: %d", mode)
	}
	batch, err := ops.BroadcastShapes(s1[:len(s1)-2], s2[:len(s2)-2])
	if err != nil {
		return nil, c.Errorf("x2", "%v", err)
	}
	r1, r2 := s1[len(s1)-2], s2[len(s2)-2]
	shape := append(append([]int{}, batch...), r1, r2)
	if x2.DType() != dt {
		return nil, c.Errorf("x2", "expected scalar type %s but found %s", scalarTypeName(dt), scalarTypeName(x2.DType()))
	}
	if meta(x1, x2) {
		return cvOne(empty(true, dt, shape))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return nil, notImplemented(c, "x1", "cdist", dt)
	}
	nb := cvProd(batch)
	res := make([]float64, cvProd(shape))
	if nb == 0 || r1 == 0 || r2 == 0 || cols == 0 {
		return cvOne(tensor.FromFloat64s(dt, res, shape...))
	}
	a := tensor.Must(x1.Expand(append(append([]int{}, batch...), r1, cols)...)).Float64s()
	b := tensor.Must(x2.Expand(append(append([]int{}, batch...), r2, cols)...)).Float64s()
	r := rounder(dt)
	euclid := p == 2 && (mode == 1 || mode == 0 && (r1 > 25 || r2 > 25))
	d := newPxDist(p, r)
	cvParallel(nb*r1, nb*r1*r2*cols, func(lo, hi int) {
		for row := lo; row < hi; row++ {
			bi, i := row/r1, row%r1
			ai := a[(bi*r1+i)*cols : (bi*r1+i+1)*cols]
			for j := range r2 {
				bj := b[(bi*r2+j)*cols : (bi*r2+j+1)*cols]
				if euclid {
					res[row*r2+j] = pxEuclid(ai, bj, r)
				} else {
					res[row*r2+j] = d.dist(ai, bj)
				}
			}
		}
	})
	return cvOne(tensor.FromFloat64s(dt, res, shape...))
}

// pxEuclid is _euclidean_dist for one pair of rows: the product of
// [-2a, |a|², 1] and [b, 1, |b|²], clamped at 0, square-rooted.
func pxEuclid(a, b []float64, r func(float64) float64) float64 {
	var na, nb, dot float64
	for i := range a {
		na = r(na + r(a[i]*a[i]))
		nb = r(nb + r(b[i]*b[i]))
	}
	for i := range a {
		dot = r(dot + r(r(-2*a[i])*b[i]))
	}
	dot = r(r(dot+na) + nb)
	return r(math.Sqrt(math.Max(dot, 0)))
}

// pxPdistForward is aten::_pdist_forward: the p-norm distances between
// every pair of rows i < j of the 2-d self, in row-major pair order.
func pxPdistForward(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	p := c.Float("p")
	if x.Dim() != 2 {
		return nil, c.Errorf("self", "pdist only supports 2D tensors, got: %dD", x.Dim())
	}
	dt := x.DType()
	if !dt.IsFloat() {
		return nil, c.Errorf("self", "pdist only supports floating-point dtypes")
	}
	n, m := x.Size(0), x.Size(1)
	count := 0
	if n > 1 {
		count = n * (n - 1) / 2
	}
	if meta(x) {
		return cvOne(empty(true, dt, []int{count}))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return nil, notImplemented(c, "self", "pdist", dt)
	}
	res := make([]float64, count)
	if count == 0 || m == 0 {
		return cvOne(tensor.FromFloat64s(dt, res, count))
	}
	vals := x.Float64s()
	d := newPxDist(p, rounder(dt))
	k := 0
	for i := range n {
		for j := i + 1; j < n; j++ {
			res[k] = d.dist(vals[i*m:(i+1)*m], vals[j*m:(j+1)*m])
			k++
		}
	}
	return cvOne(tensor.FromFloat64s(dt, res, count))
}

// pxEmbeddingBag is aten::_embedding_bag: sums (mode 0, optionally
// weighted by per_sample_weights), means (1) or maxima (2) of the weight
// rows of each bag of indices, bags starting at offsets. It returns
// PyTorch 1.13's four outputs: the result; offset2bag (the bag of every
// index, empty for a float32/float16 sum without padding_idx, which takes
// the fast path); bag_size (indices per bag less padding ones, zeros for
// sums); and max_indices (the arg-max rows of max mode [bags, D], else a
// copy of bag_size).
func pxEmbeddingBag(c *ops.Call) ([]any, error) {
	w, idx, off := c.Tensor("weight"), c.Tensor("indices"), c.Tensor("offsets")
	psw := c.Tensor("per_sample_weights")
	mode := c.Int("mode")
	ilo := c.Bool("include_last_offset")
	pad := c.Int("padding_idx")
	for _, a := range []struct {
		n string
		t *tensor.Tensor
	}{{"indices", idx}, {"offsets", off}} {
		if dt := a.t.DType(); dt != tensor.Int64 && dt != tensor.Int32 {
			return nil, c.Errorf(a.n, "Expected tensor for argument #1 '%s' to have one of the following scalar types: Long, Int; but got %s instead (while checking arguments for embedding_bag)", a.n, scalarTypeName(dt))
		}
		if a.t.Dim() != 1 {
			return nil, c.Errorf(a.n, "embedding_bag: expected %s to be a 1-D tensor, but got %d-D", a.n, a.t.Dim())
		}
	}
	idt := idx.DType()
	if off.DType() != idt {
		idt = tensor.Int64
	}
	wdt := w.DType()
	if wdt != tensor.Float16 && wdt != tensor.Float32 && wdt != tensor.Float64 {
		return nil, c.Errorf("weight", "Expected tensor for argument #1 'weight' to have one of the following scalar types: Half, Float, Double; but got %s instead (while checking arguments for embedding_bag)", scalarTypeName(wdt))
	}
	if w.Dim() != 2 {
		return nil, c.Errorf("weight", "embedding_bag: expected weight to be a 2-D tensor, but got %d-D", w.Dim())
	}
	if mode < 0 || mode > 2 {
		return nil, c.Errorf("mode", "embedding_bag: mode must be 0 (sum), 1 (mean) or 2 (max), got %d", mode)
	}
	nIdx, nOff := idx.Numel(), off.Numel()
	if psw != nil {
		switch {
		case mode != 0:
			return nil, c.Errorf("per_sample_weights", "embedding_bag: per_sample_weights only supported with mode='sum'")
		case psw.DType() != wdt:
			return nil, c.Errorf("per_sample_weights", "expected scalar type %s but found %s", scalarTypeName(wdt), scalarTypeName(psw.DType()))
		case psw.Dim() != 1 || psw.Numel() != nIdx:
			return nil, c.Errorf("per_sample_weights", "embedding_bag: expected per_sample_weights of shape [%d], got %s", nIdx, cvShapeString(psw.Shape()))
		}
	}
	if ilo && nOff < 1 {
		return nil, c.Errorf("offsets", "include_last_offset: number of offset should be at least 1")
	}
	bags := nOff
	if ilo {
		bags--
	}
	vocab, dim := w.Size(0), w.Size(1)
	fast := mode == 0 && (wdt == tensor.Float32 || wdt == tensor.Float16) && pad < 0
	o2bShape := []int{nIdx}
	if fast {
		o2bShape = []int{0}
	}
	maxShape := []int{bags}
	if mode == 2 {
		maxShape = []int{bags, dim}
	}
	if meta(w, idx, off, psw) {
		return []any{tensor.Must(empty(true, wdt, []int{bags, dim})), tensor.Must(empty(true, idt, o2bShape)),
			tensor.Must(empty(true, idt, []int{bags})), tensor.Must(empty(true, idt, maxShape))}, nil
	}
	iv, ov := idx.Int64s(), off.Int64s()
	if nOff > 0 {
		if ov[0] != 0 {
			return nil, c.Errorf("offsets", "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. However, got %d", ov[0])
		}
		if ov[nOff-1] > int64(nIdx) {
			return nil, c.Errorf("offsets", "offsets[-1] can not be greater than input's length %d, but got offsets[-1] of %d", nIdx, ov[nOff-1])
		}
		for i := 1; i < nOff; i++ {
			if ov[i] < ov[i-1] {
				return nil, c.Errorf("offsets", "embedding_bag: offsets must be non-decreasing, but offsets[%d]=%d < offsets[%d]=%d", i, ov[i], i-1, ov[i-1])
			}
		}
	}
	for _, i := range iv {
		if i < 0 || i >= int64(vocab) {
			return nil, c.Errorf("indices", "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be %d", i)
		}
	}
	// offset2bag[i] = (number of offsets <= i) - 1.
	o2b := make([]int64, nIdx)
	k := 0
	for i := range nIdx {
		for k < nOff && ov[k] <= int64(i) {
			k++
		}
		o2b[i] = int64(k - 1)
	}
	size := make([]int64, bags)
	for b := range bags {
		end := int64(nIdx)
		if b+1 < bags {
			end = ov[b+1]
		}
		size[b] = end - ov[b]
	}
	wv := w.Float64s()
	var pv []float64
	if psw != nil {
		pv = psw.Float64s()
	}
	r := rounder(wdt)
	if wdt == tensor.Float16 && fast {
		r = rounder(tensor.Float32)
	}
	out := make([]float64, bags*dim)
	maxIdx := make([]int64, bags*dim)
	filled := make([]bool, bags)
	for i, word := range iv {
		b := int(o2b[i])
		if b < 0 || b >= bags { // past the last offset with include_last_offset
			continue
		}
		if word == pad {
			size[b]--
			continue
		}
		row := wv[int(word)*dim : int(word+1)*dim]
		dst := out[b*dim : (b+1)*dim]
		for j, v := range row {
			switch {
			case mode == 2:
				if !filled[b] || v > dst[j] {
					dst[j] = v
					maxIdx[b*dim+j] = word
				}
			case pv != nil:
				dst[j] = r(dst[j] + r(v*pv[i]))
			default:
				dst[j] = r(dst[j] + v)
			}
		}
		filled[b] = true
	}
	if mode == 1 {
		for b := range bags {
			n := float64(max(size[b], 1))
			for j := range dim {
				out[b*dim+j] = r(out[b*dim+j] / n)
			}
		}
	}
	if mode == 0 {
		clear(size)
	}
	var mi []int64
	if mode == 2 {
		mi = maxIdx
	} else {
		mi = size
	}
	if fast {
		o2b = nil
	}
	return []any{tensor.Must(tensor.FromFloat64s(wdt, out, bags, dim)), tensor.Must(tensor.FromInt64s(idt, o2b, o2bShape...)),
		tensor.Must(tensor.FromInt64s(idt, size, bags)), tensor.Must(tensor.FromInt64s(idt, mi, maxShape...))}, nil
}
