package gemm

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/gofx/gofx/internal/parallel"
)

// kernel is a micro-kernel and the blocking it is driven with.
//
// full computes the mr×nr tile c = alpha*acc + beta*c, where acc is the
// product of k columns of a packed A strip (mr values per column) and k
// rows of a packed B strip (nr values per row); with beta == 0 c is not
// read. c's rows are ldc elements apart.
//
// mc (a multiple of mr) rows by kc columns of A are packed at a time and
// stay in L2; kc rows by nc (a multiple of nr) columns of B are packed
// at a time and stay in L3; one B strip (kc×nr) stays in L1.
type kernel[T Float] struct {
	name       string
	mr, nr     int
	mc, kc, nc int
	full       func(k int, a, b, c *T, ldc int, alpha, beta T)
	// ind, when not nil, is full reading B unpacked: row p of the strip
	// is the nr values at b[offs[p]:] (offs has indSlack readable
	// entries past k, for kernels that read ahead). The shifted
	// convolution (shift.go) uses it.
	ind func(k int, a, b *T, offs *int, c *T, ldc int, alpha, beta T)
	// parts, by rows ascending, compute the first rows of a tile (full
	// and ind reading a strip packed mr rows a column): the last strip
	// of a product whose rows are not a multiple of mr (64 = 5×12 + 4)
	// then multiplies no padding rows.
	parts []partKernel[T]
}

// partKernel is a kernel's variant for the first rows rows of a tile.
type partKernel[T Float] struct {
	rows int
	full func(k int, a, b, c *T, ldc int, alpha, beta T)
	ind  func(k int, a, b *T, offs *int, c *T, ldc int, alpha, beta T)
}

// packAllMax is the most elements of A a product packs in one go (see
// run).
const packAllMax = 1 << 22

// epStrips is how many column strips of c the epilogue runs over at a
// time (compute).
const epStrips = 8

// parallelMin is the number of multiply-adds below which a product runs
// on the calling goroutine alone: a 64×64×64 product (2^18) takes 6.6 µs
// on one core and 11–14 µs split over two, its packing and the parts'
// hand-over costing more than the half of the kernel they save.
const parallelMin = 1 << 19

// threads returns how many workers a product of m×n×k multiply-adds uses.
func threads(m, n, k int) int {
	p := runtime.GOMAXPROCS(0)
	if p < 2 || m*n*k < parallelMin {
		return 1
	}
	return p
}

// scaleC sets c = beta*c (c = 0 when beta is 0) for the m×n matrix c.
func scaleC[T Float](m, n int, beta T, c []T, ldc int) {
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		switch beta {
		case 0:
			clear(row)
		case 1:
		default:
			for j := range row {
				row[j] *= beta
			}
		}
	}
}

// newJob returns the product of checked arguments, driven by kern.
func newJob[T Float](kern *kernel[T], tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int, ep *Epilogue[T]) *job[T] {
	return &job[T]{kern: kern, tA: tA, tB: tB, m: m, n: n, k: k, alpha: alpha, beta0: beta, a: a, lda: lda, b: b, ldb: ldb, c: c, ldc: ldc, ep0: ep, cRows: m, cCols: n}
}

