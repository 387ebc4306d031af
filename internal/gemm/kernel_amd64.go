//go:build !purego

package gemm

import (
	"os"

	"golang.org/x/sys/cpu"
)

// The AVX2/FMA micro-kernels of kernel_amd64.s. Each computes an mr×nr
// tile of c as kernel.full specifies, from packed strips.

// sgemm6x16AVX2 is the float32 6×16 kernel: 12 YMM accumulators, two B
// vectors and two broadcast A values per column of A.
//
//go:noescape
func sgemm6x16AVX2(k int, a, b, c *float32, ldc int, alpha, beta float32)

// sgemm6x16AVX2Ind is sgemm6x16AVX2 reading B unpacked: row p of the
// strip is the 16 values at b[offs[p]:] (kernel.ind).
//
//go:noescape
func sgemm6x16AVX2Ind(k int, a, b *float32, offs *int, c *float32, ldc int, alpha, beta float32)

// dgemm6x8AVX2 is the float64 6×8 kernel with the same register layout.
//
//go:noescape
func dgemm6x8AVX2(k int, a, b, c *float64, ldc int, alpha, beta float64)

// sgemm12x32AVX512 is the float32 12×32 AVX-512 kernel: 24 ZMM
// accumulators.
//
//go:noescape
func sgemm12x32AVX512(k int, a, b, c *float32, ldc int, alpha, beta float32)

// dgemm12x16AVX512 is the float64 12×16 AVX-512 kernel.
//
//go:noescape
func dgemm12x16AVX512(k int, a, b, c *float64, ldc int, alpha, beta float64)

// sgemm12x32AVX512Ind is sgemm12x32AVX512 reading B unpacked: row p of
// the strip is the 32 values at b[offs[p]:] (kernel.ind).
//
//go:noescape
func sgemm12x32AVX512Ind(k int, a, b *float32, offs *int, c *float32, ldc int, alpha, beta float32)

// sgemm1x32AVX2 is the float32 thin kernel: one row of 32 (products of
// a few rows, where a tall kernel would mostly multiply padding).
//
//go:noescape
func sgemm1x32AVX2(k int, a, b, c *float32, ldc int, alpha, beta float32)

// dgemm1x16AVX2 is the float64 thin kernel: one row of 16.
//
//go:noescape
func dgemm1x16AVX2(k int, a, b, c *float64, ldc int, alpha, beta float64)

var (
	thinF32   = &kernel[float32]{name: "avx2-thin", mr: 1, nr: 32, mc: 16, kc: 128, nc: 3072, full: sgemm1x32AVX2}
	thinF64   = &kernel[float64]{name: "avx2-thin", mr: 1, nr: 16, mc: 16, kc: 128, nc: 2048, full: dgemm1x16AVX2}
	avx512F32 = &kernel[float32]{name: "avx512", mr: 12, nr: 32, mc: 96, kc: 192, nc: 3072, full: sgemm12x32AVX512, ind: sgemm12x32AVX512Ind}
	avx512F64 = &kernel[float64]{name: "avx512", mr: 12, nr: 16, mc: 96, kc: 192, nc: 2048, full: dgemm12x16AVX512}
	avx2F32   = &kernel[float32]{name: "avx2", mr: 6, nr: 16, mc: 144, kc: 256, nc: 3072, full: sgemm6x16AVX2, ind: sgemm6x16AVX2Ind}
	avx2F64   = &kernel[float64]{name: "avx2", mr: 6, nr: 8, mc: 96, kc: 256, nc: 2048, full: dgemm6x8AVX2}
)

func init() {
	avx512F32.parts = []partKernel[float32]{
		{rows: 4, full: sgemm4of12x32AVX512, ind: sgemm4of12x32AVX512Ind},
		{rows: 8, full: sgemm8of12x32AVX512, ind: sgemm8of12x32AVX512Ind},
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		kern32, kern64 = avx2F32, avx2F64
		thin32, thin64 = thinF32, thinF64
		asmKernels32 = append(asmKernels32, avx2F32, thinF32)
		asmKernels64 = append(asmKernels64, avx2F64, thinF64)
	}
	if cpu.X86.HasAVX512F && cpu.X86.HasFMA {
		kern32, kern64 = avx512F32, avx512F64
		asmKernels32 = append(asmKernels32, avx512F32)
		asmKernels64 = append(asmKernels64, avx512F64)
	}
	switch os.Getenv("GOFX_GEMM") {
	case "avx2":
		if len(asmKernels32) > 0 {
			kern32, kern64 = avx2F32, avx2F64
		}
	case "portable":
		kern32, kern64 = portable32, portable64
		thin32, thin64 = nil, nil
	}
}

// The partial kernels of avx512F32: the first 8 or 4 rows of a 12-row
// packed strip (kernel.parts).

//go:noescape
func sgemm8of12x32AVX512(k int, a, b, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemm4of12x32AVX512(k int, a, b, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemm8of12x32AVX512Ind(k int, a, b *float32, offs *int, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemm4of12x32AVX512Ind(k int, a, b *float32, offs *int, c *float32, ldc int, alpha, beta float32)
