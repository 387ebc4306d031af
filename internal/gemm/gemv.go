package gemm

import "unsafe"

// Products of a few rows by a transposed b (linear layers at batch 1: x
// [m,k] times weight [n,k] transposed) as dot products. Packing the
// transposed b into strips for a micro-kernel costs a strided gather of
// all n×k elements, several times the m×n×k multiply-adds when m is 1;
// every row of such a b is already a contiguous run of k values, so a dot
// product per element of c reads b once, in order, with no packing.

// dot32 is the float32 dot product of k elements at x and y, an AVX2/FMA
// loop where the CPU has it and the assembly kernels are selected; nil
// otherwise, and gemvT then declines.
var dot32 func(k int, x, y *float32) float32

// gemvMinK is the shortest row the dot product path takes: below it the
// packed kernels' overhead is small anyway.
const gemvMinK = 16

// gemvT computes c = alpha*op(a)*b^T + beta*c, then ep, for a product
// with tB set, at most thinRows rows and float32 elements, as dot
// products of op(a)'s rows with b's rows, split over the workers by
// columns of c. It reports false, computing nothing, for any other
// product (the caller packs as usual).
func gemvT[T Float](tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int, ep *Epilogue[T]) bool {
	var z T
	if !tB || m == 0 || m > thinRows || n == 0 || k < gemvMinK || alpha == 0 || unsafe.Sizeof(z) != 4 || dot32 == nil || thin32 == nil {
		return false
	}
	a32, b32, c32 := any(a).([]float32), any(b).([]float32), any(c).([]float32)
	al, be := float32(alpha), float32(beta)
	// The rows of op(a), each contiguous: a's own rows, or copies of its
	// columns when a is stored transposed.
	rows := make([][]float32, m)
	for i := range m {
		if !tA {
			rows[i] = a32[i*lda : i*lda+k]
			continue
		}
		r := make([]float32, k)
		for p := range k {
			r[p] = a32[p*lda+i]
		}
		rows[i] = r
	}
	ep32, _ := any(ep).(*Epilogue[float32])
	p := threads(m, n, k)
	p = min(p, max(n/64, 1)) // at least 64 columns of c per worker
	parallelDo(p, func(w int) {
		j0, j1 := split(n, p, w)
		for i, x := range rows {
			crow := c32[i*ldc : i*ldc+n]
			for j := j0; j < j1; j++ {
				v := al * dot32(k, &x[0], &b32[j*ldb])
				if be != 0 {
					v += be * crow[j]
				}
				crow[j] = v
			}
		}
		if ep32 != nil {
			applyEpilogue(ep32, c32[j0:], ldc, 0, j0, m, j1-j0)
		}
	})
	return true
}
