package gemm

import (
	"runtime"
	"sync"
)

// The shifted convolution ("implicit GEMM" without packing B).
//
// The image is copied once, zero-padded, into src: for a stride s > 1
// along a dimension it is split into the s phases x[..., r::s] that the
// kernel's taps read (only those), each an image of its own, so that
// every tap reads its phase with unit stride. Restricted to the output
// position q = (od·Q1 + oh)·Q2 + ow (Q the phase images' sizes), row
// (c, kd, kh, kw) of im2col(x) is then src[offs[row] + q]: every row of B
// is a contiguous slice of src, one offset per row. The product
// c' = w × B over the n' = ((Out0−1)·Q1 + Out1−1)·Q2 + Out2 positions
// is a plain GEMM whose B rows are found through offs: kernels with an
// indirect variant (kernel.ind) read them in place, the others pack B by
// contiguous copies. Columns with ow ≥ Out2 (or oh ≥ Out1) are junk, a
// waste of (Q2−Out2)/Q2; one pass then copies the valid columns of c'
// into c, applying beta and the epilogue. When Q equals Out (a 1×1
// convolution, or any unpadded one along a dimension of one) c' is c and
// the product writes in place.

// indSlack is how many entries past its k rows an offsets slice has, so
// that an indirect kernel may read offsets ahead (to prefetch).
const indSlack = 16

// shifted is the B operand of a shifted convolution: row p of B is
// src[offs[p]:], and src has slack past its last row so that a strip of
// nr columns may be read from any valid column.
type shifted[T Float] struct {
	src  []T
	offs []int
}

// shiftPlan is the layout of a shifted convolution's src.
type shiftPlan struct {
	q      [3]int   // the phase images' sizes
	res    [3][]int // per dimension, the phases (residues mod the stride) the taps read
	idx    [3][]int // per dimension, residue → position in res (−1 unused)
	vol    int      // q[0]·q[1]·q[2]
	plane  int      // one channel: every phase image
	n      int      // columns of c'
	minLen int      // src's length without slack
}

// planShift returns g's layout.
func planShift(g *ConvGeom) *shiftPlan {
	pl := &shiftPlan{}
	nph := 1
	for i := range 3 {
		s, d := g.Stride[i], g.Dilation[i]
		pl.q[i] = g.Out[i] + (g.K[i]-1)*d/s
		pl.idx[i] = make([]int, s)
		for r := range pl.idx[i] {
			pl.idx[i][r] = -1
		}
		for t := range g.K[i] {
			r := t * d % s
			if pl.idx[i][r] < 0 {
				pl.idx[i][r] = len(pl.res[i])
				pl.res[i] = append(pl.res[i], r)
			}
		}
		nph *= len(pl.res[i])
	}
	pl.vol = pl.q[0] * pl.q[1] * pl.q[2]
	pl.plane = nph * pl.vol
	pl.n = ((g.Out[0]-1)*pl.q[1]+g.Out[1]-1)*pl.q[2] + g.Out[2]
	pl.minLen = g.C * pl.plane
	return pl
}

// offsets fills offs[0:k] with the offset in src of each row (c, kd, kh,
// kw) of B and returns the largest.
func (pl *shiftPlan) offsets(g *ConvGeom, offs []int) int {
	r := 0
	hi := 0
	n1, n2 := len(pl.res[1]), len(pl.res[2])
	for c := range g.C {
		for kd := range g.K[0] {
			t0 := kd * g.Dilation[0]
			for kh := range g.K[1] {
				t1 := kh * g.Dilation[1]
				for kw := range g.K[2] {
					t2 := kw * g.Dilation[2]
					ph := (pl.idx[0][t0%g.Stride[0]]*n1+pl.idx[1][t1%g.Stride[1]])*n2 + pl.idx[2][t2%g.Stride[2]]
					o := c*pl.plane + ph*pl.vol + ((t0/g.Stride[0])*pl.q[1]+t1/g.Stride[1])*pl.q[2] + t2/g.Stride[2]
					offs[r] = o
					hi = max(hi, o)
					r++
				}
			}
		}
	}
	return hi
}

// fillShift copies channels [c0, c1) of the image x into their phase
// images in src (laid out by pl), zero in the padding.
func fillShift[T Float](pl *shiftPlan, g *ConvGeom, x, src []T, c0, c1 int) {
	lin := g.In[0] * g.In[1] * g.In[2]
	q0, q1, q2 := pl.q[0], pl.q[1], pl.q[2]
	s2, p2, in2 := g.Stride[2], g.Pad[2], g.In[2]
	for c := c0; c < c1; c++ {
		xc := x[c*lin : (c+1)*lin]
		ph := 0
		for _, r0 := range pl.res[0] {
			for _, r1 := range pl.res[1] {
				for _, r2 := range pl.res[2] {
					img := src[c*pl.plane+ph*pl.vol : c*pl.plane+(ph+1)*pl.vol]
					ph++
					for t0 := range q0 {
						i0 := t0*g.Stride[0] + r0 - g.Pad[0]
						for t1 := range q1 {
							row := img[(t0*q1+t1)*q2 : (t0*q1+t1+1)*q2]
							i1 := t1*g.Stride[1] + r1 - g.Pad[1]
							if i0 < 0 || i0 >= g.In[0] || i1 < 0 || i1 >= g.In[1] {
								clear(row)
								continue
							}
							xr := xc[(i0*g.In[1]+i1)*in2 : (i0*g.In[1]+i1+1)*in2]
							// Input column t2*s2 + r2 - p2 is valid for t2 in [lo, hi).
							lo := min(max((p2-r2+s2-1)/s2, 0), q2)
							hi := min(max((in2+p2-r2+s2-1)/s2, lo), q2)
							clear(row[:lo])
							if s2 == 1 {
								copy(row[lo:hi], xr[lo+r2-p2:hi+r2-p2])
							} else {
								i2 := lo*s2 + r2 - p2
								for t := lo; t < hi; t++ {
									row[t] = xr[i2]
									i2 += s2
								}
							}
							clear(row[hi:])
						}
					}
				}
			}
		}
	}
}

