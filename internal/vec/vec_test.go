package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sizes covers empty, tails only, one vector, whole steps and odd tails.
var sizes = []int{0, 1, 3, 4, 7, 8, 9, 15, 16, 31, 32, 33, 63, 64, 100, 129, 1000}

// special are values whose handling differs between careless loops: NaN,
// infinities, signed zeros, subnormals.
var special = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e-310, -1e-40, 1, -1, 6, 7, -3e38}

func fill[T Float](r *rand.Rand, n int) []T {
	s := make([]T, n)
	for i := range s {
		if r.IntN(4) == 0 {
			s[i] = T(special[r.IntN(len(special))])
		} else {
			s[i] = T(r.NormFloat64() * 10)
		}
	}
	return s
}

// same reports whether a and b hold the same values bit for bit, any NaN
// matching any NaN.
func same[T Float](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		if math.IsNaN(x) && math.IsNaN(y) {
			continue
		}
		if math.Float64bits(x) != math.Float64bits(y) {
			return false
		}
	}
	return true
}

// both calls f with every assembly this CPU allows (AVX-512 and AVX2,
// levels) and with the portable loops, and returns the portable result
// as slow and as fast the first assembly result that differs from it
// (else the last one; slow itself when there is no assembly).
func both[T Float](n int, f func(dst []T)) (fast, slow []T) {
	defer func(old *asmLoops) { asm = old }(asm)
	asm = nil
	slow = make([]T, n)
	f(slow)
	fast = slow
	for _, l := range levels {
		asm = l
		fast = make([]T, n)
		f(fast)
		if !same(fast, slow) {
			break
		}
	}
	return fast, slow
}

func checkAll[T Float](t *testing.T, r *rand.Rand, n int) {
	t.Helper()
	x, y := fill[T](r, n), fill[T](r, n)
	s := T(special[r.IntN(len(special))])
	if r.IntN(2) == 0 {
		s = T(r.NormFloat64())
	}
	lo, hi := T(-1), T(6)
	for op := Add; op < numOps; op++ {
		cases := map[string]func([]T){
			"Binary":       func(d []T) { Binary(op, d, x, y) },
			"BinaryScalar": func(d []T) { BinaryScalar(op, d, x, s) },
			"ScalarBinary": func(d []T) { ScalarBinary(op, d, s, y) },
		}
		for name, f := range cases {
			if fast, slow := both(n, f); !same(fast, slow) {
				t.Errorf("%s op %d n=%d s=%v: assembly %v, portable %v", name, op, n, s, fast, slow)
			}
		}
	}
	if fast, slow := both(n, func(d []T) { Relu(d, x) }); !same(fast, slow) {
		t.Errorf("Relu n=%d: assembly %v, portable %v", n, fast, slow)
	}
	if fast, slow := both(n, func(d []T) { Clamp(d, x, lo, hi) }); !same(fast, slow) {
		t.Errorf("Clamp n=%d: assembly %v, portable %v", n, fast, slow)
	}
}

// TestAgainstPortable compares the loops in use with the portable ones on
// random and special values of every size class.
func TestAgainstPortable(t *testing.T) {
	t.Logf("loops: %s", Impl())
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range sizes {
		checkAll[float32](t, r, n)
		checkAll[float64](t, r, n)
	}
}

// TestPortableValues checks the portable loops against values worked out
// by hand, the semantics every implementation must keep.
func TestPortableValues(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	nan := float32(math.NaN())
	x := []float32{-2, negZero, 3, nan, 7, float32(math.Inf(-1))}
	for _, portable := range []bool{false, true} {
		restore := SetPortable(portable)
		got := make([]float32, len(x))
		Relu(got, x)
		if want := []float32{0, negZero, 3, nan, 7, 0}; !same(got, want) {
			t.Errorf("portable=%v: Relu(%v) = %v, want %v", portable, x, got, want)
		}
		Clamp(got, x, -1, 6)
		if want := []float32{-1, negZero, 3, nan, 6, -1}; !same(got, want) {
			t.Errorf("portable=%v: Clamp(%v, -1, 6) = %v, want %v", portable, x, got, want)
		}
		ScalarBinary(Sub, got, 1, x)
		if want := []float32{3, 1, -2, nan, -6, float32(math.Inf(1))}; !same(got, want) {
			t.Errorf("portable=%v: 1 - %v = %v, want %v", portable, x, got, want)
		}
		BinaryScalar(Div, got, x, 2)
		if want := []float32{-1, negZero, 1.5, nan, 3.5, float32(math.Inf(-1))}; !same(got, want) {
			t.Errorf("portable=%v: %v / 2 = %v, want %v", portable, x, got, want)
		}
		restore()
	}
}

