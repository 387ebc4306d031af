package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Anti-aliased upsampling, ATen's separable_upsample_generic_Nd_kernel_impl
// (UpSampleKernel.cpp) behind _upsample_bilinear2d_aa and
// _upsample_bicubic2d_aa (interpolate(..., antialias=True)) and PyTorch
// 2.14's _upsample_lanczos2d_aa. Each spatial
// dimension whose size changes is resampled on its own, the last (W)
// first, then H, through a temporary in the input's dtype. Output index i
// of a dimension combines the inputs [xmin, xmin+xsize) around
// center = scale*(i+0.5), weighted by the filter (triangle for bilinear,
// Keys' cubic with a = -0.5 for bicubic, PIL's Lanczos-3
// sinc(x)·sinc(x/3) for lanczos) stretched by the scale when
// downsampling, and normalized to sum 1. Weights and sums are computed in
// the input's dtype (float32 or float64), as ATen's scalar_t loops.

// registerUpsampleAA registers the kernels of upsample_aa.go.
func registerUpsampleAA() {
	hw := []string{"scales_h", "scales_w"}
	registerBoth("aten::_upsample_bilinear2d_aa", upsampleAA(aaBilinear, hw))
	registerBoth("aten::_upsample_bilinear2d_aa.vec", upsampleAA(aaBilinear, nil))
	registerBoth("aten::_upsample_bicubic2d_aa", upsampleAA(aaBicubic, hw))
	registerBoth("aten::_upsample_bicubic2d_aa.vec", upsampleAA(aaBicubic, nil))
	registerBoth("aten::_upsample_lanczos2d_aa", upsampleAA(aaLanczos, hw))
	registerBoth("aten::_upsample_lanczos2d_aa.vec", upsampleAA(aaLanczos, nil))
}

// aaFilter is the filter of an anti-aliased upsample.
type aaFilter int

const (
	aaBilinear aaFilter = iota // triangle, support 1
	aaBicubic                  // Keys' cubic, support 2
	aaLanczos                  // Lanczos-3, support 3
)

// aaAxis holds the taps of every output index along one dimension.
type aaAxis struct {
	xmin []int
	w    [][]float64
}

// aaWeights is HelperInterpBase::_compute_index_ranges_weights with
// antialias for one dimension of size in resampled to out; r rounds to the
// input's dtype.
func aaWeights(in, out int, alignCorners bool, scale float64, kind aaFilter, r func(float64) float64) aaAxis {
	s := areaScale(in, out, alignCorners, scale, r)
	interp := 2.0
	switch kind {
	case aaBicubic:
		interp = 4
	case aaLanczos:
		interp = 6
	}
	support := interp * 0.5
	invscale := 1.0
	if s >= 1 {
		support = r(interp * 0.5 * s)
		invscale = r(1 / s)
	}
	maxSize := int(math.Ceil(support))*2 + 1
	filter := func(x float64) float64 {
		x = math.Abs(x)
		if x < 1 {
			return r(1 - x)
		}
		return 0
	}
	switch kind {
	case aaLanczos:
		sinc := func(x float64) float64 {
			if x == 0 {
				return 1
			}
			x = r(x * math.Pi)
			return r(r(math.Sin(x)) / x)
		}
		filter = func(x float64) float64 {
			x = math.Abs(x)
			if x < 3 {
				return r(sinc(x) * sinc(r(x/3)))
			}
			return 0
		}
	case aaBicubic:
		const a = -0.5
		filter = func(x float64) float64 {
			x = math.Abs(x)
			switch {
			case x < 1: // ((a+2)x - (a+3))x² + 1
				return r(r(r(r(r((a+2)*x)-(a+3))*x)*x) + 1)
			case x < 2: // ((ax - 5a)x + 8a)x - 4a
				return r(r(r(r(r(r(a*x)-5*a)*x)+8*a)*x) - 4*a)
			}
			return 0
		}
	}
	var ax aaAxis
	for i := range out {
		center := r(s * (float64(i) + 0.5))
		xmin := max(int(r(center-support)+0.5), 0)
		xsize := min(max(min(int(r(center+support)+0.5), in)-xmin, 0), maxSize)
		w := make([]float64, xsize)
		var total float64
		for j := range w {
			w[j] = filter(r((r(float64(j+xmin)-center) + 0.5) * invscale))
			total = r(total + w[j])
		}
		if total != 0 {
			for j := range w {
				w[j] = r(w[j] / total)
			}
		}
		ax.xmin = append(ax.xmin, xmin)
		ax.w = append(ax.w, w)
	}
	return ax
}

// upsampleAA returns the kernel of an anti-aliased upsample overload;
// scaleArgs names the scale arguments of the non-.vec overloads (nil for
// .vec).
func upsampleAA(kind aaFilter, scaleArgs []string) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		arg, x, size, scales, err := upsampleInput(c, 2, scaleArgs)
		if err != nil {
			return nil, err
		}
		xs := x.Shape()
		shape := append(xs[:2:2], size...)
		dt := x.DType()
		if meta(x) {
			return oneOrErr(empty(true, dt, shape))
		}
		if dt != tensor.Float32 && dt != tensor.Float64 {
			return nil, notImplemented(c, arg, "compute_index_ranges_weights", dt)
		}
		r := rounder(dt)
		ac := c.Bool("align_corners")
		vals := x.Float64s()
		planes := xs[0] * xs[1]
		h, w := xs[2], xs[3]
		if size[1] != w { // horizontal
			ax := aaWeights(w, size[1], ac, scales[1], kind, r)
			next := make([]float64, planes*h*size[1])
			parallel(planes*h, planes*h*size[1]*4, func(lo, hi int) {
				for row := lo; row < hi; row++ {
					src, dst := vals[row*w:(row+1)*w], next[row*size[1]:(row+1)*size[1]]
					for o := range dst {
						dst[o] = aaDot(src[ax.xmin[o]:], 1, ax.w[o], r)
					}
				}
			})
			vals, w = next, size[1]
		}
		if size[0] != h { // vertical
			ax := aaWeights(h, size[0], ac, scales[0], kind, r)
			next := make([]float64, planes*size[0]*w)
			parallel(planes, planes*size[0]*w*4, func(lo, hi int) {
				for pl := lo; pl < hi; pl++ {
					src := vals[pl*h*w : (pl+1)*h*w]
					for o := range size[0] {
						for col := range w {
							next[(pl*size[0]+o)*w+col] = aaDot(src[ax.xmin[o]*w+col:], w, ax.w[o], r)
						}
					}
				}
			})
			vals = next
		}
		return oneOrErr(tensor.FromFloat64s(dt, vals, shape...))
	}
}

// aaDot is Σ src[j*stride]*w[j], every product and sum rounded by r.
func aaDot(src []float64, stride int, w []float64, r func(float64) float64) float64 {
	var acc float64
	for j, wj := range w {
		p := r(src[j*stride] * wj)
		if j == 0 {
			acc = p
		} else {
			acc = r(acc + p)
		}
	}
	return acc
}
