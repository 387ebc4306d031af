package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// checkAddClamp compares AddClamp's assembly with its portable loop on x
// (the row) and r, with and without a residual, bias and clamp.
func checkAddClamp[T Float](t *testing.T, x, r []T, s, lo, hi T) {
	t.Helper()
	nlo, nhi := NoClamp[T]()
	for _, c := range []struct {
		name      string
		r         []T
		s, lo, hi T
	}{
		{"bias+residual+clamp", r, s, lo, hi},
		{"bias+clamp", nil, s, lo, hi},
		{"residual", r, NoBias[T](), nlo, nhi},
		{"bias", nil, s, nlo, nhi},
	} {
		fast, slow := both(len(x), func(d []T) { copy(d, x); AddClamp(d, c.r, c.s, c.lo, c.hi) })
		if !same(fast, slow) {
			t.Errorf("AddClamp %s n=%d s=%v lo=%v hi=%v: assembly %v, portable %v", c.name, len(x), c.s, c.lo, c.hi, fast, slow)
		}
	}
}

// TestAddClampAgainstPortable compares the assembly epilogue with the
// portable one on random and special values of every size class.
func TestAddClampAgainstPortable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range sizes {
		checkAddClamp(t, fill[float32](r, n), fill[float32](r, n), float32(r.NormFloat64()), -1, 6)
		checkAddClamp(t, fill[float64](r, n), fill[float64](r, n), r.NormFloat64(), 0, math.Inf(1))
	}
}

// TestAddClampValues checks AddClamp against values worked out by hand:
// the bias then the residual added, the clamp as Clamp's (NaN kept), and
// NoBias and NoClamp changing nothing, -0 included.
func TestAddClampValues(t *testing.T) {
	nan := math.NaN()
	negz := math.Copysign(0, -1)
	for _, portable := range []bool{false, true} {
		restore := SetPortable(portable)
		// 9 elements: one vector of 8 and a tail of 1.
		x := []float64{1, -3, 2, 10, nan, negz, 0.5, -0.5, 7}
		r := []float64{1, 1, 1, 1, 1, negz, 0, 0, 1}
		got := append([]float64(nil), x...)
		AddClamp(got, r, 0.5, 0, 6)
		want := []float64{2.5, 0, 3.5, 6, nan, 0.5, 1, 0, 6}
		if !same(got, want) {
			t.Errorf("portable=%v: AddClamp(x, r, 0.5, 0, 6) = %v, want %v", portable, got, want)
		}
		lo, hi := NoClamp[float64]()
		got = append([]float64(nil), x...)
		AddClamp(got, nil, NoBias[float64](), lo, hi)
		if !same(got, x) || !math.Signbit(got[5]) {
			t.Errorf("portable=%v: AddClamp with NoBias and NoClamp = %v, want %v", portable, got, x)
		}
		g32 := []float32{1, -3, 2, 10, float32(nan), float32(negz), 0.5, -0.5, 7}
		AddClamp(g32, nil, -1, -1, 1)
		w32 := []float32{0, -1, 1, 1, float32(nan), -1, -0.5, -1, 1}
		if !same(g32, w32) {
			t.Errorf("portable=%v: float32 AddClamp(x, nil, -1, -1, 1) = %v, want %v", portable, g32, w32)
		}
		restore()
	}
}
