package kernels

import (
	"math"

	"github.com/gofx/gofx/internal/vec"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Upsampling, ATen's UpSample*.cpp: upsample_nearest1d/2d/3d,
// upsample_linear1d, upsample_bilinear2d, upsample_trilinear3d and
// upsample_bicubic2d and _upsample_nearest_exact1d/2d/3d, each with its
// .vec overload. The 1-d, 3-d and
// bicubic kernels follow upsample_generic_Nd_kernel_impl (the kernel of
// contiguous inputs; channels-last 3-d inputs take it too here). Float math
// mimics ATen's scalar type: every operation of a float32 (or bfloat16,
// float16) kernel is rounded to that type through rounder.

// registerUpsample registers the kernels of upsample.go.
func registerUpsample() {
	registerBoth("aten::upsample_nearest2d.vec", upsampleNearest2dVec)
	registerBoth("aten::upsample_nearest2d", upsampleNearest2d)
	registerBoth("aten::upsample_bilinear2d.vec", upsampleBilinear2dVec)
	registerBoth("aten::upsample_nearest1d", upsampleKernel(1, modeNearest, []string{"scales"}))
	registerBoth("aten::upsample_nearest1d.vec", upsampleKernel(1, modeNearest, nil))
	registerBoth("aten::upsample_nearest3d", upsampleKernel(3, modeNearest, []string{"scales_d", "scales_h", "scales_w"}))
	registerBoth("aten::upsample_nearest3d.vec", upsampleKernel(3, modeNearest, nil))
	registerBoth("aten::upsample_linear1d", upsampleKernel(1, modeLinear, []string{"scales"}))
	registerBoth("aten::upsample_linear1d.vec", upsampleKernel(1, modeLinear, nil))
	registerBoth("aten::upsample_bilinear2d", upsampleKernel(2, modeLinear, []string{"scales_h", "scales_w"}))
	registerBoth("aten::upsample_trilinear3d", upsampleKernel(3, modeLinear, []string{"scales_d", "scales_h", "scales_w"}))
	registerBoth("aten::upsample_trilinear3d.vec", upsampleKernel(3, modeLinear, nil))
	registerBoth("aten::upsample_bicubic2d", upsampleKernel(2, modeCubic, []string{"scales_h", "scales_w"}))
	registerBoth("aten::upsample_bicubic2d.vec", upsampleKernel(2, modeCubic, nil))
	registerBoth("aten::_upsample_nearest_exact1d", upsampleKernel(1, modeNearestExact, []string{"scales"}))
	registerBoth("aten::_upsample_nearest_exact1d.vec", upsampleKernel(1, modeNearestExact, nil))
	registerBoth("aten::_upsample_nearest_exact2d", upsampleKernel(2, modeNearestExact, []string{"scales_h", "scales_w"}))
	registerBoth("aten::_upsample_nearest_exact2d.vec", upsampleKernel(2, modeNearestExact, nil))
	registerBoth("aten::_upsample_nearest_exact3d", upsampleKernel(3, modeNearestExact, []string{"scales_d", "scales_h", "scales_w"}))
	registerBoth("aten::_upsample_nearest_exact3d.vec", upsampleKernel(3, modeNearestExact, nil))
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
	out := tensor.EmptyUninit(dt, shape...)
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
// source element, row by row; an output row with the source row of the
// one before it is a copy of that one.
func upsampleRun[T tensor.Elem](x, out []T, planes, ih, iw int, hIdx, wIdx []int) {
	oh, ow := len(hIdx), len(wIdx)
	parallel(planes, planes*oh*ow, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := x[pl*ih*iw : (pl+1)*ih*iw]
			dst := out[pl*oh*ow : (pl+1)*oh*ow]
			for i, h := range hIdx {
				drow := dst[i*ow : (i+1)*ow]
				if i > 0 && hIdx[i-1] == h {
					copy(drow, dst[(i-1)*ow:i*ow])
					continue
				}
				srow := src[h*iw : (h+1)*iw]
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
	return oneOrErr(bilinear2d(x, shape, c.Bool("align_corners"), scales[0], scales[1]))
}

// bilinear2d is 2-d bilinear interpolation of the 4-d x to shape, with
// ATen's source indices and weights (linearIndices) in x's dtype (a
// float dtype; the caller checks). Each output element is
// t0*λh0 + t1*λh1 of the rows' interpolations t = x0*λw0 + x1*λw1, every
// product and sum rounded to the dtype (float16 and bfloat16 compute in
// float64 and round at every step; float32 and float64 in their own type,
// which is the same).
func bilinear2d(x *tensor.Tensor, shape []int, ac bool, sh, sw float64) (*tensor.Tensor, error) {
	xs := x.Shape()
	ih, iw, oh, ow := xs[2], xs[3], shape[2], shape[3]
	dt := x.DType()
	r := rounder(dt)
	h0, h1, hl0, hl1 := linearIndices(ih, oh, ac, sh, r)
	w0, w1, wl0, wl1 := linearIndices(iw, ow, ac, sw, r)
	planes := xs[0] * xs[1]
	switch dt {
	case tensor.Float32:
		out := tensor.EmptyUninit(dt, shape...)
		bilinearPlanes(tensor.Values[float32](x), tensor.Data[float32](out), planes, ih, iw,
			linearAxis[float32](h0, h1, hl0, hl1), linearAxis[float32](w0, w1, wl0, wl1))
		return out, nil
	case tensor.Float64:
		out := tensor.EmptyUninit(dt, shape...)
		bilinearPlanes(tensor.Values[float64](x), tensor.Data[float64](out), planes, ih, iw,
			linearAxis[float64](h0, h1, hl0, hl1), linearAxis[float64](w0, w1, wl0, wl1))
		return out, nil
	}
	vals := x.Float64s()
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
	return tensor.FromFloat64s(dt, res, shape...)
}

// linearTaps are the two source indices and weights of every output index
// along one dimension, the weights in the element type.
type linearTaps[T float32 | float64] struct {
	i0, i1 []int
	l0, l1 []T
}

// linearAxis converts linearIndices' weights to T (they are T's values).
func linearAxis[T float32 | float64](i0, i1 []int, l0, l1 []float64) linearTaps[T] {
	a := linearTaps[T]{i0: i0, i1: i1, l0: make([]T, len(l0)), l1: make([]T, len(l1))}
	for d := range l0 {
		a.l0[d], a.l1[d] = T(l0[d]), T(l1[d])
	}
	return a
}

// bilinearPlanes interpolates every plane of x (ih×iw) into out: each
// source row's horizontal interpolation is computed once (two rows are
// kept, as output rows walk down the source) and output rows combine two
// of them with internal/vec's loops. The explicit conversions keep every
// product rounded (no fused multiply-add), as ATen's scalar loop.
func bilinearPlanes[T float32 | float64](x, out []T, planes, ih, iw int, h, w linearTaps[T]) {
	oh, ow := len(h.i0), len(w.i0)
	parallel(planes, planes*oh*ow*4, func(lo, hi int) {
		var rows [2][]T
		rows[0], rows[1] = make([]T, ow), make([]T, ow)
		tmp := make([]T, ow)
		var keys [2]int
		row := func(src []T, r, keep int) []T {
			for k := range keys {
				if keys[k] == r {
					return rows[k]
				}
			}
			k := 0
			if keys[0] == keep {
				k = 1
			}
			keys[k] = r
			s, d := src[r*iw:(r+1)*iw], rows[k]
			for j := range d {
				d[j] = T(s[w.i0[j]]*w.l0[j]) + T(s[w.i1[j]]*w.l1[j])
			}
			return d
		}
		for pl := lo; pl < hi; pl++ {
			src := x[pl*ih*iw : (pl+1)*ih*iw]
			dst := out[pl*oh*ow : (pl+1)*oh*ow]
			keys = [2]int{-1, -1}
			for i := range oh {
				t0 := row(src, h.i0[i], h.i1[i])
				t1 := row(src, h.i1[i], h.i0[i])
				d := dst[i*ow : (i+1)*ow]
				vec.BinaryScalar(vec.Mul, d, t0, h.l0[i])
				vec.BinaryScalar(vec.Mul, tmp, t1, h.l1[i])
				vec.Binary(vec.Add, d, d, tmp)
			}
		}
	})
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

// interpAxis holds, for every output index along one spatial dimension,
// the source indices and weights the interpolation combines (one tap for
// nearest, two for linear, four for cubic).
type interpAxis struct {
	idx [][]int
	w   [][]float64
}

// upsampleInput reads an upsample call's input (argument self, or input
// for the .vec overloads, those with no scaleArgs) and its output size and
// scales (upsampleArgs).
func upsampleInput(c *ops.Call, n int, scaleArgs []string) (string, *tensor.Tensor, []int, []float64, error) {
	arg := "self"
	if scaleArgs == nil {
		arg = "input"
	}
	x := c.Tensor(arg)
	size, scales, err := upsampleArgs(c, arg, x, n, scaleArgs)
	return arg, x, size, scales, err
}

// upsampleArgs reads the output size and scales of an upsample call over
// n spatial dimensions: the .vec overloads take exactly one of
// output_size and scale_factors (the size is then ⌊in*scale⌋, truncated),
// the others output_size and optional per-dimension scales (scales,
// scales_h, ...). A scale of 0 means none was given.
func upsampleArgs(c *ops.Call, arg string, x *tensor.Tensor, n int, scaleArgs []string) ([]int, []float64, error) {
	if x.Dim() != n+2 {
		return nil, nil, c.Errorf(arg, "It is expected input_size equals to %d, but got size %d", n+2, x.Dim())
	}
	xs := x.Shape()
	scales := make([]float64, n)
	var size []int
	if scaleArgs == nil { // .vec
		osz, sf := c.Ints("output_size"), c.Floats("scale_factors")
		hasOS, hasSF := !c.IsNone("output_size"), !c.IsNone("scale_factors")
		if hasOS == hasSF {
			a := "output_size"
			if hasSF {
				a = "scale_factors"
			}
			return nil, nil, c.Errorf(a, "Must specify exactly one of output_size and scale_factors")
		}
		if hasOS {
			if len(osz) != n {
				return nil, nil, c.Errorf("output_size", "expected output_size to have %d elements (the input's spatial dimensions), got %d", n, len(osz))
			}
			size = ints(osz)
		} else {
			if len(sf) != n {
				return nil, nil, c.Errorf("scale_factors", "expected scale_factors to have %d elements (the input's spatial dimensions), got %d", n, len(sf))
			}
			for i, s := range sf {
				size = append(size, truncInt(float64(xs[i+2])*s))
			}
			copy(scales, sf)
		}
	} else {
		osz := c.Ints("output_size")
		if len(osz) != n {
			return nil, nil, c.Errorf("output_size", "It is expected output_size equals to %d, but got size %d", n, len(osz))
		}
		size = ints(osz)
		for i, a := range scaleArgs {
			scales[i], _ = c.OptFloat(a)
		}
	}
	bad := false
	for i := range n {
		bad = bad || xs[i+2] <= 0 || size[i] <= 0
	}
	if bad {
		return nil, nil, c.Errorf(arg, "Input and output sizes should be greater than 0, but got input %s output %s", shapeString(xs[2:]), shapeString(size))
	}
	if x.Numel() == 0 && xs[1] == 0 {
		return nil, nil, c.Errorf(arg, "Non-empty %dD data tensor expected but got a tensor with sizes %s", n+2, shapeString(xs))
	}
	return size, scales, nil
}

// upsampleMode is one interpolation of upsampleKernel.
type upsampleMode int

const (
	modeNearest upsampleMode = iota
	modeNearestExact
	modeLinear
	modeCubic
)

// upsampleKernel returns the kernel of an upsample overload over n
// spatial dimensions in mode; scaleArgs names the optional scale
// arguments of the non-.vec overloads (nil for .vec).
func upsampleKernel(n int, mode upsampleMode, scaleArgs []string) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		arg, x, size, scales, err := upsampleInput(c, n, scaleArgs)
		if err != nil {
			return nil, err
		}
		xs := x.Shape()
		shape := append(xs[:2:2], size...)
		dt := x.DType()
		if meta(x) {
			return oneOrErr(empty(true, dt, shape))
		}
		ac := false
		if mode == modeLinear || mode == modeCubic {
			ac = c.Bool("align_corners")
		}
		var kernel string
		switch mode {
		case modeNearest, modeNearestExact:
			kernel = "compute_indices_weights_nearest"
			if dt != tensor.Float32 && dt != tensor.Float64 && dt != tensor.BFloat16 && dt != tensor.Uint8 {
				return nil, notImplemented(c, arg, kernel, dt)
			}
		case modeLinear:
			kernel = "compute_indices_weights_linear"
		case modeCubic:
			kernel = "compute_indices_weights_cubic"
		}
		if !dt.IsFloat() || dt == tensor.Float16 {
			if mode == modeLinear || mode == modeCubic {
				return nil, notImplemented(c, arg, kernel, dt)
			}
		}
		if n == 2 && mode == modeLinear {
			return oneOrErr(bilinear2d(x, shape, ac, scales[0], scales[1]))
		}
		r := rounder(dt)
		axes := make([]interpAxis, n)
		for i := range n {
			in, out := xs[i+2], size[i]
			var a interpAxis
			switch mode {
			case modeNearest, modeNearestExact:
				var idx []int
				if mode == modeNearest {
					idx = nearestIndices(in, out, scales[i], false)
				} else {
					idx = nearestExactIndices(in, out, scales[i])
				}
				for _, k := range idx {
					a.idx = append(a.idx, []int{k})
					a.w = append(a.w, []float64{1})
				}
			case modeLinear:
				i0, i1, l0, l1 := linearIndices(in, out, ac, scales[i], r)
				for d := range out {
					a.idx = append(a.idx, []int{i0[d], i1[d]})
					a.w = append(a.w, []float64{l0[d], l1[d]})
				}
			case modeCubic:
				a = cubicAxis(in, out, ac, scales[i], r)
			}
			axes[i] = a
		}
		return oneOrErr(interpolate(x, shape, axes, mode == modeNearest || mode == modeNearestExact, r))
	}
}

// nearestExactIndices is the source index of every output index of
// nearest-exact upsampling: min(⌊(dst+0.5)*scale⌋, in-1) in float32, as
// ATen's nearest_neighbor_exact_compute_source_index.
func nearestExactIndices(in, out int, scaleFactor float64) []int {
	var scale float32
	if scaleFactor > 0 {
		scale = float32(1.0 / scaleFactor)
	} else {
		scale = float32(in) / float32(out)
	}
	idx := make([]int, out)
	for d := range idx {
		idx[d] = min(int(float32(math.Floor(float64(float32(float32(d)+0.5)*scale)))), in-1)
	}
	return idx
}

// cubicAxis is HelperInterpCubic's compute_indices_weights: four taps
// around ⌊src⌋ (clamped into the input) with the cubic convolution
// coefficients of A = -0.75, computed in the input's opmath type.
func cubicAxis(in, out int, alignCorners bool, scale float64, r func(float64) float64) interpAxis {
	rop := r
	if r(1+1.0/512) == 1 {
		rop = rounder(tensor.Float32)
	}
	s := areaScale(in, out, alignCorners, scale, r)
	const a = -0.75
	conv1 := func(x float64) float64 { // ((A+2)x - (A+3))x² + 1
		return rop(rop(rop(rop(rop((a+2)*x)-(a+3))*x)*x) + 1)
	}
	conv2 := func(x float64) float64 { // ((Ax - 5A)x + 8A)x - 4A
		return rop(rop(rop(rop(rop(rop(a*x)-5*a)*x)+8*a)*x) - 4*a)
	}
	var ax interpAxis
	for d := range out {
		src := sourceIndex(s, d, alignCorners, true, rop)
		i := int(math.Floor(src))
		t := rop(src - float64(i))
		x2 := rop(1 - t)
		w := []float64{conv2(rop(t + 1)), conv1(t), conv1(x2), conv2(rop(x2 + 1))}
		idx := make([]int, 4)
		for j := range idx {
			idx[j] = max(min(i-1+j, in-1), 0)
			w[j] = r(w[j])
		}
		ax.idx = append(ax.idx, idx)
		ax.w = append(ax.w, w)
	}
	return ax
}

// interpolate computes every output element of x (N, C, spatial...) as
// ATen's upsample_generic_Nd_kernel_impl does: the outermost spatial
// dimension's taps weight the interpolations of the inner dimensions,
// accumulated tap by tap, every product and sum rounded by r. Nearest
// modes gather without arithmetic.
func interpolate(x *tensor.Tensor, shape []int, axes []interpAxis, gather bool, r func(float64) float64) (*tensor.Tensor, error) {
	xs := x.Shape()
	n := len(axes)
	inStride := make([]int, n)
	outStride := make([]int, n)
	is, os := 1, 1
	for i := n - 1; i >= 0; i-- {
		inStride[i], outStride[i] = is, os
		is *= xs[i+2]
		os *= shape[i+2]
	}
	planes := xs[0] * xs[1]
	dt := x.DType()
	if gather {
		cx := x.Contiguous()
		out := tensor.Empty(dt, shape...)
		offs := gatherOffsets(axes, inStride, os)
		switch dt {
		case tensor.Float32:
			gatherPlanes(tensor.Values[float32](cx), tensor.Data[float32](out), planes, is, offs)
		case tensor.Float64:
			gatherPlanes(tensor.Values[float64](cx), tensor.Data[float64](out), planes, is, offs)
		case tensor.BFloat16:
			gatherPlanes(tensor.Values[tensor.BHalf](cx), tensor.Data[tensor.BHalf](out), planes, is, offs)
		case tensor.Uint8:
			gatherPlanes(tensor.Values[uint8](cx), tensor.Data[uint8](out), planes, is, offs)
		}
		return out, nil
	}
	vals := x.Float64s()
	res := make([]float64, planes*os)
	var eval func(src []float64, k int, pos []int) float64
	eval = func(src []float64, k int, pos []int) float64 {
		a := axes[k]
		idx, w := a.idx[pos[k]], a.w[pos[k]]
		var acc float64
		for j, i := range idx {
			var t float64
			if k == n-1 {
				t = src[i]
			} else {
				t = eval(src[i*inStride[k]:], k+1, pos)
			}
			p := r(t * w[j])
			if j == 0 {
				acc = p
			} else {
				acc = r(acc + p)
			}
		}
		return acc
	}
	parallel(planes, planes*os*4, func(lo, hi int) {
		pos := make([]int, n)
		for pl := lo; pl < hi; pl++ {
			src := vals[pl*is : (pl+1)*is]
			dst := res[pl*os : (pl+1)*os]
			for o := range dst {
				rem := o
				for k := range n {
					pos[k] = rem / outStride[k]
					rem %= outStride[k]
				}
				dst[o] = eval(src, 0, pos)
			}
		}
	})
	return tensor.FromFloat64s(dt, res, shape...)
}

// gatherOffsets returns, for every output element of a plane, the offset
// of its source element (one tap per axis).
func gatherOffsets(axes []interpAxis, inStride []int, os int) []int {
	n := len(axes)
	offs := make([]int, os)
	outStride := make([]int, n)
	s := 1
	for i := n - 1; i >= 0; i-- {
		outStride[i] = s
		s *= len(axes[i].idx)
	}
	for o := range offs {
		rem, off := o, 0
		for k := range n {
			off += axes[k].idx[rem/outStride[k]][0] * inStride[k]
			rem %= outStride[k]
		}
		offs[o] = off
	}
	return offs
}

// gatherPlanes copies the source element of every output element of
// every plane.
func gatherPlanes[T tensor.Elem](x, out []T, planes, is int, offs []int) {
	os := len(offs)
	parallel(planes, planes*os, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src, dst := x[pl*is:(pl+1)*is], out[pl*os:(pl+1)*os]
			for o, off := range offs {
				dst[o] = src[off]
			}
		}
	})
}
