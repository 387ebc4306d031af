package vec

import (
	"fmt"
	"testing"
)

// BenchmarkAdd times Binary(Add) on float32 slices of 2^20 elements with
// the loops in use and the portable ones, and reports GB/s (12 bytes per
// element).
func BenchmarkAdd(b *testing.B) {
	const n = 1 << 20
	x, y, d := make([]float32, n), make([]float32, n), make([]float32, n)
	for _, portable := range []bool{false, true} {
		b.Run(fmt.Sprintf("portable=%v", portable), func(b *testing.B) {
			defer SetPortable(portable)()
			for b.Loop() {
				Binary(Add, d, x, y)
			}
			b.ReportMetric(12*n*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
	}
}

// BenchmarkExp times Exp on 2^20 float32 with every loop this CPU and
// build allow (avx512, avx2, portable), and reports GB/s (8 bytes per
// element).
func BenchmarkExp(b *testing.B) {
	const n = 1 << 20
	x, d := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i] = float32(i%2000)/100 - 10
	}
	for _, l := range impls() {
		name := implName(l)
		b.Run(name, func(b *testing.B) {
			defer use(l)()
			for b.Loop() {
				Exp(d, x)
			}
			b.ReportMetric(8*n*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
	}
}

// BenchmarkSoftmaxRow times softmax's passes over rows of 1024 float32
// (Max, SubExpSum, a scale) with every loop, reporting GB/s (8 bytes per
// element: the row read and the output written once).
func BenchmarkSoftmaxRow(b *testing.B) {
	const n = 1024
	x, d := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i] = float32(i%37)/5 - 3
	}
	for _, l := range impls() {
		name := implName(l)
		b.Run(name, func(b *testing.B) {
			defer use(l)()
			for b.Loop() {
				m := Max(x)
				s := SubExpSum(d, x, m)
				BinaryScalar(Mul, d, d, float32(1/s))
			}
			b.ReportMetric(8*n*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
	}
}

// BenchmarkMoments times Moments and Max on rows of 768 float32 (a
// transformer's width), reporting GB/s of input read.
func BenchmarkMoments(b *testing.B) {
	x := make([]float32, 768)
	for i := range x {
		x[i] = float32(i%17) - 8
	}
	for _, portable := range []bool{false, true} {
		b.Run(fmt.Sprintf("portable=%v", portable), func(b *testing.B) {
			defer SetPortable(portable)()
			for b.Loop() {
				Moments(x)
				Max(x)
			}
			b.ReportMetric(4*768*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
	}
}

// BenchmarkAddClamp times AddClamp as internal/gemm's epilogue calls it:
// rows of 32 float32 (one 12×32 tile row) with a bias, a residual and a
// ReLU clamp, 2^15 rows, with the loops in use and the portable ones, and
// reports GB/s (12 bytes per element: the row read and written, the
// residual read).
func BenchmarkAddClamp(b *testing.B) {
	const w, rows = 32, 1 << 15
	d, r := make([]float32, w*rows), make([]float32, w*rows)
	_, inf := NoClamp[float32]()
	for _, portable := range []bool{false, true} {
		b.Run(fmt.Sprintf("portable=%v", portable), func(b *testing.B) {
			defer SetPortable(portable)()
			for b.Loop() {
				for i := 0; i < len(d); i += w {
					AddClamp(d[i:i+w], r[i:i+w], 0.5, 0, inf)
				}
			}
			b.ReportMetric(12*w*rows*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
	}
}