// run computes the product.
func (d *job[T]) run() {
	m, n, k, c, ldc := d.m, d.n, d.k, d.c, d.ldc
	if m == 0 || n == 0 {
		return
	}
	if k == 0 || d.alpha == 0 {
		scaleC(m, n, d.beta0, c, ldc)
		if d.ep0 != nil {
			applyEpilogue(d.ep0, c, ldc, 0, 0, m, n)
		}
		return
	}
	mr, nr := d.kern.mr, d.kern.nr
	p := threads(m, n, k)
	if d.serial {
		p = 1
	}
	mStrips := (m + mr - 1) / mr
	nStrips := (n + nr - 1) / nr
	// Workers split the rows of c (each packs its own A block and shares
	// the packed B panel) when there are enough row strips; otherwise
	// they split the columns of each B panel and pack the same A rows.
	byRows := mStrips >= 4*p || mStrips >= nStrips
	if byRows {
		p = min(p, mStrips)
	}
	kc := min(d.kern.kc, k)
	nc := min(d.kern.nc, nStrips*nr)
	// B is packed unless an indirect kernel reads a shifted image in place.
	indirect := d.shift != nil && d.kern.ind != nil
	if !indirect {
		bp := getBuf[T](kc * nc)
		defer putBuf(bp)
		d.bpack = bp.data
	}
	// Workers that split columns would each pack the same A block, and
	// every B panel would pack A again: pack the whole of A once instead.
	if d.packed == nil && ((!byRows && p > 1) || n > nc) && m*k <= packAllMax {
		pa := d.packAll(p)
		defer putBuf(pa.buf)
		d.packed = &pa.PackedA
	}
	for jc := 0; jc < n; jc += nc {
		nb := min(nc, n-jc)
		panelStrips := (nb + nr - 1) / nr
		pw := p
		if !byRows {
			pw = min(p, panelStrips)
		}
		for pc := 0; pc < k; pc += kc {
			kb := min(kc, k-pc)
			d.jc, d.nb, d.pc, d.kb = jc, nb, pc, kb
			d.beta = d.beta0
			if pc > 0 {
				d.beta = 1
			}
			d.ep, d.final = nil, pc+kb == k
			if d.final {
				d.ep = d.ep0
			}
			if !indirect {
				pb := min(p, panelStrips)
				parallel.Do(pb, func(w int) {
					lo, hi := split(panelStrips, pb, w)
					switch {
					case d.shift != nil:
						packBShift(d, lo, hi)
					case d.conv != nil:
						packBConv(d, lo, hi)
					default:
						packB(d, lo, hi)
					}
				})
			}
			if byRows {
				parallel.Do(pw, func(w int) {
					lo, hi := split(mStrips, pw, w)
					d.compute(lo*mr, min(hi*mr, m), 0, panelStrips)
				})
			} else {
				parallel.Do(pw, func(w int) {
					lo, hi := split(panelStrips, pw, w)
					d.compute(0, m, lo, hi)
				})
			}
		}
	}
}

// split returns the w-th of p contiguous near-equal parts of [0, n).
func split(n, p, w int) (lo, hi int) {
	return n * w / p, n * (w + 1) / p
}

// job is one product being computed: the operands and the current B
// panel (columns jc..jc+nb, rows pc..pc+kb of op(b)) packed into bpack.
type job[T Float] struct {
	kern           *kernel[T]
	tA, tB         bool
	m, n, k        int
	alpha, beta0   T
	a, b, c        []T
	lda, ldb, ldc  int
	ep0            *Epilogue[T]
	conv           *ConvGeom    // b is an image, op(b) its im2col (GemmConv)
	packed         *PackedA[T]  // a packed in advance (PackedA), a unused
	shift          *shifted[T]  // b unused, op(b)'s rows are found in a shifted image (shift.go)
	row0           int          // the first row of packed that is row 0 of op(a)
	serial         bool         // run on the calling goroutine alone
	cRows, cCols   int          // c has room for whole tiles up to here (≥ m, n; padding A and B make junk there)
	jc, nb, pc, kb int          // the current panel
	beta           T            // beta0 for the first K block, 1 after
	ep             *Epilogue[T] // ep0 for the last K block, nil before
	final          bool         // the current K block is the last
	// post, when not nil, is called instead of the epilogue with the
	// rows [i, i+h) and columns [j0, j1) of c that the last K block has
	// just completed (a shifted convolution compacts them into its
	// output while they are in cache).
	post func(i, h, j0, j1 int)
	// window, with post and a single K block, makes c a window of
	// epStrips strips: each group of strips is stored at c's column 0
	// and handed to post, which must empty it before the next group (a
	// shifted convolution's c' then never leaves the cache).
	window bool
	bpack  []T
}

