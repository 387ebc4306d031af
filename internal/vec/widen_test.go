package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAddWiden checks AddWiden, with the assembly and with the portable
// loop, against acc[i] + float64(x[i]) written out here, over every size
// class and with infinities, NaN and float32's extremes in x.
func TestAddWiden(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.MaxFloat32, math.SmallestNonzeroFloat32}
	for _, portable := range []bool{false, true} {
		restore := SetPortable(portable)
		for _, n := range append(sizes, 1024) {
			acc, x := make([]float64, n), make([]float32, n+3)
			for i := range x {
				x[i] = float32(r.NormFloat64() * 1e3)
				if r.IntN(8) == 0 {
					x[i] = special[r.IntN(len(special))]
				}
			}
			for i := range acc {
				acc[i] = r.NormFloat64() * 1e6
			}
			want := make([]float64, n)
			for i := range want {
				want[i] = acc[i] + float64(x[i])
			}
			AddWiden(acc, x)
			for i := range acc {
				if math.Float64bits(acc[i]) != math.Float64bits(want[i]) && !(math.IsNaN(acc[i]) && math.IsNaN(want[i])) {
					t.Fatalf("portable=%v n=%d: acc[%d] = %v, want %v", portable, n, i, acc[i], want[i])
				}
			}
		}
		restore()
	}
}
