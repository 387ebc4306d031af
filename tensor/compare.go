package tensor

import (
	"math"
	"slices"
)

// AllClose reports whether a and b have the same shape and every pair of
// elements satisfies |a - b| <= atol + rtol*|b|, as torch.allclose does
// (NaN is never close to anything unless equalNaN; infinities are close only
// to the same infinity). Values are compared as float64.
func AllClose(a, b *Tensor, rtol, atol float64, equalNaN bool) bool {
	if !slices.Equal(a.shape, b.shape) {
		return false
	}
	av, bv := a.Float64s(), b.Float64s()
	for i := range av {
		x, y := av[i], bv[i]
		if x == y {
			continue
		}
		if math.IsNaN(x) || math.IsNaN(y) {
			if equalNaN && math.IsNaN(x) && math.IsNaN(y) {
				continue
			}
			return false
		}
		if math.IsInf(x, 0) || math.IsInf(y, 0) {
			return false
		}
		if math.Abs(x-y) > atol+rtol*math.Abs(y) {
			return false
		}
	}
	return true
}

// Equal reports whether a and b have the same dtype, shape and elements
// (NaN equals NaN here), as a strict test of identity of values.
func Equal(a, b *Tensor) bool {
	if a.dtype != b.dtype || !slices.Equal(a.shape, b.shape) {
		return false
	}
	if a.dtype.IsFloat() {
		av, bv := a.Float64s(), b.Float64s()
		for i := range av {
			if av[i] != bv[i] && !(math.IsNaN(av[i]) && math.IsNaN(bv[i])) {
				return false
			}
		}
		return true
	}
	return slices.Equal(a.Int64s(), b.Int64s())
}
