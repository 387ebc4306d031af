package kernels

import (
	"math"

	"github.com/gofx/gofx/internal/vec"
)

// The row loops of 2-d max and average pooling over float32 and float64
// planes. A window's taps along a row are, across the output columns of
// the row, a strided run of the input row; the input row is split once
// into its stride's phases (for stride 2, even and odd elements), which
// makes every tap a contiguous run, so a whole output row folds tap by tap
// in window order with internal/vec's loops: MaxFold and MaxFoldArg for
// max pooling, Add then one division for average pooling. Per element,
// the operations and their order are those of the one-window-at-a-time
// loop (maxPoolAt, avgPoolAt), so results agree bit for bit; the edge
// columns whose windows leave the input run that loop.

// interiorCols returns the output columns [lo, hi) whose windows along a
// row of in elements, starting at o*stride-pad with taps every dil for k
// taps, lie inside the row.
func interiorCols(in, out, k, stride, pad, dil int) (lo, hi int) {
	lo = min((pad+stride-1)/stride, out)
	hi = floorDivInt(in-1+pad-(k-1)*dil, stride) + 1
	hi = max(min(hi, out), lo)
	return lo, hi
}

// planePhases holds one input plane with each row split into the phases
// of a stride s: phase q of row h holds elements q, q+s, q+2s, ....
type planePhases[T float32 | float64] struct {
	s, w, pw int // stride, row length, phase row length ⌈w/s⌉
	buf      []T
	plane    []T // the plane itself when s is 1
}

// load splits the rows of plane (h rows of p.w elements) into phases.
func (p *planePhases[T]) load(plane []T, h int) {
	if p.s == 1 {
		p.plane = plane
		return
	}
	p.buf = grow(p.buf, h*p.s*p.pw)
	for r := range h {
		row := plane[r*p.w : (r+1)*p.w]
		ph := p.buf[r*p.s*p.pw : (r+1)*p.s*p.pw]
		if p.s == 2 {
			half := len(row) / 2
			vec.Deinterleave2(ph[:half], ph[p.pw:p.pw+half], row)
			if len(row)%2 == 1 {
				ph[half] = row[len(row)-1]
			}
			continue
		}
		for i, v := range row {
			ph[(i%p.s)*p.pw+i/p.s] = v
		}
	}
}

// run returns n elements of row r starting at column off + s*j0 (off may
// be negative, the run staying inside the row): the run of a tap at
// offset off for output columns from j0.
func (p *planePhases[T]) run(r, off, j0, n int) []T {
	if p.s == 1 {
		b := r*p.w + off + j0
		return p.plane[b : b+n]
	}
	q := off - floorDivInt(off, p.s)*p.s
	j := j0 + floorDivInt(off, p.s)
	b := (r*p.s+q)*p.pw + j
	return p.buf[b : b+n]
}

// grow returns s with length n, reallocated when too short.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// maxPoolAt is the maximum of output (oh, ow)'s window in src and its
// flat index, one tap at a time in window order: NaN wins (a later NaN
// replacing an earlier one), the first of equal values stays, and a
// window of -inf gives its first element.
func maxPoolAt[T float32 | float64](p *pool, src []T, oh, ow int) (T, int) {
	h0, w0 := oh*p.sH-p.pH, ow*p.sW-p.pW
	h1 := min(h0+(p.kH-1)*p.dH+1, p.inH)
	w1 := min(w0+(p.kW-1)*p.dW+1, p.inW)
	for h0 < 0 {
		h0 += p.dH
	}
	for w0 < 0 {
		w0 += p.dW
	}
	best := h0*p.inW + w0
	m := T(math.Inf(-1))
	for ih := h0; ih < h1; ih += p.dH {
		for iw := w0; iw < w1; iw += p.dW {
			i := ih*p.inW + iw
			if v := src[i]; v > m || v != v {
				m, best = v, i
			}
		}
	}
	return m, best
}

