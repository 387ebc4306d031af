package kernels

import (
	"math"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Grid sampling, ATen's GridSampler.cpp: grid_sampler_2d (bilinear,
// nearest and bicubic; zeros, border and reflection padding), its float
// math rounded to the input's type through rounder.

// registerGridSampler registers the kernels of grid_sampler.go.
func registerGridSampler() {
	registerBoth("aten::grid_sampler_2d", gridSampler2d)
}

// gridSampler2d is aten::grid_sampler_2d: input [N, C, H, W] sampled at
// grid [N, Ho, Wo, 2] (x, y in [-1, 1]) with bilinear (0), nearest (1) or
// bicubic (2) interpolation and zeros (0), border (1) or reflection (2)
// padding, as ATen's scalar CPU kernel computes it in the input's type.
func gridSampler2d(c *ops.Call) ([]any, error) {
	x, g := c.Tensor("input"), c.Tensor("grid")
	mode, pad := c.Int("interpolation_mode"), c.Int("padding_mode")
	ac := c.Bool("align_corners")
	if x.Dim() != 4 || g.Dim() != 4 {
		return nil, c.Errorf("grid", "grid_sampler(): expected 4D input and grid with same number of dimensions, but got input with sizes %s and grid with sizes %s",
			shapeString(x.Shape()), shapeString(g.Shape()))
	}
	if x.DType() != g.DType() {
		return nil, c.Errorf("grid", "grid_sampler(): expected input and grid to have same dtype, but input has %s and grid has %s", scalarTypeName(x.DType()), scalarTypeName(g.DType()))
	}
	xs, gs := x.Shape(), g.Shape()
	if xs[0] != gs[0] {
		return nil, c.Errorf("grid", "grid_sampler(): expected grid and input to have same batch size, but got input with sizes %s and grid with sizes %s", shapeString(xs), shapeString(gs))
	}
	if gs[3] != 2 {
		return nil, c.Errorf("grid", "grid_sampler(): expected grid to have size 2 in last dimension, but got grid with sizes %s", shapeString(gs))
	}
	for i := 2; i < 4; i++ {
		if xs[i] <= 0 {
			return nil, c.Errorf("input", "grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes %s with dimension %d being empty", shapeString(xs), i)
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
		return oneOrErr(empty(true, dt, shape))
	}
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return nil, notImplemented(c, "input", "grid_sampler_2d_cpu", dt)
	}
	r := rounder(dt)
	vals, gv := x.Float64s(), g.Float64s()
	res := make([]float64, product(shape))
	gsm := &gridSampler{ih: ih, iw: iw, pad: int(pad), ac: ac, r: r}
	parallel(n, n*ch*oh*ow*16, func(lo, hi int) {
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
	return oneOrErr(tensor.FromFloat64s(dt, res, shape...))
}

// gridSampler holds a grid sampler's input geometry and options.
type gridSampler struct {
	ih, iw int
	pad    int
	ac     bool
	r      func(float64) float64
}

// unnormalize maps a grid coordinate in [-1, 1] to pixel units.
func (s *gridSampler) unnormalize(coord float64, size int) float64 {
	r := s.r
	if s.ac {
		return r(r(r(coord+1)/2) * float64(size-1))
	}
	return r(r(r(r(coord+1)*float64(size))-1) / 2)
}

// clip clamps coord to [0, size-1] (NaN stays NaN as std::min/max with
// the bound second do... ATen's clip_coordinates).
func (s *gridSampler) clip(coord float64, size int) float64 {
	return math.Min(float64(size-1), math.Max(coord, 0))
}

// reflect is ATen's reflect_coordinates over [twiceLow/2, twiceHigh/2].
func (s *gridSampler) reflect(coord float64, twiceLow, twiceHigh int) float64 {
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
func (s *gridSampler) padCoord(coord float64, size int) float64 {
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
func (s *gridSampler) at(plane []float64, y, x int) float64 {
	if y < 0 || y >= s.ih || x < 0 || x >= s.iw {
		return 0
	}
	return plane[y*s.iw+x]
}

// sample is one output value at grid point (gx, gy).
func (s *gridSampler) sample(plane []float64, mode int, gx, gy float64) float64 {
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
		rows[i] = cubicInterp(v, tx, r)
	}
	return cubicInterp(rows, ty, r)
}

// bounded is ATen's get_value_bounded: the padded coordinates' value, or
// 0 outside the input.
func (s *gridSampler) bounded(plane []float64, x, y float64) float64 {
	x = s.padCoord(x, s.iw)
	y = s.padCoord(y, s.ih)
	if x != x || y != y || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return 0
	}
	return s.at(plane, int(y), int(x))
}

// cubicInterp is ATen's cubic_interp1d with A = -0.75.
func cubicInterp(v [4]float64, t float64, r func(float64) float64) float64 {
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
