package kernels

import (
	"github.com/gofx/gofx/ops"
)

// Pixel shuffles, ATen's PixelShuffle.cpp: pixel_shuffle and
// pixel_unshuffle, a reshape, a permutation and a reshape.

// registerPixelShuffle registers the kernels of pixel_shuffle.go.
func registerPixelShuffle() {
	registerBoth("aten::pixel_shuffle", pixelShuffle)
	registerBoth("aten::pixel_unshuffle", pixelUnshuffle)
}

// pixelShuffle is aten::pixel_shuffle: (*, C·r², H, W) to (*, C, H·r, W·r).
func pixelShuffle(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	r := c.Int("upscale_factor")
	if x.Dim() < 3 {
		return nil, c.Errorf("self", "pixel_shuffle expects input to have at least 3 dimensions, but got input with %d dimension(s)", x.Dim())
	}
	if r <= 0 {
		return nil, c.Errorf("upscale_factor", "pixel_shuffle expects a positive upscale_factor, but got %d", r)
	}
	s := intsToInt64(x.Shape())
	n := len(s)
	ch, h, w := s[n-3], s[n-2], s[n-1]
	if ch%(r*r) != 0 {
		return nil, c.Errorf("self", "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but input.size(-3)=%d is not divisible by %d", ch, r*r)
	}
	batch := s[:n-3]
	p := &chain{c: c, arg: "self"}
	v := p.call("aten::reshape", x, append(append([]int64{}, batch...), ch/(r*r), r, r, h, w))
	perm := make([]int64, 0, n+2)
	for i := range batch {
		perm = append(perm, int64(i))
	}
	b := int64(len(batch))
	perm = append(perm, b, b+3, b+1, b+4, b+2)
	v = p.call("aten::permute", v, perm)
	return p.result(p.call("aten::clone", p.call("aten::reshape", v, append(append([]int64{}, batch...), ch/(r*r), h*r, w*r))))
}

// pixelUnshuffle is aten::pixel_unshuffle: (*, C, H·r, W·r) to
// (*, C·r², H, W).
func pixelUnshuffle(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	r := c.Int("downscale_factor")
	if x.Dim() < 3 {
		return nil, c.Errorf("self", "pixel_unshuffle expects input to have at least 3 dimensions, but got input with %d dimension(s)", x.Dim())
	}
	if r <= 0 {
		return nil, c.Errorf("downscale_factor", "pixel_unshuffle expects a positive downscale_factor, but got %d", r)
	}
	s := intsToInt64(x.Shape())
	n := len(s)
	ch, h, w := s[n-3], s[n-2], s[n-1]
	if h%r != 0 {
		return nil, c.Errorf("self", "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=%d is not divisible by %d", h, r)
	}
	if w%r != 0 {
		return nil, c.Errorf("self", "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=%d is not divisible by %d", w, r)
	}
	batch := s[:n-3]
	p := &chain{c: c, arg: "self"}
	v := p.call("aten::reshape", x, append(append([]int64{}, batch...), ch, h/r, r, w/r, r))
	perm := make([]int64, 0, n+2)
	for i := range batch {
		perm = append(perm, int64(i))
	}
	b := int64(len(batch))
	perm = append(perm, b, b+2, b+4, b+1, b+3)
	v = p.call("aten::permute", v, perm)
	return p.result(p.call("aten::clone", p.call("aten::reshape", v, append(append([]int64{}, batch...), ch*r*r, h/r, w/r))))
}