// offsPool holds offsets slices.
var offsPool sync.Pool

// useShift reports whether the convolution g is computed shifted.
func useShift(g *ConvGeom, m int) bool {
	return !convIm2col && m > 0 && g.rows() > 0 && g.cols() > 0
}

// convShift computes GemmConv's product, on checked arguments, shifted:
// with kern, and the weight packed (pa, whose kernel kern is) or w.
func convShift[T Float](kern *kernel[T], pa *PackedA[T], m int, alpha T, w []T, ldw int, x []T, g *ConvGeom, beta T, c []T, ldc int, ep *Epilogue[T]) {
	pl := planShift(g)
	k, n, nq := g.rows(), g.cols(), pl.n
	op, _ := offsPool.Get().(*[]int)
	if op == nil {
		op = new([]int)
	}
	if cap(*op) < k+indSlack {
		*op = make([]int, k+indSlack)
	}
	offs := (*op)[:k+indSlack]
	defer offsPool.Put(op)
	hi := pl.offsets(g, offs)
	clear(offs[k:])
	nr := kern.nr
	srcLen := max(pl.minLen, hi+(nq+nr-1)/nr*nr)
	sb := getBuf[T](srcLen)
	defer putBuf(sb)
	src := sb.data
	if p := threads(g.C, pl.plane, 8); p > 1 && g.C > 1 {
		p = min(p, g.C)
		parallelDo(p, func(w int) {
			lo, hi := split(g.C, p, w)
			fillShift(pl, g, x, src, lo, hi)
		})
	} else {
		fillShift(pl, g, x, src, 0, g.C)
	}
	clear(src[pl.minLen:])
	sh := &shifted[T]{src: src, offs: offs}
	if nq == n {
		d := newJob(kern, false, false, m, n, k, alpha, w, ldw, nil, 0, beta, c, ldc, ep)
		d.shift, d.packed = sh, pa
		d.run()
		return
	}
	// c' has whole tiles (src has the slack to read B that far, A's
	// packing pads it with zeros), so no tile goes through the driver's
	// scratch tile.
	mPad, nqPad := (m+kern.mr-1)/kern.mr*kern.mr, (nq+nr-1)/nr*nr
	tb := getBuf[T](mPad * nqPad)
	defer putBuf(tb)
	tmp := tb.data
	d := newJob(kern, false, false, m, nq, k, alpha, w, ldw, nil, 0, 0, tmp, nqPad, nil)
	d.shift, d.packed = sh, pa
	d.cRows, d.cCols = mPad, nqPad
	d.run()
	nq = nqPad
	p := 1
	if m*n >= 1<<15 {
		p = min(runtime.GOMAXPROCS(0), m)
	}
	parallelDo(p, func(wk int) {
		lo, hi := split(m, p, wk)
		for i := lo; i < hi; i++ {
			compactRow(pl, g, tmp[i*nq:(i+1)*nq], c[i*ldc:i*ldc+n], beta)
			if ep != nil {
				applyEpilogue(ep, c[i*ldc:], ldc, i, 0, 1, n)
			}
		}
	})
}

// compactRow stores the valid columns of one row of c' into the row dst
// of c: dst = row' + beta*dst.
func compactRow[T Float](pl *shiftPlan, g *ConvGeom, row, dst []T, beta T) {
	o2 := g.Out[2]
	j := 0
	for od := range g.Out[0] {
		for oh := range g.Out[1] {
			s := row[(od*pl.q[1]+oh)*pl.q[2]:]
			s = s[:o2]
			t := dst[j : j+o2]
			j += o2
			if beta == 0 {
				copy(t, s)
				continue
			}
			for x, v := range s {
				t[x] = v + beta*t[x]
			}
		}
	}
}

// packBShift is packB for a shifted job (d.shift): strip s of the panel
// holds rows pc..pc+kb of B at columns jc+s*nr, each a contiguous copy.
func packBShift[T Float](d *job[T], lo, hi int) {
	nr, kb := d.kern.nr, d.kb
	src, offs := d.shift.src, d.shift.offs[d.pc:d.pc+kb]
	for s := lo; s < hi; s++ {
		dst := d.bpack[s*kb*nr : (s+1)*kb*nr]
		j0 := d.jc + s*nr
		for p, o := range offs {
			copy(dst[p*nr:p*nr+nr], src[o+j0:o+j0+nr])
		}
	}
}
