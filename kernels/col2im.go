package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Column to image, ATen's Col2Im.cpp: the col2im operator and the col2im
// scatter that transposed convolution shares.

// registerCol2im registers the kernels of col2im.go.
func registerCol2im() {
	registerBoth("aten::col2im", col2imKernel)
}

// col2imScatter zeroes out [cog, out...] and accumulates into it the columns
// [cog*K, Lin] of a transposed convolution: column (id, ih, iw) of row
// (c, kd, kh, kw) adds to out[c, id*s-p+kd*d, ...] where that lies inside.
// With inner set the channels are split over the cores.
func col2imScatter[T float32 | float64 | int64](geo geom, cols, out []T, inner bool) {
	kk := geo.k[0] * geo.k[1] * geo.k[2]
	lin := geo.in[0] * geo.in[1] * geo.in[2]
	lout := geo.out[0] * geo.out[1] * geo.out[2]
	run := func(lo, hi int) {
		for ch := lo; ch < hi; ch++ {
			dst := out[ch*lout : (ch+1)*lout]
			clear(dst)
			for kr := range kk {
				kd, kh, kw := kr/(geo.k[1]*geo.k[2]), (kr/geo.k[2])%geo.k[1], kr%geo.k[2]
				src := cols[(ch*kk+kr)*lin : (ch*kk+kr+1)*lin]
				// Input positions i map to output i*s - p + k*d; the valid
				// i form a range, the inverse of outRange's.
				wlo, whi := outRange(geo.in[2], geo.s[2], geo.p[2], kw*geo.d[2], geo.out[2])
				for id := range geo.in[0] {
					od := id*geo.s[0] - geo.p[0] + kd*geo.d[0]
					if od < 0 || od >= geo.out[0] {
						continue
					}
					for ih := range geo.in[1] {
						oh := ih*geo.s[1] - geo.p[1] + kh*geo.d[1]
						if oh < 0 || oh >= geo.out[1] {
							continue
						}
						srow := src[(id*geo.in[1]+ih)*geo.in[2] : (id*geo.in[1]+ih+1)*geo.in[2]]
						drow := dst[(od*geo.out[1]+oh)*geo.out[2] : (od*geo.out[1]+oh+1)*geo.out[2]]
						base := -geo.p[2] + kw*geo.d[2]
						for iw := wlo; iw < whi; iw++ {
							drow[iw*geo.s[2]+base] += srow[iw]
						}
					}
				}
			}
		}
	}
	if inner {
		parallel(geo.cog, geo.cog*kk*lin, run)
	} else {
		run(0, geo.cog)
	}
}

// col2imKernel is aten::col2im: columns [N, C*kh*kw, L] (or unbatched) summed
// back into images [N, C, oh, ow], in ATen's order, adding in the input's
// type.
func col2imKernel(c *ops.Call) ([]any, error) {
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
		return nil, c.Errorf("self", "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: %s", shapeString(xs))
	}
	planes, length := xs[nd-2], xs[nd-1]
	if planes%(kh*kw) != 0 {
		return nil, c.Errorf("self", "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=%d and kernel_size=(%d, %d)", planes, kh, kw)
	}
	bh := floorDivInt(oh+2*ph-dh*(kh-1)-1, sh) + 1
	bw := floorDivInt(ow+2*pw-dw*(kw-1)-1, sw) + 1
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
		return oneOrErr(empty(true, dt, shape))
	}
	if !dt.IsFloat() {
		return nil, notImplemented(c, "self", "col2im_out_cpu", dt)
	}
	r := rounder(dt)
	vals := x.Float64s()
	res := make([]float64, product(shape))
	parallel(batch, batch*planes*length, func(lo, hi int) {
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
	return oneOrErr(tensor.FromFloat64s(dt, res, shape...))
}
