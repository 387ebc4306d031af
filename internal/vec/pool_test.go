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

func TestDeinterleave2(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range sizes {
		x := fill[float32](r, 2*n+1)
		for _, portable := range []bool{false, true} {
			restore := SetPortable(portable)
			even, odd := make([]float32, n), make([]float32, n)
			Deinterleave2(even, odd, x)
			restore()
			for j := range n {
				if !same(even[j:j+1], x[2*j:2*j+1]) || !same(odd[j:j+1], x[2*j+1:2*j+2]) {
					t.Fatalf("portable=%v n=%d: Deinterleave2 element %d: even %v odd %v, x %v", portable, n, j, even[j], odd[j], x[2*j:2*j+2])
				}
			}
		}
		x64 := fill[float64](r, 2*n)
		even, odd := make([]float64, n), make([]float64, n)
		Deinterleave2(even, odd, x64)
		for j := range n {
			if !same(even[j:j+1], x64[2*j:2*j+1]) || !same(odd[j:j+1], x64[2*j+1:2*j+2]) {
				t.Fatalf("float64 n=%d: Deinterleave2 element %d differs", n, j)
			}
		}
	}
}

// TestMaxFold3 checks MaxFold3 and MaxFold3Arg against three MaxFold and
// MaxFoldArg steps, with the assembly and the portable loops.
func TestMaxFold3(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range sizes {
		for _, portable := range []bool{false, true} {
			restore := SetPortable(portable)
			d0, x, y, z := fill[float32](r, n), fill[float32](r, n), fill[float32](r, n), fill[float32](r, n)
			a, b := append([]float32{}, d0...), append([]float32{}, d0...)
			aa, ba := make([]int32, n), make([]int32, n)
			MaxFold3Arg32(a, aa, x, y, z, 4)
			for i, s := range [][]float32{x, y, z} {
				MaxFoldArg32(b, ba, s, int32(4+i))
			}
			if !same(a, b) || !sameInts(aa, ba) {
				t.Errorf("portable=%v n=%d: MaxFold3Arg32 %v %v, three steps %v %v", portable, n, a, aa, b, ba)
			}
			c := append([]float32{}, d0...)
			MaxFold3(c, x, y, z)
			if !same(c, b) {
				t.Errorf("portable=%v n=%d: MaxFold3 %v, three steps %v", portable, n, c, b)
			}
			e0, ex, ey, ez := fill[float64](r, n), fill[float64](r, n), fill[float64](r, n), fill[float64](r, n)
			p, q := append([]float64{}, e0...), append([]float64{}, e0...)
			pa, qa := make([]int64, n), make([]int64, n)
			MaxFold3Arg64(p, pa, ex, ey, ez, 9)
			for i, s := range [][]float64{ex, ey, ez} {
				MaxFoldArg64(q, qa, s, int64(9+i))
			}
			ok := same(p, q)
			for i := range pa {
				ok = ok && pa[i] == qa[i]
			}
			g := append([]float64{}, e0...)
			MaxFold3(g, ex, ey, ez)
			if !ok || !same(g, q) {
				t.Errorf("portable=%v n=%d: MaxFold3(Arg)64 differs from three steps", portable, n)
			}
			restore()
		}
	}
}

// TestEven checks Even with every level of loops on x of exactly
// 2n−1 elements followed by sentinels (none may be read into dst) and
// dst followed by sentinels (none may be written), and on float64.
func TestEven(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range append(sizes, 2, 5, 6, 14, 17, 30) {
		if n == 0 {
			continue
		}
		x := fill[float32](r, 2*n-1+32)
		for i := 2*n - 1; i < len(x); i++ {
			x[i] = float32(math.NaN())
		}
		for _, l := range impls() {
			name := implName(l)
			restore := use(l)
			dst := make([]float32, n+32)
			for i := range dst {
				dst[i] = -7
			}
			Even(dst[:n], x[:2*n-1])
			restore()
			for j := range n {
				if !same(dst[j:j+1], x[2*j:2*j+1]) {
					t.Fatalf("%s n=%d: element %d is %v, want x[%d] = %v", name, n, j, dst[j], 2*j, x[2*j])
				}
			}
			for j := n; j < len(dst); j++ {
				if dst[j] != -7 {
					t.Fatalf("%s n=%d: Even wrote dst[%d] = %v past its end", name, n, j, dst[j])
				}
			}
		}
		x64 := fill[float64](r, 2*n-1)
		d64 := make([]float64, n)
		Even(d64, x64)
		for j := range n {
			if !same(d64[j:j+1], x64[2*j:2*j+1]) {
				t.Fatalf("float64 n=%d: element %d differs", n, j)
			}
		}
	}
}

// TestEvenRows checks EvenRows with every level of loops on three rows
// with gaps between them (which must be neither read into dst nor
// written).
func TestEvenRows(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range append(sizes, 2, 14, 17, 33) {
		if n == 0 {
			continue
		}
		const rows = 3
		ldd, ldx := n+5, 2*n+3
		x := fill[float32](r, (rows-1)*ldx+2*n-1)
		for _, l := range impls() {
			restore := use(l)
			dst := make([]float32, (rows-1)*ldd+n)
			for i := range dst {
				dst[i] = -7
			}
			EvenRows(dst, ldd, x, ldx, rows, n)
			restore()
			for i, v := range dst {
				want := float32(-7)
				if row, j := i/ldd, i%ldd; j < n {
					want = x[row*ldx+2*j]
				}
				if !same([]float32{v}, []float32{want}) {
					t.Fatalf("%s n=%d: dst[%d] = %v, want %v", implName(l), n, i, v, want)
				}
			}
		}
	}
}

// TestPhases2 checks Phases2 against its definition with every level of
// loops, for rows shorter and longer than the phases and paddings from
// negative (a part of an image starting inside it) to past the row.
func TestPhases2(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{0, 1, 2, 3, 7, 16, 17, 33, 224} {
		x := fill[float32](r, n)
		for _, q := range []int{1, 2, 5, 8, 9, 17, 115} {
			for _, pad := range []int{-5, -4, -1, 0, 1, 2, 3, 7, 40} {
				for _, l := range impls() {
					restore := use(l)
					p0, p1 := make([]float32, q), make([]float32, q)
					for i := range q {
						p0[i], p1[i] = -7, -7
					}
					Phases2(p0, p1, x, pad)
					restore()
					for tt := range q {
						for ph, got := range []float32{p0[tt], p1[tt]} {
							want := float32(0)
							if c := 2*tt + ph - pad; c >= 0 && c < n {
								want = x[c]
							}
							if !same([]float32{got}, []float32{want}) {
								t.Fatalf("%s n=%d q=%d pad=%d: phase %d[%d] = %v, want %v", implName(l), n, q, pad, ph, tt, got, want)
							}
						}
					}
				}
			}
		}
	}
}
