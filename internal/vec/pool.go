package vec

// poolLoops holds the assembly max-folding loops (each handles a multiple
// of the vector width; the portable code does the rest).
type poolLoops struct {
	fold32    func(dst, x *float32, n int)
	fold64    func(dst, x *float64, n int)
	foldArg32 func(dst *float32, arg *int32, x *float32, n int, tap int32)
	foldArg64 func(dst *float64, arg *int64, x *float64, n int, tap int64)
}

// poolAsm is the max-folding assembly this CPU and build allow (nil:
// none); it is used while the other loops' assembly is (asm != nil), so
// GOFX_VEC=portable and SetPortable select the portable loops for it too.
var poolAsm *poolLoops

// MaxFold sets dst[i] = x[i] where x[i] > dst[i] or x[i] is NaN, for
// i < len(dst): one step of a window maximum taken in window order as
// ATen's max pooling loops do (a NaN wins and a later NaN replaces an
// earlier one; among equal values, signed zeros included, the earlier
// stays). x must hold at least len(dst) elements and must not overlap dst
// (the assembly handles a tail by folding the last whole vector again,
// which changes nothing where it was already folded).
func MaxFold[T Float](dst, x []T) {
	n := len(dst)
	if n == 0 {
		return
	}
	x = x[:n]
	if a := poolAsm; a != nil && asm != nil {
		if k := vecLen[T](n); k > 0 {
			// The fold is idempotent, so the tail is the last whole
			// vector, overlapping the others.
			switch d := any(dst).(type) {
			case []float32:
				xs := any(x).([]float32)
				a.fold32(&d[0], &xs[0], k)
				if k < n {
					a.fold32(&d[n-8], &xs[n-8], 8)
				}
			case []float64:
				xs := any(x).([]float64)
				a.fold64(&d[0], &xs[0], k)
				if k < n {
					a.fold64(&d[n-4], &xs[n-4], 4)
				}
			}
			return
		}
	}
	maxFoldGo(dst, x)
}

// MaxFoldArg32 is MaxFold that also sets arg[i] = tap where dst[i]
// changes: run over a window's taps in order, arg ends holding the tap
// of each maximum. arg must hold at least len(dst) elements.
func MaxFoldArg32(dst []float32, arg []int32, x []float32, tap int32) {
	n := len(dst)
	if n == 0 {
		return
	}
	x, arg = x[:n], arg[:n]
	if a := poolAsm; a != nil && asm != nil {
		if k := n &^ 7; k > 0 {
			a.foldArg32(&dst[0], &arg[0], &x[0], k, tap)
			if k < n { // idempotent: the last vector again
				a.foldArg32(&dst[n-8], &arg[n-8], &x[n-8], 8, tap)
			}
			return
		}
	}
	maxFoldArgGo(dst, arg, x, tap)
}

// MaxFoldArg64 is MaxFoldArg32 for float64 values and int64 taps.
func MaxFoldArg64(dst []float64, arg []int64, x []float64, tap int64) {
	n := len(dst)
	if n == 0 {
		return
	}
	x, arg = x[:n], arg[:n]
	if a := poolAsm; a != nil && asm != nil {
		if k := n &^ 3; k > 0 {
			a.foldArg64(&dst[0], &arg[0], &x[0], k, tap)
			if k < n { // idempotent: the last vector again
				a.foldArg64(&dst[n-4], &arg[n-4], &x[n-4], 4, tap)
			}
			return
		}
	}
	maxFoldArgGo(dst, arg, x, tap)
}

func maxFoldGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i, v := range x {
		if v > dst[i] || v != v {
			dst[i] = v
		}
	}
}

func maxFoldArgGo[T Float, A int32 | int64](dst []T, arg []A, x []T, tap A) {
	x, arg = x[:len(dst)], arg[:len(dst)]
	for i, v := range x {
		if v > dst[i] || v != v {
			dst[i], arg[i] = v, tap
		}
	}
}
