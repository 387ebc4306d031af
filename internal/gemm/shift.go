package gemm

import (
	"sync"

	"github.com/gofx/gofx/internal/parallel"
	"github.com/gofx/gofx/internal/vec"
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
// waste of (Q2−Out2)/Q2; the valid columns of each group of column strips
// of c' are copied into c, applying beta and the epilogue, as soon as
// the product's last K block has completed the group (job.post). When Q equals Out (a 1×1
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
	// The taps' offsets in channel 0, then every channel's: plane apart.
	kk := g.K[0] * g.K[1] * g.K[2]
	r := 0
	n1, n2 := len(pl.res[1]), len(pl.res[2])
	for kd := range g.K[0] {
		t0 := kd * g.Dilation[0]
		for kh := range g.K[1] {
			t1 := kh * g.Dilation[1]
			for kw := range g.K[2] {
				t2 := kw * g.Dilation[2]
				ph := (pl.idx[0][t0%g.Stride[0]]*n1+pl.idx[1][t1%g.Stride[1]])*n2 + pl.idx[2][t2%g.Stride[2]]
				offs[r] = ph*pl.vol + ((t0/g.Stride[0])*pl.q[1]+t1/g.Stride[1])*pl.q[2] + t2/g.Stride[2]
				r++
			}
		}
	}
	hi := 0
	for _, o := range offs[:kk] {
		hi = max(hi, o)
	}
	taps := offs[:kk]
	for c := 1; c < g.C; c++ {
		dst := offs[c*kk : (c+1)*kk]
		for i, o := range taps {
			dst[i] = o + c*pl.plane
		}
	}
	return (g.C-1)*pl.plane + hi
}

