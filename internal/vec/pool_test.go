package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMaxFoldAgainstPortable compares the max-folding loops in use with
// the portable ones over several folds of random and special values (taps
// recorded), every size class.
func TestMaxFoldAgainstPortable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range sizes {
		checkMaxFold[float32](t, r, n)
		checkMaxFold[float64](t, r, n)
	}
}

func checkMaxFold[T Float](t *testing.T, r *rand.Rand, n int) {
	t.Helper()
	xs := [][]T{fill[T](r, n), fill[T](r, n), fill[T](r, n), fill[T](r, n)}
	fold := func(portable bool) ([]T, []T, []int64) {
		defer SetPortable(portable)()
		plain, dst := make([]T, n), make([]T, n)
		for i := range dst {
			plain[i], dst[i] = T(math.Inf(-1)), T(math.Inf(-1))
		}
		arg := make([]int64, n)
		var arg32 []int32
		var d32 []float32
		if _, ok := any(dst).([]float32); ok {
			arg32, d32 = make([]int32, n), any(dst).([]float32)
		}
		for tap, x := range xs {
			MaxFold(plain, x)
			if d32 != nil {
				MaxFoldArg32(d32, arg32, any(x).([]float32), int32(tap))
			} else {
				MaxFoldArg64(any(dst).([]float64), arg, any(x).([]float64), int64(tap))
			}
		}
		for i, a := range arg32 {
			arg[i] = int64(a)
		}
		return plain, dst, arg
	}
	fp, fd, fa := fold(false)
	sp, sd, sa := fold(true)
	if !same(fp, sp) {
		t.Errorf("MaxFold n=%d: assembly %v, portable %v", n, fp, sp)
	}
	if !same(fd, sd) || !same(fp, fd) {
		t.Errorf("MaxFoldArg n=%d: assembly %v, portable %v (MaxFold %v)", n, fd, sd, fp)
	}
	for i := range fa {
		if fa[i] != sa[i] {
			t.Errorf("MaxFoldArg n=%d: taps: assembly %v, portable %v", n, fa, sa)
			break
		}
	}
}

// TestMaxFoldValues checks both implementations against values worked
// out by hand: NaN wins and a later NaN replaces an earlier one, an equal
// value (-0 against 0) keeps the earlier, -inf never replaces.
func TestMaxFoldValues(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	ninf := float32(math.Inf(-1))
	for _, portable := range []bool{false, true} {
		restore := SetPortable(portable)
		// Nine lanes, so that the assembly handles eight and the tail one.
		dst := []float32{1, 0, negZero, nan, ninf, 2, nan, 5, 0}
		x := []float32{2, negZero, 0, 1, ninf, nan, 3, inf, 1}
		arg := []int32{0, 0, 0, 0, 0, 0, 0, 0, 0}
		MaxFoldArg32(dst, arg, x, 7)
		if want := []float32{2, 0, negZero, nan, ninf, nan, nan, inf, 1}; !same(dst, want) {
			t.Errorf("portable=%v: MaxFoldArg32 values %v, want %v", portable, dst, want)
		}
		if want := []int32{7, 0, 0, 0, 0, 7, 0, 7, 7}; !sameInts(arg, want) {
			t.Errorf("portable=%v: MaxFoldArg32 taps %v, want %v", portable, arg, want)
		}
		// A later NaN replaces an earlier one: its payload is kept.
		p1, p2 := math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0x7ff8000000000002)
		d64 := []float64{p1, p1, p1, p1, p1}
		a64 := make([]int64, 5)
		MaxFoldArg64(d64, a64, []float64{p2, 1, p2, p2, p2}, 3)
		if math.Float64bits(d64[0]) != 0x7ff8000000000002 || math.Float64bits(d64[1]) != 0x7ff8000000000001 || a64[0] != 3 || a64[1] != 0 {
			t.Errorf("portable=%v: MaxFoldArg64 NaN payloads %x taps %v", portable, []uint64{math.Float64bits(d64[0]), math.Float64bits(d64[1])}, a64)
		}
		restore()
	}
}

func sameInts(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
