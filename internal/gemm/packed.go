package gemm

import "fmt"

// PackedA is the left operand of many products packed once, as the
// driver packs A (strips of the kernel's rows, zero-padded, K block by K
// block): a layer's weight, reused for every input. Products with it skip
// A's packing, which for a weight times a narrow input (a 3×3 convolution
// on 7×7, a linear layer on a small batch) is a large part of the work.
// A PackedA is read-only once made and may be used by many goroutines.
type PackedA[T Float] struct {
	m, k int
	mPad int // m rounded up to the kernel's rows
	kern *kernel[T]
	data []T
}

// PackA packs op(a) (m×k; a transposed a is stored k×m) with leading
// dimension lda for the kernel products of m rows use on this CPU.
func PackA[T Float](tA bool, m, k int, a []T, lda int) (*PackedA[T], error) {
	if m < 0 || k < 0 {
		return nil, fmt.Errorf("gemm: PackA: sizes m=%d k=%d must not be negative", m, k)
	}
	ar, ac := m, k
	if tA {
		ar, ac = k, m
	}
	if err := checkMatrix("a", ar, ac, a, lda); err != nil {
		return nil, err
	}
	return packAWith(kernelFor[T](m), tA, m, k, a, lda), nil
}

// packAWith is PackA for kern, on checked arguments.
func packAWith[T Float](kern *kernel[T], tA bool, m, k int, a []T, lda int) *PackedA[T] {
	mr := kern.mr
	pa := &PackedA[T]{m: m, k: k, mPad: (m + mr - 1) / mr * mr, kern: kern}
	pa.data = make([]T, pa.mPad*k)
	d := &job[T]{kern: kern, tA: tA, m: m, k: k, a: a, lda: lda}
	for pc := 0; pc < k; pc += kern.kc {
		packA(d, pa.data[pc*pa.mPad:], pc, min(kern.kc, k-pc), 0, m)
	}
	return pa
}

// Rows and Cols return m and k: op(a) is m×k.
func (pa *PackedA[T]) Rows() int { return pa.m }

// Cols returns k.
func (pa *PackedA[T]) Cols() int { return pa.k }

// Gemm is Gemm (with GemmEpilogue's ep) for the packed a: c = alpha*a*op(b)
// + beta*c, c m×n, op(b) k×n.
func (pa *PackedA[T]) Gemm(tB bool, n int, alpha T, b []T, ldb int, beta T, c []T, ldc int, ep *Epilogue[T]) error {
	m, k := pa.m, pa.k
	if n < 0 {
		return fmt.Errorf("gemm: n=%d must not be negative", n)
	}
	br, bc := k, n
	if tB {
		br, bc = n, k
	}
	if err := checkMatrix("b", br, bc, b, ldb); err != nil {
		return err
	}
	if err := checkC(m, n, c, ldc, ep, operand[T]{"b", b, span(br, bc, ldb)}, operand[T]{"packed a", pa.data, len(pa.data)}); err != nil {
		return err
	}
	if ep.empty() {
		ep = nil
	}
	d := newJob(pa.kern, false, tB, m, n, k, alpha, nil, 0, b, ldb, beta, c, ldc, ep)
	d.packed = pa
	d.run()
	return nil
}

// Conv is GemmConv with the packed a as the weight (m×k with k the
// geometry's C·K[0]·K[1]·K[2]).
func (pa *PackedA[T]) Conv(alpha T, x []T, g *ConvGeom, beta T, c []T, ldc int, ep *Epilogue[T]) error {
	if err := checkConv(x, g); err != nil {
		return err
	}
	m, k, n := pa.m, g.rows(), g.cols()
	if k != pa.k {
		return fmt.Errorf("gemm: conv: the geometry's k = %d (%d channels × kernel %v) but the packed weight has %d columns", k, g.C, g.K, pa.k)
	}
	if err := checkC(m, n, c, ldc, ep, operand[T]{"x", x, g.inputLen()}, operand[T]{"packed a", pa.data, len(pa.data)}); err != nil {
		return err
	}
	if ep.empty() {
		ep = nil
	}
	if useShift(g, m) {
		convShift(pa.kern, pa, m, alpha, nil, 0, x, g, beta, c, ldc, ep)
		return nil
	}
	d := newJob(pa.kern, false, false, m, n, k, alpha, nil, 0, x, 0, beta, c, ldc, ep)
	d.conv = g
	d.packed = pa
	d.run()
	return nil
}
