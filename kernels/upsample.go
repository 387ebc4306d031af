package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Upsampling, ATen's UpSampleNearest2d.cpp and UpSampleBilinear2d.cpp:
// upsample_nearest2d (and .vec) and upsample_bilinear2d.vec. Float math
// mimics ATen's scalar type: every operation of a float32 (or bfloat16,
// float16) kernel is rounded to that type through rounder.

// registerUpsample registers the kernels of upsample.go.
func registerUpsample() {
	registerBoth("aten::upsample_nearest2d.vec", upsampleNearest2dVec)
	registerBoth("aten::upsample_nearest2d", upsampleNearest2d)
	registerBoth("aten::upsample_bilinear2d.vec", upsampleBilinear2dVec)
}

// upsampleNearest2dVec is aten::upsample_nearest2d.vec: exactly one of
// output_size and scale_factors; the output size from scale factors is
// ⌊in*scale⌋ (truncated), and then the scales themselves map output to
// input indices.
func upsampleNearest2dVec(c *ops.Call) ([]any, error) {
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
			size = append(size, truncInt(float64(xs[i+2])*s))
		}
		scales = sf
	}
	return upsample(c, "input", x, size, scales[0], scales[1])
}

// truncInt converts v to an int truncating toward zero, as a C++ cast;
// NaN and values out of range become 0 or the int bounds.
func truncInt(v float64) int {
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

// upsampleNearest2d is aten::upsample_nearest2d with explicit output
// size and optional scales.
func upsampleNearest2d(c *ops.Call) ([]any, error) {
	sh, _ := c.OptFloat("scales_h")
	sw, _ := c.OptFloat("scales_w")
	return upsample(c, "self", c.Tensor("self"), ints(c.Ints("output_size")), sh, sw)
}

// upsample is nearest upsampling of the 4-d x to size [oh, ow]; scale
// values <= 0 mean none was given.
func upsample(c *ops.Call, arg string, x *tensor.Tensor, size []int, sh, sw float64) ([]any, error) {
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
		return nil, c.Errorf(arg, "Non-empty 4D data tensor expected but got a tensor with sizes %s", shapeString(xs))
	}
	shape := []int{xs[0], xs[1], oh, ow}
	dt := x.DType()
	if meta(x) {
		return oneOrErr(empty(true, dt, shape))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 && dt != tensor.BFloat16 && dt != tensor.Uint8 {
		return nil, notImplemented(c, arg, "compute_indices_weights_nearest", dt)
	}
	cl := channelsLast(x)
	hIdx := nearestIndices(ih, oh, sh, cl)
	wIdx := nearestIndices(iw, ow, sw, cl)
	out := tensor.Empty(dt, shape...)
	planes := xs[0] * xs[1]
	switch dt {
	case tensor.Float32:
		upsampleRun(tensor.Values[float32](x), tensor.Data[float32](out), planes, ih, iw, hIdx, wIdx)
	case tensor.Float64:
		upsampleRun(tensor.Values[float64](x), tensor.Data[float64](out), planes, ih, iw, hIdx, wIdx)
	case tensor.BFloat16:
		upsampleRun(tensor.Values[tensor.BHalf](x), tensor.Data[tensor.BHalf](out), planes, ih, iw, hIdx, wIdx)
	case tensor.Uint8:
		upsampleRun(tensor.Values[uint8](x), tensor.Data[uint8](out), planes, ih, iw, hIdx, wIdx)
	}
	return one(out), nil
}

// nearestIndices returns the source index of every output index:
// min(⌊dst*scale⌋, in-1) in float32, with scale = 1/scaleFactor when one
// (> 0) was given and in/out otherwise. PyTorch 1.13 has two CPU kernels:
// the channels-last one (which a contiguous input with one channel also
// takes) uses nearest_idx, whose shortcuts map equal sizes to the identity
// and doubled sizes to dst/2 whatever the scale factor; the generic one
// (compute_indices_weights_nearest) has no shortcuts. shortcuts selects
// the former.
func nearestIndices(in, out int, scaleFactor float64, shortcuts bool) []int {
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

// channelsLast reports whether the 4-d t is contiguous in channels-last
// order (N, H, W, C), dimensions of size 1 being ignored, as
// is_contiguous(ChannelsLast) does; a contiguous tensor with one channel
// is.
func channelsLast(t *tensor.Tensor) bool {
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

// upsampleRun gathers each output element of every plane from its
// source element.
func upsampleRun[T tensor.Elem](x, out []T, planes, ih, iw int, hIdx, wIdx []int) {
	oh, ow := len(hIdx), len(wIdx)
	parallel(planes, planes*oh*ow, func(lo, hi int) {
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

// upsampleBilinear2dVec is aten::upsample_bilinear2d.vec: output size
// from output_size or ⌊in*scale⌋, then bilinear interpolation with ATen's
// area_pixel_compute_source_index (align_corners or half-pixel centres
// clamped at 0) and its index and weight arithmetic in the input's type.
func upsampleBilinear2dVec(c *ops.Call) ([]any, error) {
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
			size = append(size, truncInt(float64(xs[i+2])*s))
		}
		scales = sf
	}
	xs := x.Shape()
	ih, iw, oh, ow := xs[2], xs[3], size[0], size[1]
	if ih <= 0 || iw <= 0 || oh <= 0 || ow <= 0 {
		return nil, c.Errorf("input", "Input and output sizes should be greater than 0, but got input (H: %d, W: %d) output (H: %d, W: %d)", ih, iw, oh, ow)
	}
	if x.Numel() == 0 && xs[1] == 0 {
		return nil, c.Errorf("input", "Non-empty 4D data tensor expected but got a tensor with sizes %s", shapeString(xs))
	}
	shape := []int{xs[0], xs[1], oh, ow}
	dt := x.DType()
	if meta(x) {
		return oneOrErr(empty(true, dt, shape))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 && dt != tensor.BFloat16 {
		return nil, notImplemented(c, "input", "upsample_bilinear2d_channels_last", dt)
	}
	ac := c.Bool("align_corners")
	r := rounder(dt)
	h0, h1, hl0, hl1 := linearIndices(ih, oh, ac, scales[0], r)
	w0, w1, wl0, wl1 := linearIndices(iw, ow, ac, scales[1], r)
	vals := x.Float64s()
	planes := xs[0] * xs[1]
	res := make([]float64, planes*oh*ow)
	parallel(planes, planes*oh*ow*4, func(lo, hi int) {
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
	return oneOrErr(tensor.FromFloat64s(dt, res, shape...))
}

// areaScale is ATen's area_pixel_compute_scale in the type r rounds to.
func areaScale(in, out int, alignCorners bool, scale float64, r func(float64) float64) float64 {
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

// sourceIndex is ATen's area_pixel_compute_source_index: with
// align_corners scale*dst, and otherwise scale*(dst+0.5)-0.5 (in double,
// then rounded) clamped at 0 unless cubic.
func sourceIndex(scale float64, dst int, alignCorners, cubic bool, r func(float64) float64) float64 {
	if alignCorners {
		return r(scale * r(float64(dst)))
	}
	src := r(scale*(float64(dst)+0.5) - 0.5)
	if !cubic && src < 0 {
		return 0
	}
	return src
}

// linearIndices is compute_source_index_and_lambda for every output
// index: the two source indices and their weights. The scale is in the
// input's type (r), the source index in its opmath type (float32 for
// bfloat16), and the weights are rounded to the input's type.
func linearIndices(in, out int, alignCorners bool, scale float64, r func(float64) float64) (i0, i1 []int, l0, l1 []float64) {
	i0, i1 = make([]int, out), make([]int, out)
	l0, l1 = make([]float64, out), make([]float64, out)
	s := areaScale(in, out, alignCorners, scale, r)
	rop := r
	if r(1+1.0/512) == 1 { // bfloat16 or float16: opmath is float32
		rop = rounder(tensor.Float32)
	}
	for d := range out {
		if in == out {
			i0[d], i1[d], l0[d], l1[d] = d, d, 1, 0
			continue
		}
		src := sourceIndex(s, d, alignCorners, false, rop)
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
