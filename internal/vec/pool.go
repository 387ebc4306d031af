package vec

// poolLoops holds the assembly max-folding loops (each handles a multiple
// of the vector width; the portable code does the rest).
type poolLoops struct {
	fold32    func(dst, x *float32, n int)
	fold64    func(dst, x *float64, n int)
	foldArg32 func(dst *float32, arg *int32, x *float32, n int, tap int32)
	foldArg64 func(dst *float64, arg *int64, x *float64, n int, tap int64)
	deint32   func(even, odd, x *float32, n int)
	fold3_32  func(dst, x, y, z *float32, n int)
	fold3_64  func(dst, x, y, z *float64, n int)
	fold3A32  func(dst *float32, arg *int32, x, y, z *float32, n int, tap int32)
	fold3A64  func(dst *float64, arg *int64, x, y, z *float64, n int, tap int64)
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

// Deinterleave2 sets even[j] = x[2j] and odd[j] = x[2j+1] for
// j < len(even), splitting a row into the two phases of a stride of 2; x
// must hold 2*len(even) elements and odd len(even). The slices must not
// overlap.
func Deinterleave2[T Float](even, odd, x []T) {
	n := len(even)
	if n == 0 {
		return
	}
	odd, x = odd[:n], x[:2*n]
	k := 0
	if a := poolAsm; a != nil && asm != nil {
		if e, ok := any(even).([]float32); ok {
			if k = n &^ 7; k > 0 {
				a.deint32(&e[0], &any(odd).([]float32)[0], &any(x).([]float32)[0], k)
			}
		}
	}
	for j := k; j < n; j++ {
		even[j], odd[j] = x[2*j], x[2*j+1]
	}
}

// Phases2 splits the row xr, padded with pad zeros before it, into the
// two phases of a stride of 2: p0[t] = xr[2t − pad] and p1[t] =
// xr[2t + 1 − pad], zero where that column is outside xr. The even
// columns of xr go to one phase and the odd ones to the other in one
// Deinterleave2. p0 and p1 have equal lengths and may be the same slice
// (a phase the caller does not need: it then holds either).
func Phases2[T Float](p0, p1, xr []T, pad int) {
	row := [2][]T{p0, p1[:len(p0)]}
	q := len(row[0])
	re := pad & 1 // the residue whose columns read even input columns
	ev, od := row[re], row[1-re]
	oe := (pad - re) >> 1           // even column 2j goes to ev[j+oe]
	oo := (pad + 1 - (1 - re)) >> 1 // odd column 2j+1 goes to od[j+oo]
	ne, no := (len(xr)+1)/2, len(xr)/2
	elo, ehi := max(0, -oe), min(ne, q-oe)
	olo, ohi := max(0, -oo), min(no, q-oo)
	ehi, ohi = max(ehi, elo), max(ohi, olo)
	// Both phases at once where both are in range, the ends one by one.
	jlo, jhi := max(elo, olo), min(ehi, ohi)
	if jhi < jlo {
		jhi = jlo
	}
	clamp := func(v int) int { return min(max(v, 0), q) }
	clear(ev[:clamp(elo+oe)])
	clear(ev[clamp(ehi+oe):])
	clear(od[:clamp(olo+oo)])
	clear(od[clamp(ohi+oo):])
	for j := elo; j < min(jlo, ehi); j++ {
		ev[j+oe] = xr[2*j]
	}
	for j := max(jhi, elo); j < ehi; j++ {
		ev[j+oe] = xr[2*j]
	}
	for j := olo; j < min(jlo, ohi); j++ {
		od[j+oo] = xr[2*j+1]
	}
	for j := max(jhi, olo); j < ohi; j++ {
		od[j+oo] = xr[2*j+1]
	}
	if jhi > jlo {
		Deinterleave2(ev[jlo+oe:jhi+oe], od[jlo+oo:jhi+oo], xr[2*jlo:2*jhi])
	}
}

// Even sets dst[j] = x[2j] for j < len(dst): one phase of a stride of
// 2, as a strided convolution reads it. x must hold 2*len(dst)-1
// elements. The slices must not overlap.
func Even[T Float](dst, x []T) {
	EvenRows(dst, 0, x, 0, 1, len(dst))
}

// EvenRows is Even on rows rows of matrices: dst[r*ldd+j] = x[r*ldx+2j]
// for r < rows, j < n. x must hold (rows−1)·ldx + 2n−1 elements, dst
// (rows−1)·ldd + n. The slices must not overlap.
func EvenRows[T Float](dst []T, ldd int, x []T, ldx, rows, n int) {
	if rows <= 0 || n <= 0 {
		return
	}
	dst, x = dst[:(rows-1)*ldd+n], x[:(rows-1)*ldx+2*n-1]
	if a := asm; a != nil {
		if d, ok := any(dst).([]float32); ok {
			xs := any(x).([]float32)
			if a.evenRows32 != nil {
				a.evenRows32(&d[0], ldd, &xs[0], ldx, rows, n)
				return
			}
			// The AVX2 loop reads 16 inputs a step: the last step
			// must not read past x's row.
			if k := (n - 1) &^ 7; k > 0 && a.even32 != nil {
				for r := range rows {
					a.even32(&d[r*ldd], &xs[r*ldx], k)
					evenGo(d[r*ldd+k:r*ldd+n], xs[r*ldx+2*k:])
				}
				return
			}
		}
	}
	for r := range rows {
		evenGo(dst[r*ldd:r*ldd+n], x[r*ldx:])
	}
}

func evenGo[T Float](dst, x []T) {
	x = x[:2*len(dst)-1]
	for j := range dst {
		dst[j] = x[2*j]
	}
}

// MaxFold3 is MaxFold(dst, x), MaxFold(dst, y), MaxFold(dst, z) in one
// pass (three taps of a window row).
func MaxFold3[T Float](dst, x, y, z []T) {
	n := len(dst)
	if n == 0 {
		return
	}
	x, y, z = x[:n], y[:n], z[:n]
	if a := poolAsm; a != nil && asm != nil {
		if k := vecLen[T](n); k > 0 {
			switch d := any(dst).(type) {
			case []float32:
				xs, ys, zs := any(x).([]float32), any(y).([]float32), any(z).([]float32)
				a.fold3_32(&d[0], &xs[0], &ys[0], &zs[0], k)
				if k < n { // idempotent: the last vector again
					a.fold3_32(&d[n-8], &xs[n-8], &ys[n-8], &zs[n-8], 8)
				}
			case []float64:
				xs, ys, zs := any(x).([]float64), any(y).([]float64), any(z).([]float64)
				a.fold3_64(&d[0], &xs[0], &ys[0], &zs[0], k)
				if k < n {
					a.fold3_64(&d[n-4], &xs[n-4], &ys[n-4], &zs[n-4], 4)
				}
			}
			return
		}
	}
	maxFoldGo(dst, x)
	maxFoldGo(dst, y)
	maxFoldGo(dst, z)
}

// MaxFold3Arg32 is MaxFoldArg32 with x, y and z as taps tap, tap+1 and
// tap+2, in one pass.
func MaxFold3Arg32(dst []float32, arg []int32, x, y, z []float32, tap int32) {
	n := len(dst)
	if n == 0 {
		return
	}
	arg, x, y, z = arg[:n], x[:n], y[:n], z[:n]
	if a := poolAsm; a != nil && asm != nil {
		if k := n &^ 7; k > 0 {
			a.fold3A32(&dst[0], &arg[0], &x[0], &y[0], &z[0], k, tap)
			if k < n {
				a.fold3A32(&dst[n-8], &arg[n-8], &x[n-8], &y[n-8], &z[n-8], 8, tap)
			}
			return
		}
	}
	maxFoldArgGo(dst, arg, x, tap)
	maxFoldArgGo(dst, arg, y, tap+1)
	maxFoldArgGo(dst, arg, z, tap+2)
}

// MaxFold3Arg64 is MaxFold3Arg32 for float64 values and int64 taps.
func MaxFold3Arg64(dst []float64, arg []int64, x, y, z []float64, tap int64) {
	n := len(dst)
	if n == 0 {
		return
	}
	arg, x, y, z = arg[:n], x[:n], y[:n], z[:n]
	if a := poolAsm; a != nil && asm != nil {
		if k := n &^ 3; k > 0 {
			a.fold3A64(&dst[0], &arg[0], &x[0], &y[0], &z[0], k, tap)
			if k < n {
				a.fold3A64(&dst[n-4], &arg[n-4], &x[n-4], &y[n-4], &z[n-4], 4, tap)
			}
			return
		}
	}
	maxFoldArgGo(dst, arg, x, tap)
	maxFoldArgGo(dst, arg, y, tap+1)
	maxFoldArgGo(dst, arg, z, tap+2)
}
