package vec

// The float32 row loops of the normalizations, softmax and the max/min
// reductions. Sums accumulate in float64; the maps round every
// operation to float32 (no fused multiply-add), so that the assembly and
// the portable loops agree bit for bit.

// rows returns the row loops in assembly, or nil for the portable ones.
func rows() *rowLoops {
	if a := asm; a != nil {
		return a.rows32
	}
	return nil
}

// Sum returns the sum of x accumulated in float64: sixteen partial sums
// (element i to sum i%16) combined pairwise, then the elements past the
// last multiple of 16 in order.
func Sum(x []float32) float64 {
	k := len(x) &^ 15
	var s float64
	if r := rows(); r != nil && k > 0 {
		s = r.sum(&x[0], k)
	} else {
		s = sumGo(x[:k])
	}
	for _, v := range x[k:] {
		s += float64(v)
	}
	return s
}

// SqDev returns the sum of (x[i]-mean)² in float64, with Sum's order and
// each term one fused multiply-add.
func SqDev(x []float32, mean float64) float64 {
	k := len(x) &^ 15
	var s float64
	if r := rows(); r != nil && k > 0 {
		s = r.sqDev(&x[0], k, mean)
	} else {
		s = sqDevGo(x[:k], mean)
	}
	for _, v := range x[k:] {
		d := float64(v) - mean
		s = fma(d, d, s)
	}
	return s
}

// Moments returns the mean and the biased variance of x, in two passes
// (Sum, then SqDev about the mean) with float64 accumulation; NaN for an
// empty x.
func Moments(x []float32) (mean, variance float64) {
	n := float64(len(x))
	mean = Sum(x) / n
	return mean, SqDev(x, mean) / n
}

// Max returns the largest element of a non-empty x, NaN when x holds a
// NaN; the sign of a zero result is unspecified when x holds both zeros.
func Max(x []float32) float32 { return extreme(x, true) }

// Min returns the smallest element of a non-empty x, NaN when x holds a
// NaN; the sign of a zero result is unspecified when x holds both zeros.
func Min(x []float32) float32 { return extreme(x, false) }

func extreme(x []float32, greater bool) float32 {
	k := len(x) &^ 7
	if r := rows(); r != nil && k > 0 {
		var m float32
		if greater {
			m = r.max(&x[0], k)
		} else {
			m = r.min(&x[0], k)
		}
		return extremeGo(x[k:], m, greater)
	}
	return extremeGo(x[1:], x[0], greater)
}

// ScaleShift sets dst[i] = x[i]*s + t, rounding the product and the sum,
// for i < len(dst); x may be dst.
func ScaleShift(dst, x []float32, s, t float32) {
	n := len(dst)
	x = x[:n]
	k := 0
	if r := rows(); r != nil {
		if k = n &^ 7; k > 0 {
			r.scaleShift(&dst[0], &x[0], k, s, t)
		}
	}
	scaleShiftGo(dst[k:], x[k:], s, t)
}

// Affine sets dst[i] = (x[i]*s + t)*w[i] + b[i], each operation rounded,
// for i < len(dst); x may be dst.
func Affine(dst, x, w, b []float32, s, t float32) {
	n := len(dst)
	x, w, b = x[:n], w[:n], b[:n]
	k := 0
	if r := rows(); r != nil {
		if k = n &^ 7; k > 0 {
			r.affine(&dst[0], &x[0], &w[0], &b[0], k, s, t)
		}
	}
	affineGo(dst[k:], x[k:], w[k:], b[k:], s, t)
}

// SubSub sets dst[i] = (x[i] - a) - b, each difference rounded, for
// i < len(dst); x may be dst. It is log_softmax's last pass.
func SubSub(dst, x []float32, a, b float32) {
	n := len(dst)
	x = x[:n]
	k := 0
	if r := rows(); r != nil {
		if k = n &^ 7; k > 0 {
			r.subSub(&dst[0], &x[0], k, a, b)
		}
	}
	for i := k; i < n; i++ {
		dst[i] = (x[i] - a) - b
	}
}

