package gemm

import "unsafe"

// The portable micro-kernel: a 4×4 tile held in 16 local variables, which
// the compiler keeps in registers. Every CPU and the purego build use it;
// amd64 with AVX2 and FMA uses the assembly kernels instead.

const portableMR, portableNR = 4, 4

// portableKernel is kernel.full for the 4×4 portable kernel.
func portableKernel[T Float](k int, a, b, c *T, ldc int, alpha, beta T) {
	as := unsafe.Slice(a, k*portableMR)
	bs := unsafe.Slice(b, k*portableNR)
	var c00, c01, c02, c03, c10, c11, c12, c13, c20, c21, c22, c23, c30, c31, c32, c33 T
	for p := 0; p < k; p++ {
		av := as[p*4 : p*4+4 : p*4+4]
		bv := bs[p*4 : p*4+4 : p*4+4]
		a0, a1, a2, a3 := av[0], av[1], av[2], av[3]
		b0, b1, b2, b3 := bv[0], bv[1], bv[2], bv[3]
		c00 += a0 * b0
		c01 += a0 * b1
		c02 += a0 * b2
		c03 += a0 * b3
		c10 += a1 * b0
		c11 += a1 * b1
		c12 += a1 * b2
		c13 += a1 * b3
		c20 += a2 * b0
		c21 += a2 * b1
		c22 += a2 * b2
		c23 += a2 * b3
		c30 += a3 * b0
		c31 += a3 * b1
		c32 += a3 * b2
		c33 += a3 * b3
	}
	cs := unsafe.Slice(c, 3*ldc+4)
	store4(cs[0:4:4], c00, c01, c02, c03, alpha, beta)
	store4(cs[ldc:ldc+4:ldc+4], c10, c11, c12, c13, alpha, beta)
	store4(cs[2*ldc:2*ldc+4:2*ldc+4], c20, c21, c22, c23, alpha, beta)
	store4(cs[3*ldc:3*ldc+4:3*ldc+4], c30, c31, c32, c33, alpha, beta)
}

// store4 sets row = alpha*(x0..x3) + beta*row, not reading row when beta
// is 0.
func store4[T Float](row []T, x0, x1, x2, x3, alpha, beta T) {
	if beta == 0 {
		row[0], row[1], row[2], row[3] = alpha*x0, alpha*x1, alpha*x2, alpha*x3
		return
	}
	row[0] = alpha*x0 + beta*row[0]
	row[1] = alpha*x1 + beta*row[1]
	row[2] = alpha*x2 + beta*row[2]
	row[3] = alpha*x3 + beta*row[3]
}

var (
	portable32 = &kernel[float32]{name: "portable", mr: portableMR, nr: portableNR, mc: 128, kc: 256, nc: 2048, full: portableKernel[float32]}
	portable64 = &kernel[float64]{name: "portable", mr: portableMR, nr: portableNR, mc: 96, kc: 256, nc: 1024, full: portableKernel[float64]}
)

// kern32 and kern64 are the kernels Gemm uses: the portable ones unless
// the CPU has better (kernel_amd64.go).
var (
	kern32 = portable32
	kern64 = portable64
)

// asmKernels32 and asmKernels64 are the assembly kernels this CPU can
// run (tests and benchmarks compare them all with the portable one).
var (
	asmKernels32 []*kernel[float32]
	asmKernels64 []*kernel[float64]
)

// thin32 and thin64, when the CPU has them, are one-row kernels for
// products of at most thinRows rows.
var (
	thin32 *kernel[float32]
	thin64 *kernel[float64]
)

// thinRows is the most rows a product has for the thin kernel to do it.
const thinRows = 4

// kernelFor returns the kernel Gemm uses for T on products of m rows.
func kernelFor[T Float](m int) *kernel[T] {
	var z T
	if unsafe.Sizeof(z) == 4 {
		if m <= thinRows && thin32 != nil {
			return any(thin32).(*kernel[T])
		}
		return any(kern32).(*kernel[T])
	}
	if m <= thinRows && thin64 != nil {
		return any(thin64).(*kernel[T])
	}
	return any(kern64).(*kernel[T])
}

// Kernel names the micro-kernel Gemm uses for float32 and float64 on this
// CPU and build ("avx512", "avx2", "portable").
func Kernel() (f32, f64 string) { return kern32.name, kern64.name }