// packB packs strips [lo, hi) of the current B panel: strip s holds the
// kb×nr block of op(b) at columns jc+s*nr, row by row, zero-padded past n.
func packB[T Float](d *job[T], lo, hi int) {
	nr, kb := d.kern.nr, d.kb
	for s := lo; s < hi; s++ {
		dst := d.bpack[s*kb*nr : (s+1)*kb*nr]
		j0 := d.jc + s*nr
		w := min(nr, d.n-j0)
		if !d.tB {
			for p := range kb {
				src := d.b[(d.pc+p)*d.ldb+j0:]
				row := dst[p*nr : p*nr+nr]
				copy(row, src[:w])
				clear(row[w:])
			}
			continue
		}
		if w < nr {
			clear(dst)
		}
		j := 0
		for ; j+4 <= w; j += 4 {
			// Four columns of op(b) (rows of b) at a time.
			base := (j0+j)*d.ldb + d.pc
			s0 := d.b[base : base+kb]
			s1 := d.b[base+d.ldb : base+d.ldb+kb]
			s2 := d.b[base+2*d.ldb : base+2*d.ldb+kb]
			s3 := d.b[base+3*d.ldb : base+3*d.ldb+kb]
			s1, s2, s3 = s1[:len(s0)], s2[:len(s0)], s3[:len(s0)]
			o := dst[j:]
			for p, v := range s0 {
				q := o[:4:4]
				q[0], q[1], q[2], q[3] = v, s1[p], s2[p], s3[p]
				if p+1 < len(s0) {
					o = o[nr:]
				}
			}
		}
		for ; j < w; j++ {
			src := d.b[(j0+j)*d.ldb+d.pc:]
			src = src[:kb]
			for p, v := range src {
				dst[p*nr+j] = v
			}
		}
	}
}

// packA packs rows [i0, i0+mb) of op(a), columns pc..pc+kb, into dst as
// strips of mr rows, column by column, zero-padded past the last row.
func packA[T Float](d *job[T], dst []T, pc, kb, i0, mb int) {
	mr := d.kern.mr
	for s := 0; s*mr < mb; s++ {
		out := dst[s*kb*mr : (s+1)*kb*mr]
		r0 := i0 + s*mr
		h := min(mr, i0+mb-r0)
		if h < mr {
			clear(out)
		}
		if d.tA {
			for p := range kb {
				src := d.a[(pc+p)*d.lda+r0:]
				copy(out[p*mr:p*mr+h], src[:h])
			}
			continue
		}
		i := 0
		for ; i+4 <= h; i += 4 {
			// Four rows at a time: four read streams, 16-byte writes.
			base := (r0+i)*d.lda + pc
			s0 := d.a[base : base+kb]
			s1 := d.a[base+d.lda : base+d.lda+kb]
			s2 := d.a[base+2*d.lda : base+2*d.lda+kb]
			s3 := d.a[base+3*d.lda : base+3*d.lda+kb]
			s1, s2, s3 = s1[:len(s0)], s2[:len(s0)], s3[:len(s0)]
			o := out[i:]
			for p, v := range s0 {
				q := o[:4:4]
				q[0], q[1], q[2], q[3] = v, s1[p], s2[p], s3[p]
				if p+1 < len(s0) {
					o = o[mr:]
				}
			}
		}
		for ; i < h; i++ {
			src := d.a[(r0+i)*d.lda+pc:]
			src = src[:kb]
			for p, v := range src {
				out[p*mr+i] = v
			}
		}
	}
}

// compute multiplies rows [r0, r1) of op(a) (columns pc..pc+kb) by
// strips [s0, s1) of the packed B panel into c.
func (d *job[T]) compute(r0, r1, s0, s1 int) {
	kern := d.kern
	mr, nr, kb := kern.mr, kern.nr, d.kb
	ab := getBuf[T](kern.mc*kb + mr*nr)
	defer putBuf(ab)
	apack := ab.data[:kern.mc*kb]
	tmp := ab.data[kern.mc*kb : kern.mc*kb+mr*nr]
	indirect := d.shift != nil && kern.ind != nil
	for ic := r0; ic < r1; ic += kern.mc {
		mb := min(kern.mc, r1-ic)
		if d.packed != nil {
			off := d.pc*d.packed.mPad + (d.row0+ic)*kb
			apack = d.packed.data[off : off+((mb+mr-1)/mr)*mr*kb]
		} else {
			packA(d, apack, d.pc, kb, ic, mb)
		}
		for s := s0; s < s1; s++ {
			j := d.jc + s*nr
			w := min(nr, d.n-j)
			var bs, offs = (*T)(nil), (*int)(nil)
			if indirect {
				bs, offs = &d.shift.src[j], &d.shift.offs[d.pc]
			} else {
				bs = &d.bpack[s*kb*nr]
			}
			for ir := 0; ir < mb; ir += mr {
				i := ic + ir
				h := min(mr, mb-ir)
				as := &apack[ir*kb]
				full, ind, rows := kern.full, kern.ind, mr
				if h < mr {
					for _, pk := range kern.parts {
						if h <= pk.rows {
							full, ind, rows = pk.full, pk.ind, pk.rows
							break
						}
					}
				}
				// c's column of the tile: j, or its place in the window.
				cj := j
				if d.window {
					cj = (s - s0) % epStrips * nr
				}
				// c may hold whole tiles past m×n (cRows×cCols): no scratch then.
				edge := (h < rows && i+rows > d.cRows) || (w < nr && j+nr > d.cCols)
				cp, ldc, alpha, beta := (*T)(nil), d.ldc, d.alpha, d.beta
				if edge {
					cp, ldc, alpha, beta = &tmp[0], nr, 1, 0
				} else {
					cp = &d.c[i*d.ldc+cj]
				}
				if indirect {
					ind(kb, as, bs, offs, cp, ldc, alpha, beta)
				} else {
					full(kb, as, bs, cp, ldc, alpha, beta)
				}
				if edge {
					d.merge(tmp, i, cj, h, w)
				}
			}
			// The epilogue (or post) runs over epStrips strips at a
			// time, rows of 256 or 512 values (one vec call a row)
			// that the kernel has just written and L2 still holds.
			if (d.ep != nil || d.post != nil && d.final) && ((s-s0+1)%epStrips == 0 || s == s1-1) {
				g0 := s + 1 - ((s-s0)%epStrips + 1)
				j0, j1 := d.jc+g0*nr, min(d.jc+(s+1)*nr, d.n)
				if d.post != nil {
					d.post(ic, mb, j0, j1)
				} else {
					applyEpilogue(d.ep, d.c[ic*d.ldc+j0:], d.ldc, ic, j0, mb, j1-j0)
				}
			}
		}
	}
}

