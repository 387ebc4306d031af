package vec

import "math"

// The portable loops: plain Go, one switch per call (not per element).
// Every CPU runs them for the tails of the assembly loops, and the purego
// build and CPUs without AVX2 for everything.

func binaryGo[T Float](op Op, dst, x, y []T) {
	x, y = x[:len(dst)], y[:len(dst)]
	switch op {
	case Add:
		for i := range dst {
			dst[i] = x[i] + y[i]
		}
	case Sub:
		for i := range dst {
			dst[i] = x[i] - y[i]
		}
	case Mul:
		for i := range dst {
			dst[i] = x[i] * y[i]
		}
	case Div:
		for i := range dst {
			dst[i] = x[i] / y[i]
		}
	}
}

func binaryScalarGo[T Float](op Op, dst, x []T, s T) {
	x = x[:len(dst)]
	switch op {
	case Add:
		for i := range dst {
			dst[i] = x[i] + s
		}
	case Sub:
		for i := range dst {
			dst[i] = x[i] - s
		}
	case Mul:
		for i := range dst {
			dst[i] = x[i] * s
		}
	case Div:
		for i := range dst {
			dst[i] = x[i] / s
		}
	}
}

func scalarBinaryGo[T Float](op Op, dst []T, s T, y []T) {
	y = y[:len(dst)]
	switch op {
	case Add:
		for i := range dst {
			dst[i] = s + y[i]
		}
	case Sub:
		for i := range dst {
			dst[i] = s - y[i]
		}
	case Mul:
		for i := range dst {
			dst[i] = s * y[i]
		}
	case Div:
		for i := range dst {
			dst[i] = s / y[i]
		}
	}
}

func reluGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i, v := range x {
		if v < 0 {
			v = 0
		}
		dst[i] = v
	}
}

func clampGo[T Float](dst, x []T, lo, hi T) {
	x = x[:len(dst)]
	for i, v := range x {
		if v < lo {
			v = lo
		}
		if v > hi {
			v = hi
		}
		dst[i] = v
	}
}

// The portable row loops of rows.go, in the assembly's order.

// sumGo is sumF32: len(x) a multiple of 16.
func sumGo(x []float32) float64 {
	var acc [16]float64
	for i := 0; i < len(x); i += 16 {
		for l, v := range x[i : i+16] {
			acc[l] += float64(v)
		}
	}
	return combine16(&acc)
}

// sqDevGo is sqDevF32: len(x) a multiple of 16.
func sqDevGo(x []float32, mean float64) float64 {
	var acc [16]float64
	for i := 0; i < len(x); i += 16 {
		for l, v := range x[i : i+16] {
			d := float64(v) - mean
			acc[l] = fma(d, d, acc[l])
		}
	}
	return combine16(&acc)
}

// subExpSumGo is subExpSumF32 (dst nil: subExpSumOnlyF32): len(x) a
// multiple of 16.
func subExpSumGo(dst, x []float32, m float32) float64 {
	var acc [16]float64
	for i := 0; i < len(x); i += 16 {
		for l, v := range x[i : i+16] {
			e := exp32(v - m)
			if dst != nil {
				dst[i+l] = e
			}
			acc[l] += float64(e)
		}
	}
	return combine16(&acc)
}

// combine16 adds the sixteen partial sums as the assembly does: four
// accumulators of four lanes, (a0+a1)+(a2+a3), then (l0+l2)+(l1+l3).
func combine16(acc *[16]float64) float64 {
	var c [4]float64
	for l := range 4 {
		c[l] = (acc[l] + acc[4+l]) + (acc[8+l] + acc[12+l])
	}
	return (c[0] + c[2]) + (c[1] + c[3])
}

func extremeGo(x []float32, m float32, greater bool) float32 {
	if m != m {
		return m
	}
	for _, v := range x {
		switch {
		case v != v:
			return v
		case greater && v > m, !greater && v < m:
			m = v
		}
	}
	return m
}

func scaleShiftGo(dst, x []float32, s, t float32) {
	x = x[:len(dst)]
	for i, v := range x {
		dst[i] = float32(v*s) + t
	}
}

func affineGo(dst, x, w, b []float32, s, t float32) {
	x, w, b = x[:len(dst)], w[:len(dst)], b[:len(dst)]
	for i, v := range x {
		dst[i] = float32(float32(float32(v*s)+t)*w[i]) + b[i]
	}
}

// The constants of exp32 (and of the assembly's expc<>).
const (
	expHi    = 89
	expLo    = -104
	expLog2e = 1.44269504088896341
	expC1    = 0.693359375
	expC2    = -2.12194440e-4
	expP0    = 1.9875691500e-4
	expP1    = 1.3981999507e-3
	expP2    = 8.3334519073e-3
	expP3    = 4.1665795894e-2
	expP4    = 1.6666665459e-1
	expP5    = 5.0000001201e-1
)

// exp32 is e^x with the assembly's steps (expSteps in _gen): Cephes'
// expf, every operation rounded to float32, the fused multiply-adds once.
func exp32(x float32) float32 {
	if x != x {
		return x
	}
	a := min(x, expHi)
	a = max(a, expLo)
	nf := float32(math.RoundToEven(float64(float32(a * expLog2e))))
	a = fma32(nf, -expC1, a)
	a = fma32(nf, -expC2, a)
	z := float32(a * a)
	d := fma32(a, expP0, expP1)
	d = fma32(a, d, expP2)
	d = fma32(a, d, expP3)
	d = fma32(a, d, expP4)
	d = fma32(a, d, expP5)
	d = fma32(z, d, a)
	d += 1
	n := int32(nf)
	n1 := n >> 1
	d *= math.Float32frombits(uint32(n1+127) << 23)
	d *= math.Float32frombits(uint32(n-n1+127) << 23)
	return d
}

// fma32 is a*b + c rounded once to float32, as VFMADD*PS computes it.
// The product is exact in float64; the sum's float64 rounding s and its
// error e (TwoSum) decide the one case where rounding s again to float32
// could differ: s exactly halfway between two float32 with e nonzero.
func fma32(a, b, c float32) float32 {
	p, cc := float64(a)*float64(b), float64(c)
	s := p + cc
	bb := s - p
	e := (p - (s - bb)) + (cc - bb)
	r := float32(s)
	if e == 0 || float64(r) == s || math.IsInf(s, 0) || math.IsInf(float64(r), 0) {
		return r
	}
	// The float32 on s's other side from r.
	o := math.Nextafter32(r, float32(math.Inf(1)))
	if float64(r) > s {
		o = math.Nextafter32(r, float32(math.Inf(-1)))
	}
	if (float64(r)+float64(o))/2 != s {
		return r // not a tie: one rounding of s is the exact value's
	}
	// A tie in s but not in the exact sum: round toward the error.
	if (e > 0) == (o > r) {
		return o
	}
	return r
}

// fma is math.FMA: one rounding, as the assembly's VFMADD231PD.
func fma(x, y, z float64) float64 { return math.FMA(x, y, z) }