// maxPoolPlanes is 2-d max pooling over every plane of x into out and,
// when idx is not nil, the flat index of each maximum into idx. foldArg
// and fold3Arg are vec.MaxFoldArg32 and MaxFold3Arg32 (or 64), A their
// tap type; a row of three taps folds in one pass.
func maxPoolPlanes[T float32 | float64, A int32 | int64](p *pool, x, out []T, idx []int64,
	foldArg func([]T, []A, []T, A), fold3Arg func([]T, []A, []T, []T, []T, A)) {
	lin, lout := p.inH*p.inW, p.outH*p.outW
	cLo, cHi := interiorCols(p.inW, p.outW, p.kW, p.sW, p.pW, p.dW)
	parallel(p.planes, p.planes*lout*p.kH*p.kW, func(lo, hi int) {
		ph := &planePhases[T]{s: p.sW, w: p.inW, pw: (p.inW + p.sW - 1) / p.sW}
		var arg []A
		var tapOff []int
		if idx != nil {
			arg = make([]A, cHi-cLo)
			tapOff = make([]int, p.kH*p.kW)
		}
		ninf := T(math.Inf(-1))
		for pl := lo; pl < hi; pl++ {
			src := x[pl*lin : (pl+1)*lin]
			dst := out[pl*lout : (pl+1)*lout]
			var di []int64
			if idx != nil {
				di = idx[pl*lout : (pl+1)*lout]
			}
			if cLo < cHi {
				ph.load(src, p.inH)
			}
			for oh := range p.outH {
				row := dst[oh*p.outW : (oh+1)*p.outW]
				h0 := oh*p.sH - p.pH
				h1 := min(h0+(p.kH-1)*p.dH+1, p.inH)
				for h0 < 0 {
					h0 += p.dH
				}
				lo, hi := cLo, cHi
				if h0 >= h1 {
					lo, hi = 0, 0
				}
				for ow := range p.outW {
					if ow >= lo && ow < hi {
						continue
					}
					m, best := maxPoolAt(p, src, oh, ow)
					row[ow] = m
					if di != nil {
						di[oh*p.outW+ow] = int64(best)
					}
				}
				if lo >= hi {
					continue
				}
				d := row[lo:hi]
				for i := range d {
					d[i] = ninf
				}
				n := len(d)
				if di == nil {
					for ih := h0; ih < h1; ih += p.dH {
						if p.kW == 3 {
							vec.MaxFold3(d, ph.run(ih, -p.pW, lo, n), ph.run(ih, p.dW-p.pW, lo, n), ph.run(ih, 2*p.dW-p.pW, lo, n))
							continue
						}
						for kw := range p.kW {
							vec.MaxFold(d, ph.run(ih, kw*p.dW-p.pW, lo, n))
						}
					}
					continue
				}
				clear(arg)
				tap := 0
				for ih := h0; ih < h1; ih += p.dH {
					for kw := range p.kW {
						tapOff[tap+kw] = ih*p.inW + kw*p.dW - p.pW
					}
					if p.kW == 3 {
						fold3Arg(d, arg, ph.run(ih, -p.pW, lo, n), ph.run(ih, p.dW-p.pW, lo, n), ph.run(ih, 2*p.dW-p.pW, lo, n), A(tap))
						tap += 3
						continue
					}
					for kw := range p.kW {
						foldArg(d, arg, ph.run(ih, kw*p.dW-p.pW, lo, n), A(tap))
						tap++
					}
				}
				ri := di[oh*p.outW+lo : oh*p.outW+hi]
				for i, a := range arg {
					ri[i] = int64(tapOff[a] + (lo+i)*p.sW)
				}
			}
		}
	})
}

// avgPoolAt is output (oh, ow)'s window sum in src, in row-major order
// from zero, divided by divisor_override or the window's size (clipped to
// the padded input or to the input); a window outside the input gives 0.
func avgPoolAt[T float32 | float64 | int64](p *pool, src []T, oh, ow int) T {
	h0, w0 := oh*p.sH-p.pH, ow*p.sW-p.pW
	h1 := min(h0+p.kH, p.inH+p.pH)
	w1 := min(w0+p.kW, p.inW+p.pW)
	poolSize := (h1 - h0) * (w1 - w0)
	h0, w0 = max(h0, 0), max(w0, 0)
	h1, w1 = min(h1, p.inH), min(w1, p.inW)
	if h0 >= h1 || w0 >= w1 {
		return 0
	}
	var div int64
	switch {
	case p.hasDivisor:
		div = p.divisor
	case p.countPad:
		div = int64(poolSize)
	default:
		div = int64((h1 - h0) * (w1 - w0))
	}
	var sum T
	for ih := h0; ih < h1; ih++ {
		for _, v := range src[ih*p.inW+w0 : ih*p.inW+w1] {
			sum += v
		}
	}
	return sum / T(div)
}