// fillShift copies the image x into its phase images in src (laid out by
// pl), zero in the padding. src must have q[2] elements of slack past
// pl.minLen, which it uses as scratch.
func fillShift[T Float](pl *shiftPlan, g *ConvGeom, x, src []T) {
	lin := g.In[0] * g.In[1] * g.In[2]
	q0, q1, q2 := pl.q[0], pl.q[1], pl.q[2]
	s2, p2, in2 := g.Stride[2], g.Pad[2], g.In[2]
	n1, n2 := len(pl.res[1]), len(pl.res[2])
	// With a stride of 2 along the last dimension a row is split into
	// its two phases in one pass (vec.Deinterleave2); a phase no tap
	// reads goes to the scratch row.
	var pair [2][]T
	spare := src[pl.minLen : pl.minLen+q2]
	// With a stride of 2 and one phase read along the last dimension
	// (a 1×1 or k×1 kernel), a phase image's rows come from one
	// vec.EvenRows.
	even := s2 == 2 && n2 == 1
	for c := range g.C {
		xc := x[c*lin : (c+1)*lin]
		for a0, r0 := range pl.res[0] {
			for a1, r1 := range pl.res[1] {
				img := src[c*pl.plane+(a0*n1+a1)*n2*pl.vol:]
				for t0 := range q0 {
					i0 := t0*g.Stride[0] + r0 - g.Pad[0]
					if even {
						fillEven(img[t0*q1*q2:(t0+1)*q1*q2], xc, g, i0, r1, pl.res[2][0], q1, q2)
						continue
					}
					for t1 := range q1 {
						off := (t0*q1 + t1) * q2
						i1 := t1*g.Stride[1] + r1 - g.Pad[1]
						if i0 < 0 || i0 >= g.In[0] || i1 < 0 || i1 >= g.In[1] {
							for a2 := range n2 {
								clear(img[a2*pl.vol+off:][:q2])
							}
							continue
						}
						xr := xc[(i0*g.In[1]+i1)*in2 : (i0*g.In[1]+i1+1)*in2]
						if s2 == 2 {
							pair[0], pair[1] = spare, spare
							for a2, r2 := range pl.res[2] {
								pair[r2] = img[a2*pl.vol+off:][:q2]
							}
							vec.Phases2(pair[0], pair[1], xr, p2)
							continue
						}
						for a2, r2 := range pl.res[2] {
							row := img[a2*pl.vol+off:][:q2]
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

// fillEven fills img, the q1 rows of q2 elements of one phase image at
// input index i0 along the first dimension, from the channel xc when
// the last dimension has a stride of 2 and r2 is its one phase:
// img[t1][t2] = xc[i0][t1·s1 + r1 − p1][2·t2 + r2 − p2], zero outside
// the image.
func fillEven[T Float](img, xc []T, g *ConvGeom, i0, r1, r2, q1, q2 int) {
	in1, in2, s1, p1, p2 := g.In[1], g.In[2], g.Stride[1], g.Pad[1], g.Pad[2]
	if i0 < 0 || i0 >= g.In[0] {
		clear(img)
		return
	}
	// Rows t1 in [t1lo, t1hi) and columns t2 in [lo, hi) are inside.
	t1lo := min(max((p1-r1+s1-1)/s1, 0), q1)
	t1hi := min(max((in1+p1-r1+s1-1)/s1, t1lo), q1)
	lo := min(max((p2-r2+1)/2, 0), q2)
	hi := min(max((in2+p2-r2+1)/2, lo), q2)
	clear(img[:t1lo*q2])
	clear(img[t1hi*q2:])
	if lo > 0 || hi < q2 {
		for t1 := t1lo; t1 < t1hi; t1++ {
			clear(img[t1*q2 : t1*q2+lo])
			clear(img[t1*q2+hi : (t1+1)*q2])
		}
	}
	if t1hi > t1lo && hi > lo {
		i1 := t1lo*s1 + r1 - p1
		vec.EvenRows(img[t1lo*q2+lo:], q2, xc[(i0*in1+i1)*in2+2*lo+r2-p2:], s1*in2, t1hi-t1lo, hi-lo)
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
//
// With several workers the product is cut into parts that share
// nothing but the weight: each worker copies the image (or the rows of it
// that its outputs read) into its own src, computes its part serially and
// compacts it into c. Parts that share one src run no faster on two cores
// than on one: each core then reads, tap by tap, image rows the other
// core wrote and holds in its cache, and the kernel stalls on those
// transfers. The output channels are cut when the weight has enough row
// strips for every worker (or the output is one position); otherwise the
// output's outermost dimension longer than one is, each part an
// unpadded-by-its-neighbours convolution of its own.
func convShift[T Float](kern *kernel[T], pa *PackedA[T], m int, alpha T, w []T, ldw int, x []T, g *ConvGeom, beta T, c []T, ldc int, ep *Epilogue[T]) {
	pl := planShift(g)
	p := threads(m, pl.n, g.rows())
	if p < 2 {
		shiftPart(kern, pa, 0, m, alpha, w, ldw, x, g, pl, beta, c, ldc, ep)
		return
	}
	mr, nr := kern.mr, kern.nr
	mStrips := (m + mr - 1) / mr
	sd := -1
	for i := range 3 {
		if g.Out[i] > 1 {
			sd = i
			break
		}
	}
	if sd < 0 || byChannels(g, pl, pa == nil, m, p, sd, mr, nr) {
		parts := min(p, mStrips)
		parallel.Do(parts, func(wk int) {
			lo, hi := split(mStrips, parts, wk)
			r0, r1 := lo*mr, min(hi*mr, m)
			var wp []T
			if pa == nil {
				wp = w[r0*ldw:]
			}
			shiftPart(kern, pa, r0, r1-r0, alpha, wp, ldw, x, g, pl, beta, c[r0*ldc:], ldc, ep.at(r0, 0))
		})
		return
	}
	parts := min(p, g.Out[sd])
	inner := 1
	for i := sd + 1; i < 3; i++ {
		inner *= g.Out[i]
	}
	parallel.Do(parts, func(wk int) {
		lo, hi := split(g.Out[sd], parts, wk)
		gp := *g
		gp.Out[sd] = hi - lo
		// Output lo along sd reads input lo·stride − pad: the part is the
		// convolution whose padding before the image is pad − lo·stride
		// (negative when it starts inside the image).
		gp.Pad[sd] -= lo * g.Stride[sd]
		j0 := lo * inner
		shiftPart(kern, pa, 0, m, alpha, w, ldw, x, &gp, planShift(&gp), beta, c[j0:], ldc, ep.at(0, j0))
	})
}

// The costs byChannels weighs, counted in the kernel's multiply-adds
// (about 0.01 ns each on one core): copying one element of an image
// into src, with a strided copy of short rows (vec.Phases2; a 1×1
// convolution of stride 2 on 28×28 measures about a hundred times a
// multiply-add, a long contiguous copy less) or by vec.EvenRows
// (fillEven: 0.22 ns); packing one element of A (packA: 0.5–0.65 ns).
const (
	fillCost     = 64
	fillEvenCost = 20
	packCost     = 48
)

// byChannels reports whether a shifted convolution on p workers is cut
// by output channels rather than along its output's dimension sd, by
// the cost of the largest part in multiply-adds: by channels every part
// copies the whole image and multiplies its share of the weight's row
// strips by every column strip; along sd a part copies the rows it
// reads and multiplies every row strip by its own column strips, which
// waste more junk the shorter they are. Unless the weight is packed in
// advance (!packA), each part packs the weight's rows it multiplies:
// its share by channels, all of them along sd.
func byChannels(g *ConvGeom, pl *shiftPlan, packA bool, m, p, sd, mr, nr int) bool {
	mStrips := (m + mr - 1) / mr
	if mStrips < 2 {
		return false
	}
	k := g.rows()
	fill := fillCost
	if g.Stride[2] == 2 && len(pl.res[2]) == 1 {
		fill = fillEvenCost
	}
	pc := min(p, mStrips)
	rowsPart := (mStrips + pc - 1) / pc * mr
	rows := fill*pl.minLen + rowsPart*((pl.n+nr-1)/nr*nr)*k
	gp := *g
	ps := min(p, g.Out[sd])
	gp.Out[sd] = (g.Out[sd] + ps - 1) / ps
	pp := planShift(&gp)
	spatial := fill*pp.minLen + mStrips*mr*((pp.n+nr-1)/nr*nr)*k
	if packA {
		rows += packCost * rowsPart * k
		spatial += packCost * m * k
	}
	return rows <= spatial
}

// at returns ep for the block of c whose corner is at (i0, j0): its row
// bias, column bias and residual start there.
func (ep *Epilogue[T]) at(i0, j0 int) *Epilogue[T] {
	if ep == nil {
		return nil
	}
	e := *ep
	if e.RowBias != nil {
		e.RowBias = e.RowBias[i0:]
	}
	if e.ColBias != nil {
		e.ColBias = e.ColBias[j0:]
	}
	if e.Residual != nil {
		e.Residual = e.Residual[i0*e.LdResidual+j0:]
	}
	return &e
}

// shiftPart computes rows [r0, r0+m) of a shifted convolution on one
// goroutine: the weight is rows r0.. of pa, or w (whose first row is row
// r0); g (laid out by pl) may be part of a larger convolution, and c is
// its output.
func shiftPart[T Float](kern *kernel[T], pa *PackedA[T], r0, m int, alpha T, w []T, ldw int, x []T, g *ConvGeom, pl *shiftPlan, beta T, c []T, ldc int, ep *Epilogue[T]) {
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
	srcLen := max(pl.minLen+pl.q[2], hi+(nq+nr-1)/nr*nr)
	sb := getBuf[T](srcLen)
	defer putBuf(sb)
	src := sb.data
	fillShift(pl, g, x, src)
	clear(src[pl.minLen:])
	sh := &shifted[T]{src: src, offs: offs}
	if nq == n {
		d := newJob(kern, false, false, m, n, k, alpha, w, ldw, nil, 0, beta, c, ldc, ep)
		d.shift, d.packed, d.serial = sh, pa, true
		if pa != nil {
			d.row0 = r0
		}
		d.run()
		return
	}
	// c' has whole tiles (src has the slack to read B that far, A's
	// packing pads it with zeros), so no tile goes through the driver's
	// scratch tile. Each group of column strips of c' is compacted into
	// c (applying beta and the epilogue) as soon as it is complete,
	// while it is in cache.
	// With a single K block, c' is only a window of one group of strips
	// (job.window): the stem's c' (3.3 MB a part) was written to memory
	// and read back, more traffic than its 147-deep product hides.
	mPad, nqPad := (m+kern.mr-1)/kern.mr*kern.mr, (nq+nr-1)/nr*nr
	ldt := nqPad
	window := k <= kern.kc
	if window {
		ldt = min(epStrips*nr, nqPad)
	}
	tb := getBuf[T](mPad * ldt)
	defer putBuf(tb)
	tmp := tb.data
	d := newJob(kern, false, false, m, nq, k, alpha, w, ldw, nil, 0, 0, tmp, ldt, nil)
	d.shift, d.packed, d.serial, d.window = sh, pa, true, window
	if pa != nil {
		d.row0 = r0
	}
	d.cRows, d.cCols = mPad, nqPad
	d.post = func(i, h, j0, j1 int) {
		base := 0
		if window {
			base = j0
		}
		compact(pl, g, tmp, ldt, base, c, ldc, i, h, j0, j1, beta, ep)
	}
	d.run()
}

// count returns how many valid columns (output positions) precede
// column j of c': j's column in c when j is valid.
func (pl *shiftPlan) count(g *ConvGeom, j int) int {
	q1, q2 := pl.q[1], pl.q[2]
	od, oh, ow := j/(q1*q2), j%(q1*q2)/q2, j%q2
	n := od * g.Out[1] * g.Out[2]
	if oh >= g.Out[1] {
		return n + g.Out[1]*g.Out[2]
	}
	return n + oh*g.Out[2] + min(ow, g.Out[2])
}

// compact stores the valid columns among columns [j0, j1) of rows
// [i, i+h) of c' (leading dimension ldt, column base at tmp's first) at
// their places in c: c = c' + beta*c, then ep.
func compact[T Float](pl *shiftPlan, g *ConvGeom, tmp []T, ldt, base int, c []T, ldc, i, h, j0, j1 int, beta T, ep *Epilogue[T]) {
	q1, q2 := pl.q[1], pl.q[2]
	for j := j0; j < j1; {
		ow, oh := j%q2, j/q2%q1
		if ow >= g.Out[2] || oh >= g.Out[1] {
			j += q2 - ow // junk: on to the next row of c'
			continue
		}
		run := min(j1-j, g.Out[2]-ow)
		cj := pl.count(g, j)
		for r := i; r < i+h; r++ {
			s := tmp[r*ldt+j-base : r*ldt+j-base+run]
			t := c[r*ldc+cj : r*ldc+cj+run]
			if beta == 0 {
				copy(t, s)
				continue
			}
			for x, v := range s {
				t[x] = v + beta*t[x]
			}
		}
		j += run
	}
	if ep != nil {
		c0, c1 := pl.count(g, j0), pl.count(g, j1)
		if c1 > c0 {
			applyEpilogue(ep, c[i*ldc+c0:], ldc, i, c0, h, c1-c0)
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