// SubSubV sets dst[i] = (x[i] - a[i]) - b[i], each difference rounded,
// for i < len(dst); x, a and b must hold len(dst) elements, and x may be
// dst. It is the last pass of log_softmax along a dim other than the
// last.
func SubSubV(dst, x, a, b []float32) {
	n := len(dst)
	x, a, b = x[:n], a[:n], b[:n]
	k := 0
	if r := rows(); r != nil {
		if k = n &^ 7; k > 0 {
			r.subSubV(&dst[0], &x[0], &a[0], &b[0], k)
		}
	}
	for i := k; i < n; i++ {
		dst[i] = (x[i] - a[i]) - b[i]
	}
}

// SubExpAcc sets dst[i] = e^(x[i]-m[i]), the difference rounded to
// float32 and then Exp's e^x, and adds it to acc[i] in float64, for
// i < len(dst); x and m must hold len(dst) elements and acc at least as
// many. It is the second pass of softmax along a dim other than the
// last, down a block of columns with their maxima m. dst may be x.
func SubExpAcc(dst, x, m []float32, acc []float64) {
	n := len(dst)
	x, m, acc = x[:n], m[:n], acc[:n]
	k := 0
	if r := rows(); r != nil {
		if k = n &^ (r.expLanes - 1); k > 0 {
			r.subExpAcc(&dst[0], &x[0], &m[0], &acc[0], k)
		}
	}
	for i := k; i < n; i++ {
		e := exp32(x[i] - m[i])
		dst[i] = e
		acc[i] += float64(e)
	}
}

// SubExpSum sets dst[i] = e^(x[i]-m) for i < len(x), the difference
// rounded to float32 and then Exp's e^x, and returns the sum of those
// values accumulated in float64 in Sum's order. dst may be nil (the sum
// alone: log_softmax's) or x. It is softmax's second pass, m the row's
// maximum.
func SubExpSum(dst, x []float32, m float32) float64 {
	n := len(x)
	if dst != nil {
		dst = dst[:n]
	}
	k := n &^ 15
	var s float64
	switch r := rows(); {
	case r != nil && k > 0 && dst != nil:
		s = r.subExpSum(&dst[0], &x[0], k, m)
	case r != nil && k > 0:
		s = r.subExpSumOnly(&x[0], k, m)
	default:
		s = subExpSumGo(dst, x[:k], m)
	}
	for i := k; i < n; i++ {
		e := exp32(x[i] - m)
		if dst != nil {
			dst[i] = e
		}
		s += float64(e)
	}
	return s
}

// Exp sets dst[i] = e^x[i] for i < len(dst), within 2 ulp of the exact
// value (subnormal results aside, whose error is below their spacing):
// Cephes' expf, +Inf above 88.72, 0 below -103.98, NaN for NaN. x may be
// dst.
func Exp(dst, x []float32) { expFamily(dst, x, expKind) }

// Sigmoid sets dst[i] = 1/(e^-x[i] + 1) for i < len(dst), with Exp's e^-x
// and the sum and quotient rounded to float32; x may be dst.
func Sigmoid(dst, x []float32) { expFamily(dst, x, sigmoidKind) }

// Silu sets dst[i] = x[i]/(e^-x[i] + 1) for i < len(dst), with Exp's e^-x
// and the sum and quotient rounded to float32; x may be dst.
func Silu(dst, x []float32) { expFamily(dst, x, siluKind) }

// The functions of the exp family.
const (
	expKind = iota
	sigmoidKind
	siluKind
)

func expFamily(dst, x []float32, kind int) {
	n := len(dst)
	x = x[:n]
	k := 0
	if r := rows(); r != nil {
		if k = n &^ (r.expLanes - 1); k > 0 {
			f := r.exp
			switch kind {
			case sigmoidKind:
				f = r.sigmoid
			case siluKind:
				f = r.silu
			}
			f(&dst[0], &x[0], k)
		}
	}
	switch kind {
	case expKind:
		for i := k; i < n; i++ {
			dst[i] = exp32(x[i])
		}
	case sigmoidKind:
		for i := k; i < n; i++ {
			dst[i] = 1 / (exp32(-x[i]) + 1)
		}
	case siluKind:
		for i := k; i < n; i++ {
			dst[i] = x[i] / (exp32(-x[i]) + 1)
		}
	}
}
