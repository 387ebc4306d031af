package tensor

import "math"

// Half is an IEEE 754 binary16 value (torch.float16), stored as its bits.
type Half uint16

// BHalf is a bfloat16 value (torch.bfloat16): the upper 16 bits of a float32.
type BHalf uint16

// HalfFromFloat32 rounds f to the nearest binary16 value, ties to even, as
// c10::Half does; values beyond the range become infinities and NaN stays NaN.
func HalfFromFloat32(f float32) Half {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	man := b & 0x7fffff
	if exp == 0xff { // inf or NaN
		if man != 0 {
			return Half(sign | 0x7e00)
		}
		return Half(sign | 0x7c00)
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return Half(sign | 0x7c00)
	}
	if e <= 0 {
		// Subnormal half (or zero): shift the implicit-one mantissa.
		if e < -10 {
			return Half(sign)
		}
		m := man | 0x800000
		shift := uint32(14 - e)
		h := m >> shift
		rem := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && h&1 == 1) {
			h++
		}
		return Half(sign | uint16(h))
	}
	h := uint32(e)<<10 | man>>13
	rem := man & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++ // may carry into the exponent, up to infinity: correct
	}
	return Half(sign | uint16(h))
}

// Float32 returns h as a float32 (exactly).
func (h Half) Float32() float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp == 0:
		if man == 0 {
			return math.Float32frombits(sign)
		}
		f := float32(man) / 1024 / 16384 // man * 2^-24
		if sign != 0 {
			return -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | man<<13)
}

// BHalfFromFloat32 rounds f to the nearest bfloat16 value, ties to even, as
// c10::BFloat16 does; NaN becomes the canonical quiet NaN.
func BHalfFromFloat32(f float32) BHalf {
	if f != f {
		return 0x7fc0
	}
	b := math.Float32bits(f)
	b += 0x7fff + (b>>16)&1
	return BHalf(b >> 16)
}

// Float32 returns b as a float32 (exactly).
func (b BHalf) Float32() float32 { return math.Float32frombits(uint32(b) << 16) }
