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
