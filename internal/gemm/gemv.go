package gemm

import (
	"unsafe"

	"github.com/gofx/gofx/internal/parallel"
)

// Products with at most thinRows rows or columns as dot products. A
// linear layer at batch 1 multiplies x [m,k] by a weight [n,k] transposed,
// and a matrix-vector product a [m,k] by a column: packing such a b (or
// a) into strips for a micro-kernel costs a strided gather of all its
// elements, several times the multiply-adds when m (or n) is 1, and the
// micro-kernels' tiles would then mostly multiply padding. Every row of
// that b (of that a) is already a contiguous run of k values, so a dot
// product per element of c reads it once, in order, with no packing; the
// few short vectors on the other side are copied when not contiguous.

// dot32 is the float32 dot product of k elements at x and y, an AVX2/FMA
// loop where the CPU has it and the assembly kernels are selected; nil
// otherwise, and gemvT then declines.
var dot32 func(k int, x, y *float32) float32

// gemvMinK is the shortest dot product the path takes: below it the
// packed kernels' overhead is small anyway.
const gemvMinK = 16

// gemvT computes c = alpha*op(a)*op(b) + beta*c, then ep, as dot products
// for float32 products where op(b)'s columns are b's rows (tB) and c has
// at most thinRows rows, or op(a)'s rows are a's rows (not tA) and c has
// at most thinRows columns; the long side is split over the workers. It
// reports false, computing nothing, for any other product (the caller
// packs as usual).
func gemvT[T Float](tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int, ep *Epilogue[T]) bool {
	var z T
	if m == 0 || n == 0 || k < gemvMinK || alpha == 0 || unsafe.Sizeof(z) != 4 || dot32 == nil || thin32 == nil {
		return false
	}
	byRows := tB && m <= thinRows // few rows of c: vectors are op(a)'s rows
	if !byRows && (tA || n > thinRows) {
		return false
	}
	a32, b32, c32 := any(a).([]float32), any(b).([]float32), any(c).([]float32)
	al, be := float32(alpha), float32(beta)
	ep32, _ := any(ep).(*Epilogue[float32])
	// vecs are the short side's vectors of k values, long(i) the long
	// side's i-th row; element (v, i) of c is dot(vecs[v], long(i)).
	var vecs [][]float32
	var long []float32
	var ldl, nl int
	if byRows {
		vecs = contiguousVectors(a32, m, k, lda, tA)
		long, ldl, nl = b32, ldb, n
	} else {
		vecs = contiguousVectors(b32, n, k, ldb, !tB)
		long, ldl, nl = a32, lda, m
	}
	p := threads(m, n, k)
	p = min(p, max(nl/64, 1)) // at least 64 dot products of the long side per worker
	parallel.Do(p, func(w int) {
		i0, i1 := split(nl, p, w)
		for i := i0; i < i1; i++ {
			row := &long[i*ldl] // read once, then from L1 for each vector
			for v, x := range vecs {
				idx := v*ldc + i // byRows: c[v, i]
				if !byRows {
					idx = i*ldc + v // c[i, v]
				}
				s := al * dot32(k, &x[0], row)
				if be != 0 {
					s += be * c32[idx]
				}
				c32[idx] = s
			}
		}
		if ep32 == nil {
			return
		}
		if byRows {
			applyEpilogue(ep32, c32[i0:], ldc, 0, i0, m, i1-i0)
		} else if i1 > i0 {
			applyEpilogue(ep32, c32[i0*ldc:], ldc, i0, 0, i1-i0, n)
		}
	})
	return true
}

// contiguousVectors returns the cnt vectors of k values of x: its rows
// (row i at x[i*ld:]) in place, or, when across is set, its columns
// (vector i is x[p*ld+i] for p < k) copied.
func contiguousVectors(x []float32, cnt, k, ld int, across bool) [][]float32 {
	vecs := make([][]float32, cnt)
	for i := range cnt {
		if !across {
			vecs[i] = x[i*ld : i*ld+k]
			continue
		}
		v := make([]float32, k)
		for p := range k {
			v[p] = x[p*ld+i]
		}
		vecs[i] = v
	}
	return vecs
}
