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
// stays). x must hold at least len(dst) elements and must not overlap dst.
func MaxFold[T Float](dst, x []T) {
	n := len(dst)
	if n == 0 {
		return
	}
	x = x[:n]
	k := 0
	if a := poolAsm; a != nil && asm != nil {
		k = vecLen[T](n)
		if k > 0 {
			switch d := any(dst).(type) {
			case []float32:
				a.fold32(&d[0], &any(x).([]float32)[0], k)
			case []float64:
				a.fold64(&d[0], &any(x).([]float64)[0], k)
			}
		}
	}
	maxFoldGo(dst[k:], x[k:])
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
	k := 0
	if a := poolAsm; a != nil && asm != nil {
		if k = n &^ 7; k > 0 {
			a.foldArg32(&dst[0], &arg[0], &x[0], k, tap)
		}
	}
	maxFoldArgGo(dst[k:], arg[k:], x[k:], tap)
}

// MaxFoldArg64 is MaxFoldArg32 for float64 values and int64 taps.
func MaxFoldArg64(dst []float64, arg []int64, x []float64, tap int64) {
	n := len(dst)
	if n == 0 {
		return
	}
	x, arg = x[:n], arg[:n]
	k := 0
	if a := poolAsm; a != nil && asm != nil {
		if k = n &^ 3; k > 0 {
			a.foldArg64(&dst[0], &arg[0], &x[0], k, tap)
		}
	}
	maxFoldArgGo(dst[k:], arg[k:], x[k:], tap)
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