// avgPoolPlanes is 2-d average pooling over every float plane of x: the
// columns whose windows lie inside the row sum tap by tap with vec.Binary
// (from zero, in window order) and divide once, as avgPoolAt per element.
func avgPoolPlanes[T float32 | float64](p *pool, x, out []T) {
	lin, lout := p.inH*p.inW, p.outH*p.outW
	cLo, cHi := interiorCols(p.inW, p.outW, p.kW, p.sW, p.pW, 1)
	parallel(p.planes, p.planes*lout*p.kH*p.kW, func(lo, hi int) {
		ph := &planePhases[T]{s: p.sW, w: p.inW, pw: (p.inW + p.sW - 1) / p.sW}
		for pl := lo; pl < hi; pl++ {
			src := x[pl*lin : (pl+1)*lin]
			dst := out[pl*lout : (pl+1)*lout]
			if cLo < cHi {
				ph.load(src, p.inH)
			}
			for oh := range p.outH {
				row := dst[oh*p.outW : (oh+1)*p.outW]
				h0 := oh*p.sH - p.pH
				h1 := min(h0+p.kH, p.inH+p.pH)
				size := (h1 - h0) * p.kW
				h0, h1 = max(h0, 0), min(h1, p.inH)
				lo, hi := cLo, cHi
				if h0 >= h1 {
					lo, hi = 0, 0
				}
				for ow := range p.outW {
					if ow < lo || ow >= hi {
						row[ow] = avgPoolAt(p, src, oh, ow)
					}
				}
				if lo >= hi {
					continue
				}
				d := row[lo:hi]
				clear(d)
				for ih := h0; ih < h1; ih++ {
					for kw := range p.kW {
						vec.Binary(vec.Add, d, d, ph.run(ih, kw-p.pW, lo, len(d)))
					}
				}
				div := int64((h1 - h0) * p.kW)
				switch {
				case p.hasDivisor:
					div = p.divisor
				case p.countPad:
					div = int64(size)
				}
				vec.BinaryScalar(vec.Div, d, d, T(div))
			}
		}
	})
}

// Adaptive pooling loops. ATen sums (maxes) each window on its own, one
// element after the other in row-major order; that order fixes the
// average's rounding and the maximum's index, so the loops below keep it
// while giving the CPU independent work:
//   - averages run eight planes side by side, one sum per plane, each
//     plane's window read in ATen's order (the eight sums are independent
//     dependency chains, where one window's sum is a serial chain);
//   - maxima fold a window's input rows column-wise with vec.MaxFoldArg
//     (the column maxima and the row of each), then pick per window the
//     column whose (row, column) comes first in row-major order among the
//     equal maxima (the last NaN when there is one), which is the element
//     ATen's scan keeps.

// adaptiveLanes is the number of planes whose window sums run side by
// side.
const adaptiveLanes = 8

// adaptiveAvgPlanes averages the adaptive windows of planes [lo, hi) of x
// (planes of inH×inW) into out (planes of outH×outW): each window summed
// in T from zero in row-major order, then divided by its height and its
// width, as ATen's cpu_adaptive_avg_pool.
func adaptiveAvgPlanes[T float32 | float64](p *pool, x, out []T, lo, hi int, hs, he, ws, we []int) {
	lin, lout := p.inH*p.inW, p.outH*p.outW
	pl := lo
	for ; pl+adaptiveLanes <= hi; pl += adaptiveLanes {
		adaptiveAvgLanes(p, x[pl*lin:(pl+adaptiveLanes)*lin], out[pl*lout:(pl+adaptiveLanes)*lout], hs, he, ws, we)
	}
	for ; pl < hi; pl++ {
		src := x[pl*lin : (pl+1)*lin]
		dst := out[pl*lout : (pl+1)*lout]
		for oh := range p.outH {
			h0, h1 := hs[oh], he[oh]
			row := dst[oh*p.outW : (oh+1)*p.outW]
			for ow := range row {
				w0, w1 := ws[ow], we[ow]
				var sum T
				for ih := h0; ih < h1; ih++ {
					for _, v := range src[ih*p.inW+w0 : ih*p.inW+w1] {
						sum += v
					}
				}
				row[ow] = sum / T(h1-h0) / T(w1-w0)
			}
		}
	}
}

// adaptiveAvgLanes is adaptiveAvgPlanes over exactly adaptiveLanes
// planes, x and out holding them, their sums of a window running side by
// side (windowSum8).
func adaptiveAvgLanes[T float32 | float64](p *pool, x, out []T, hs, he, ws, we []int) {
	lin, lout := p.inH*p.inW, p.outH*p.outW
	var xp [adaptiveLanes][]T
	for i := range xp {
		xp[i] = x[i*lin : (i+1)*lin]
	}
	for oh := range p.outH {
		h0, h1 := hs[oh], he[oh]
		for ow := range p.outW {
			w0, w1 := ws[ow], we[ow]
			s := windowSum8(&xp, p.inW, h0, h1, w0, w1)
			kh, kw := T(h1-h0), T(w1-w0)
			for i, v := range s {
				out[i*lout+oh*p.outW+ow] = v / kh / kw
			}
		}
	}
}