// TestInPlace checks that dst may be an operand.
func TestInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	x, y := fill[float64](r, 37), fill[float64](r, 37)
	want := make([]float64, 37)
	binaryGo(Mul, want, x, y)
	Binary(Mul, x, x, y)
	if !same(x, want) {
		t.Errorf("in place: %v, want %v", x, want)
	}
}

// FuzzVec compares the loops in use with the portable ones on fuzzed
// float32 and float64 data, sizes and scalars, the row loops (Sum,
// SqDev, Max, Min, ScaleShift, Affine, Exp) included, and Exp with
// math.Exp.
func FuzzVec(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}, uint8(0), 1.5, -1.0, 6.0)
	f.Add(make([]byte, 200), uint8(3), math.NaN(), 0.0, 0.0)
	f.Fuzz(func(t *testing.T, data []byte, op uint8, s, lo, hi float64) {
		if math.IsNaN(lo) || math.IsNaN(hi) {
			return
		}
		o := Op(op % uint8(numOps))
		n := len(data) / 8
		x32, y32 := make([]float32, n), make([]float32, n)
		x64, y64 := make([]float64, n), make([]float64, n)
		for i := range n {
			b := data[8*i : 8*i+8]
			u := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
				uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
			x64[i], y64[i] = math.Float64frombits(u), math.Float64frombits(u*0x9E3779B97F4A7C15)
			x32[i], y32[i] = math.Float32frombits(uint32(u)), math.Float32frombits(uint32(u>>32))
		}
		check := func(name string, fast, slow any) {
			var ok bool
			switch f := fast.(type) {
			case []float32:
				ok = same(f, slow.([]float32))
			case []float64:
				ok = same(f, slow.([]float64))
			}
			if !ok {
				t.Errorf("%s op %d: assembly %v, portable %v", name, o, fast, slow)
			}
		}
		f32 := map[string]func([]float32){
			"Binary32":       func(d []float32) { Binary(o, d, x32, y32) },
			"BinaryScalar32": func(d []float32) { BinaryScalar(o, d, x32, float32(s)) },
			"ScalarBinary32": func(d []float32) { ScalarBinary(o, d, float32(s), y32) },
			"Relu32":         func(d []float32) { Relu(d, x32) },
			"Clamp32":        func(d []float32) { Clamp(d, x32, float32(lo), float32(hi)) },
		}
		for name, g := range f32 {
			a, b := both(n, g)
			check(name, a, b)
		}
		// The epilogue loop, on x as the row and y as the residual.
		checkAddClamp(t, x32, y32, float32(s), float32(lo), float32(hi))
		checkAddClamp(t, x64, y64, s, lo, hi)
		// The row loops: assembly against portable, Exp against math.Exp.
		checkRows(t, x32, y32, x32, float32(s), float32(lo))
		f64 := map[string]func([]float64){
			"Binary64":       func(d []float64) { Binary(o, d, x64, y64) },
			"BinaryScalar64": func(d []float64) { BinaryScalar(o, d, x64, s) },
			"ScalarBinary64": func(d []float64) { ScalarBinary(o, d, s, y64) },
			"Relu64":         func(d []float64) { Relu(d, x64) },
			"Clamp64":        func(d []float64) { Clamp(d, x64, lo, hi) },
		}
		for name, g := range f64 {
			a, b := both(n, g)
			check(name, a, b)
		}
	})
}