// scratchA is the whole of a job's A packed once (packAll), in a pooled
// buffer.
type scratchA[T Float] struct {
	PackedA[T]
	buf *buf[T]
}

// packAll packs the whole of op(a) as PackA does, with p workers
// splitting its row strips, into a pooled buffer.
func (d *job[T]) packAll(p int) *scratchA[T] {
	mr, kc := d.kern.mr, d.kern.kc
	mStrips := (d.m + mr - 1) / mr
	sa := &scratchA[T]{PackedA: PackedA[T]{m: d.m, k: d.k, mPad: mStrips * mr, kern: d.kern}}
	sa.buf = getBuf[T](sa.mPad * d.k)
	sa.data = sa.buf.data
	p = max(min(p, mStrips), 1)
	parallel.Do(p, func(w int) {
		lo, hi := split(mStrips, p, w)
		if lo == hi {
			return
		}
		for pc := 0; pc < d.k; pc += kc {
			kb := min(kc, d.k-pc)
			packA(d, sa.data[pc*sa.mPad+lo*mr*kb:], pc, kb, lo*mr, min(hi*mr, d.m)-lo*mr)
		}
	})
	return sa
}

// merge stores the h×w corner of the tile tmp (rows nr apart) into c at
// (i, j) as alpha*tmp + beta*c.
func (d *job[T]) merge(tmp []T, i, j, h, w int) {
	nr := d.kern.nr
	for r := range h {
		t := tmp[r*nr : r*nr+w]
		row := d.c[(i+r)*d.ldc+j:]
		row = row[:w]
		if d.beta == 0 {
			for x, v := range t {
				row[x] = d.alpha * v
			}
			continue
		}
		for x, v := range t {
			row[x] = d.alpha*v + d.beta*row[x]
		}
	}
}

// buf is a pooled packing buffer whose data starts on a 64-byte boundary.
type buf[T Float] struct {
	raw  []T
	data []T
}

var pools [2]sync.Pool // float32, float64

// poolOf returns the buffer pool of T.
func poolOf[T Float]() *sync.Pool {
	var z T
	if unsafe.Sizeof(z) == 4 {
		return &pools[0]
	}
	return &pools[1]
}

// getBuf returns a pooled buffer of at least n elements, 64-byte aligned.
func getBuf[T Float](n int) *buf[T] {
	bp, _ := poolOf[T]().Get().(*buf[T])
	if bp == nil {
		bp = new(buf[T])
	}
	if cap(bp.raw) < n+64 {
		bp.raw = make([]T, n+64)
	}
	var z T
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(bp.raw)))
	off := int((64 - addr%64) % 64 / unsafe.Sizeof(z))
	bp.data = bp.raw[off : off+n]
	return bp
}

func putBuf[T Float](bp *buf[T]) { poolOf[T]().Put(bp) }