// windowSum8 returns the sums of the window [h0,h1)×[w0,w1) of eight
// planes of width w, each in row-major order from zero. It is a function
// of its own so that the compiler keeps its loop in registers.
//
//go:noinline
func windowSum8[T float32 | float64](x *[8][]T, w, h0, h1, w0, w1 int) (s [8]T) {
	var s0, s1, s2, s3, s4, s5, s6, s7 T
	n := w1 - w0
	for a := h0*w + w0; h0 < h1; h0, a = h0+1, a+w {
		r0, r1, r2, r3 := x[0][a:a+n], x[1][a:a+n], x[2][a:a+n], x[3][a:a+n]
		r4, r5, r6, r7 := x[4][a:a+n], x[5][a:a+n], x[6][a:a+n], x[7][a:a+n]
		for i := range r0 {
			s0 += r0[i]
			s1 += r1[i]
			s2 += r2[i]
			s3 += r3[i]
			s4 += r4[i]
			s5 += r5[i]
			s6 += r6[i]
			s7 += r7[i]
		}
	}
	return [8]T{s0, s1, s2, s3, s4, s5, s6, s7}
}

// adaptiveMaxFits reports whether adaptiveMaxFold can pool planes of
// sizes in (3-d) with taps of type A: a plane's row count must fit A.
func adaptiveMaxFits[A int32 | int64](in []int) bool {
	var a A
	if _, small := any(a).(int32); small {
		return in[0]*in[1] <= math.MaxInt32
	}
	return true
}

// adaptiveMaxFold is adaptive max pooling of planes [lo, hi) of x (sizes
// in, 3-d) to sizes out, the maxima into res and their flat offsets into
// idx, each window's input rows folded column-wise by fold
// (vec.MaxFoldArg32 or MaxFoldArg64) with the row's number t*in[1]+h as
// its tap. s and e are the windows along each dimension.
func adaptiveMaxFold[T float32 | float64, A int32 | int64](x, res []T, idx []int64, lo, hi int, in, out []int, s, e *[3][]int, fold func([]T, []A, []T, A)) {
	w := in[2]
	lin, lout := in[0]*in[1]*w, out[0]*out[1]*out[2]
	col := make([]T, w)
	arg := make([]A, w)
	for pl := lo; pl < hi; pl++ {
		src := x[pl*lin : (pl+1)*lin]
		o := pl * lout
		for ot := range out[0] {
			for oh := range out[1] {
				// Fold rows (t, h) of the window into col, in row-major order.
				first := true
				for t := s[0][ot]; t < e[0][ot]; t++ {
					for h := s[1][oh]; h < e[1][oh]; h++ {
						tap := t*in[1] + h
						row := src[tap*w : (tap+1)*w]
						if first {
							copy(col, row)
							for i := range arg {
								arg[i] = A(tap)
							}
							first = false
							continue
						}
						fold(col, arg, row, A(tap))
					}
				}
				for ow := range out[2] {
					b := pickMax(col[s[2][ow]:e[2][ow]], arg[s[2][ow]:e[2][ow]]) + s[2][ow]
					res[o], idx[o] = col[b], int64(arg[b])*int64(w)+int64(b)
					o++
				}
			}
		}
	}
}

// pickMax returns the column of col (column maxima of a window, arg the
// row of each) holding the window's maximum that ATen's row-major scan
// (v > max or v is NaN) keeps: with a NaN, the NaN of the last row, then
// the last column; otherwise, of the columns equal to the maximum, the
// one of the first row, then the first column.
func pickMax[T float32 | float64, A int32 | int64](col []T, arg []A) int {
	arg = arg[:len(col)]
	// The maximum, NaN if any is, in two chains.
	m0, m1 := col[0], col[0]
	i := 1
	for ; i+1 < len(col); i += 2 {
		m0, m1 = max(m0, col[i]), max(m1, col[i+1])
	}
	if i < len(col) {
		m0 = max(m0, col[i])
	}
	m := max(m0, m1)
	b := 0
	if m != m {
		b = -1
		for i, v := range col {
			if v != v && (b < 0 || arg[i] >= arg[b]) {
				b = i
			}
		}
		return b
	}
	for i, v := range col {
		if v == m && (col[b] != m || arg[i] < arg[b]) {
			b = i
		}
	}
	return b
}

// adaptiveMaxRows is adaptiveMaxRun by column folds where it applies
// (float32 and float64; ok false otherwise).
func adaptiveMaxRows[T float32 | float64](x, res []T, idx []int64, planes int, in, out []int, s, e *[3][]int) bool {
	run := func(f func(lo, hi int)) { parallel(planes, planes*in[0]*in[1]*in[2], f) }
	switch xs := any(x).(type) {
	case []float32:
		if !adaptiveMaxFits[int32](in) {
			return false
		}
		r := any(res).([]float32)
		run(func(lo, hi int) { adaptiveMaxFold(xs, r, idx, lo, hi, in, out, s, e, vec.MaxFoldArg32) })
	case []float64:
		r := any(res).([]float64)
		run(func(lo, hi int) { adaptiveMaxFold(xs, r, idx, lo, hi, in, out, s, e, vec.MaxFoldArg64) })
	}
	return true
}
