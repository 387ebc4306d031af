package vec

import "math"

// epilogueLoops holds the assembly epilogue loops (each handles a
// multiple of the vector width; the portable code does the rest).
type epilogueLoops struct {
	f32   func(dst *float32, n int, s, lo, hi float32)
	res32 func(dst, r *float32, n int, s, lo, hi float32)
	f64   func(dst *float64, n int, s, lo, hi float64)
	res64 func(dst, r *float64, n int, s, lo, hi float64)
}

// epilogueAsm is the epilogue assembly this CPU and build allow (nil:
// none); it is used while the other loops' assembly is (asm != nil), so
// GOFX_VEC=portable and SetPortable select the portable loop for it too.
var epilogueAsm *epilogueLoops

// AddClamp sets dst[i] to (dst[i] + s) + r[i], then to lo where that is
// below lo and to hi where it is above hi, NaN staying (as Clamp), for
// i < len(dst): the epilogue of a GEMM's or a convolution's output row
// (a row's bias s, a residual r, a ReLU/ReLU6/hardtanh clamp) in one pass.
// r may be nil (no residual); otherwise it must hold len(dst) elements
// and not overlap dst. For no bias pass NoBias (-0, which adds nothing,
// signed zeros included); for no clamp pass NoClamp's bounds.
func AddClamp[T Float](dst, r []T, s, lo, hi T) {
	n := len(dst)
	if n == 0 {
		return
	}
	if r != nil {
		r = r[:n]
	}
	k := 0
	if a := epilogueAsm; a != nil && asm != nil {
		k = vecLen[T](n)
		if k > 0 {
			switch d := any(dst).(type) {
			case []float32:
				s, lo, hi := any(s).(float32), any(lo).(float32), any(hi).(float32)
				if r == nil {
					a.f32(&d[0], k, s, lo, hi)
				} else {
					a.res32(&d[0], &any(r).([]float32)[0], k, s, lo, hi)
				}
			case []float64:
				s, lo, hi := any(s).(float64), any(lo).(float64), any(hi).(float64)
				if r == nil {
					a.f64(&d[0], k, s, lo, hi)
				} else {
					a.res64(&d[0], &any(r).([]float64)[0], k, s, lo, hi)
				}
			}
		}
	}
	if r != nil {
		r = r[k:]
	}
	addClampGo(dst[k:], r, s, lo, hi)
}

// NoBias is the bias of AddClamp that adds nothing: -0 (x + -0 is x for
// every x, -0 included, where x + 0 turns -0 into +0).
func NoBias[T Float]() T { return T(math.Copysign(0, -1)) }

// NoClamp returns the bounds of AddClamp that clamp nothing: -Inf and
// +Inf.
func NoClamp[T Float]() (lo, hi T) { return T(math.Inf(-1)), T(math.Inf(1)) }

// addClampGo is AddClamp's portable loop.
func addClampGo[T Float](dst, r []T, s, lo, hi T) {
	for i, v := range dst {
		v += s
		if r != nil {
			v += r[i]
		}
		if v < lo {
			v = lo
		}
		if v > hi {
			v = hi
		}
		dst[i] = v
	}
}
