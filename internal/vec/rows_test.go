package vec

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"
)

// sameScalar reports whether a and b are the same bit for bit, any NaN
// matching any NaN.
func sameScalar[T Float](a, b T) bool { return same([]T{a}, []T{b}) }

// bothScalar is both for a scalar result.
func bothScalar[T Float](f func() T) (fast, slow T) {
	a, b := both(1, func(d []T) { d[0] = f() })
	return a[0], b[0]
}

// checkRows compares the row loops in use with the portable ones on x,
// w and b (of one length), and Exp with math.Exp.
func checkRows(t *testing.T, x, w, b []float32, s, sh float32) {
	t.Helper()
	n := len(x)
	maps := map[string]func([]float32){
		"Exp":        func(d []float32) { Exp(d, x) },
		"Sigmoid":    func(d []float32) { Sigmoid(d, x) },
		"Silu":       func(d []float32) { Silu(d, x) },
		"ScaleShift": func(d []float32) { ScaleShift(d, x, s, sh) },
		"Affine":     func(d []float32) { Affine(d, x, w, b, s, sh) },
		"SubSub":     func(d []float32) { SubSub(d, x, s, sh) },
		"SubSubV":    func(d []float32) { SubSubV(d, x, w, b) },
		"SubExpSum":  func(d []float32) { SubExpSum(d, x, s) },
	}
	for name, f := range maps {
		if fast, slow := both(n, f); !same(fast, slow) {
			t.Errorf("%s n=%d s=%v t=%v: assembly %v, portable %v (x %v)", name, n, s, sh, fast, slow, x)
		}
	}
	acc0 := make([]float64, n)
	for i := range acc0 {
		acc0[i] = float64(w[i]) * 1e-3 // not exact in float32: a float64 sum
	}
	checkSubExpAcc(t, x, w, acc0)
	sums := map[string]func() float64{
		"Sum":       func() float64 { return Sum(x) },
		"SqDev":     func() float64 { return SqDev(x, float64(s)) },
		"SubExpSum": func() float64 { return SubExpSum(nil, x, s) },
	}
	for name, f := range sums {
		if fast, slow := bothScalar(f); !sameScalar(fast, slow) {
			t.Errorf("%s n=%d: assembly %v, portable %v", name, n, fast, slow)
		}
	}
	if n > 0 {
		for name, f := range map[string]func() float32{"Max": func() float32 { return Max(x) }, "Min": func() float32 { return Min(x) }} {
			fast, slow := bothScalar(f)
			if fast != slow && !(fast != fast && slow != slow) {
				t.Errorf("%s n=%d: assembly %v, portable %v", name, n, fast, slow)
			}
			want := x[0]
			for _, v := range x {
				if v != v {
					want = v
					break
				}
				if (name == "Max" && v > want) || (name == "Min" && v < want) {
					want = v
				}
			}
			if fast != want && !(fast != fast && want != want) {
				t.Errorf("%s n=%d = %v, want %v", name, n, fast, want)
			}
		}
	}
	got := make([]float32, n)
	Exp(got, x)
	for i, v := range x {
		if err := expErr(v, got[i]); err != "" {
			t.Errorf("Exp(%v) = %v: %s", v, got[i], err)
		}
	}
}

// expErr says how y misses e^x by more than 2 ulp (or, for a subnormal
// e^x, more than one subnormal spacing); "" when it does not.
func expErr(x, y float32) string {
	want := math.Exp(float64(x))
	switch {
	case math.IsNaN(float64(x)):
		if y == y {
			return "want NaN"
		}
		return ""
	case float32(want) == y:
		return ""
	case math.IsInf(float64(float32(want)), 1) || math.IsInf(float64(y), 0) || y != y:
		return "want " + fmtF(float32(want))
	}
	spacing := math.Abs(float64(math.Nextafter32(float32(want), float32(math.Inf(1)))) - float64(float32(want)))
	if float32(want) < 1.1754944e-38 {
		spacing = math.Float64frombits(0x36a0000000000000) // 2^-149
		if math.Abs(float64(y)-want) <= spacing {
			return ""
		}
	} else if math.Abs(float64(y)-want) <= 2*spacing {
		return ""
	}
	return "want " + fmtF(float32(want))
}

func fmtF(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) }

// TestRowsAgainstPortable compares the row loops in use with the
// portable ones (and Exp with math.Exp) on random and special values of
// every size class.
func TestRowsAgainstPortable(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range append(sizes, 47, 48, 257) {
		x, w, b := fill[float32](r, n), fill[float32](r, n), fill[float32](r, n)
		checkRows(t, x, w, b, float32(r.NormFloat64()), float32(r.NormFloat64()))
		for i := range x {
			x[i] = float32(r.Float64()*200 - 110) // exp's whole range
		}
		checkRows(t, x, w, b, 0.5, -1)
	}
}

// TestExpRange checks Exp against math.Exp on a sweep of float32 values
// across its range and at its edges, with every loop (impls).
func TestExpRange(t *testing.T) {
	var x []float32
	for v := float32(-105); v < 90; v += 0.0007 {
		x = append(x, v)
	}
	edges := []float32{88.72283, 88.72284, 88.7229, -87.33654, -87.3366, -103.97, -103.98, -103.28, 0, float32(math.Copysign(0, -1)),
		1e-30, -1e-30, 1e-45, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.MaxFloat32, -math.MaxFloat32}
	x = append(x, edges...)
	for _, l := range impls() {
		restore := use(l)
		got := make([]float32, len(x))
		Exp(got, x)
		bad := 0
		for i, v := range x {
			if err := expErr(v, got[i]); err != "" {
				if bad++; bad < 10 {
					t.Errorf("%s: Exp(%v) = %v, %s", Impl(), v, got[i], err)
				}
			}
		}
		restore()
	}
}

// impls returns every loop this CPU and build allow: the assembly levels
// and nil, the portable loops.
func impls() []*asmLoops { return append(append([]*asmLoops(nil), levels...), nil) }

// implName names the loops l: its level, or "portable" for nil.
func implName(l *asmLoops) string {
	if l == nil {
		return "portable"
	}
	return l.name
}

// use selects the loops l (nil: portable) and returns a function
// restoring the previous choice.
func use(l *asmLoops) (restore func()) {
	old := asm
	asm = l
	return func() { asm = old }
}

// expEdges are the exp family's special inputs: NaN, ±Inf, ±0, the
// clamp bounds, the overflow threshold (e^88.7228391 is the largest
// finite float32) and the last results in the normals (-87.336544) and
// the subnormals (e^-103.972 rounds to 2^-149), subnormal and huge
// inputs.
var expEdges = []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)),
	89, -104, 89.0001, -104.0001, 88.72283, 88.7228391, 88.72284, -88.72283, -87.336544, -87.33655, -103.2789, -103.27893,
	-103.972, -103.97208, -103.98, 1e-40, -1e-40, 1e-45, -1e-45, math.MaxFloat32, -math.MaxFloat32, 1, -1, 0.5, -0.5}

// TestExpFamilyEdges compares every assembly loop of the exp family
// (Exp, Sigmoid, Silu, SubExpSum with and without its output) with the
// portable loops, bit for bit, with expEdges at every lane of odd and
// whole vector lengths, and Exp with math.Exp.
func TestExpFamilyEdges(t *testing.T) {
	for n := 1; n <= 70; n++ {
		for shift := range len(expEdges) {
			x := make([]float32, n)
			for i := range x {
				x[i] = expEdges[(i+shift)%len(expEdges)]
			}
			for _, m := range []float32{0, 3.5, -2, float32(math.Inf(1))} {
				checkExpFamily(t, x, m)
			}
		}
	}
}

// checkSubExpAcc compares SubExpAcc(dst, x, m, acc) with the loops in
// use and the portable ones, and with Binary(Sub), Exp and float64
// additions.
func checkSubExpAcc(t *testing.T, x, m []float32, acc0 []float64) {
	t.Helper()
	n := len(x)
	run := func(f func(d []float32, acc []float64)) func([]float64) {
		// d's values follow acc's: one slice to compare both.
		return func(out []float64) {
			d, acc := make([]float32, n), out[:n]
			copy(acc, acc0)
			f(d, acc)
			for i, v := range d {
				out[n+i] = float64(v)
			}
		}
	}
	fast, slow := both(2*n, run(func(d []float32, acc []float64) { SubExpAcc(d, x, m, acc) }))
	if !same(fast, slow) {
		t.Errorf("SubExpAcc n=%d: assembly %v, portable %v (x %v, m %v)", n, fast, slow, x, m)
	}
	want := make([]float64, 2*n)
	run(func(d []float32, acc []float64) {
		Binary(Sub, d, x, m)
		Exp(d, d)
		for i, v := range d {
			acc[i] += float64(v)
		}
	})(want)
	if !same(slow, want) {
		t.Errorf("SubExpAcc n=%d = %v, want Exp(x-m) and its sums %v", n, slow, want)
	}
}

// checkExpFamily compares the exp family's loops in use with the
// portable ones on x (SubExpSum with m), and checks SubExpSum against
// Exp of x - m and Sum.
func checkExpFamily(t *testing.T, x []float32, m float32) {
	t.Helper()
	n := len(x)
	maps := map[string]func([]float32){
		"Exp":       func(d []float32) { Exp(d[:n], x) },
		"Sigmoid":   func(d []float32) { Sigmoid(d[:n], x) },
		"Silu":      func(d []float32) { Silu(d[:n], x) },
		"SubExpSum": func(d []float32) { d[n] = float32(SubExpSum(d[:n], x, m)) },
		"SubSub":    func(d []float32) { SubSub(d[:n], x, m, 0.25) },
	}
	for name, f := range maps {
		if fast, slow := both(n+1, f); !same(fast, slow) {
			t.Errorf("%s n=%d m=%v: assembly %v, portable %v (x %v)", name, n, m, fast, slow, x)
		}
	}
	mv := make([]float32, n)
	acc0 := make([]float64, n)
	for i := range mv {
		mv[i] = expEdges[(i*7)%len(expEdges)]
		acc0[i] = float64(i) / 3
	}
	checkSubExpAcc(t, x, mv, acc0)
	for _, l := range impls() {
		restore := use(l)
		e := make([]float32, n)
		s := SubExpSum(e, x, m)
		want := make([]float32, n)
		BinaryScalar(Sub, want, x, m)
		Exp(want, want)
		if !same(e, want) {
			t.Errorf("%s: SubExpSum(%v, %v) = %v, want Exp(x-m) = %v", Impl(), x, m, e, want)
		}
		if ws := Sum(want); !sameScalar(s, ws) {
			t.Errorf("%s: SubExpSum(%v, %v) sums to %v, want Sum = %v", Impl(), x, m, s, ws)
		}
		if so := SubExpSum(nil, x, m); !sameScalar(so, s) {
			t.Errorf("%s: SubExpSum(nil, %v, %v) = %v, want %v", Impl(), x, m, so, s)
		}
		restore()
	}
}

// TestRowValues checks the row loops against values worked out by hand.
func TestRowValues(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, l := range impls() {
		restore := use(l)
		portable := Impl()
		x := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}
		if m, v := Moments(x); m != 9.5 || v != 26.916666666666668 {
			t.Errorf("%s: Moments(1..18) = %v, %v, want 9.5, 26.9166…", portable, m, v)
		}
		if got := Max(x); got != 18 {
			t.Errorf("%s: Max(1..18) = %v", portable, got)
		}
		if got := Min(x); got != 1 {
			t.Errorf("%s: Min(1..18) = %v", portable, got)
		}
		for _, i := range []int{0, 5, 17} {
			y := append([]float32(nil), x...)
			y[i] = nan
			if got := Max(y); got == got {
				t.Errorf("%s: Max with NaN at %d = %v, want NaN", portable, i, got)
			}
			if got := Min(y); got == got {
				t.Errorf("%s: Min with NaN at %d = %v, want NaN", portable, i, got)
			}
		}
		y := append([]float32(nil), x...)
		y[3], y[12] = inf, -inf
		if Max(y) != inf || Min(y) != -inf {
			t.Errorf("%s: Max/Min with ±Inf = %v, %v", portable, Max(y), Min(y))
		}
		got := make([]float32, 9)
		e := []float32{0, 1, -1, inf, -inf, nan, 100, -200, 2}
		Exp(got, e)
		want := []float32{1, 2.7182817, 0.36787945, inf, 0, nan, inf, 0, 7.389056}
		if !same(got, want) {
			t.Errorf("%s: Exp(%v) = %v, want %v", portable, e, got, want)
		}
		SubSub(got, x[:9], 1, 2)
		if want := []float32{-2, -1, 0, 1, 2, 3, 4, 5, 6}; !same(got, want) {
			t.Errorf("%s: SubSub = %v, want %v", portable, got, want)
		}
		SubSubV(got, x[:9], x[1:10], x[:9])
		if want := []float32{-2, -3, -4, -5, -6, -7, -8, -9, -10}; !same(got, want) {
			t.Errorf("%s: SubSubV = %v, want %v", portable, got, want)
		}
		ScaleShift(got, x[:9], 2, -1)
		if want := []float32{1, 3, 5, 7, 9, 11, 13, 15, 17}; !same(got, want) {
			t.Errorf("%s: ScaleShift = %v, want %v", portable, got, want)
		}
		Affine(got, x[:9], x[:9], x[:9], 2, -1)
		if want := []float32{2, 8, 18, 32, 50, 72, 98, 128, 162}; !same(got, want) {
			t.Errorf("%s: Affine = %v, want %v", portable, got, want)
		}
		restore()
	}
}

// TestFMA32 checks fma32 against a*b + c computed exactly (math/big) and
// rounded once, on random triples and on sums a float64 rounding puts
// exactly halfway between two float32.
func TestFMA32(t *testing.T) {
	exact := func(a, b, c float32) float32 {
		x := new(big.Float).SetPrec(400).SetFloat64(float64(a))
		x.Mul(x, new(big.Float).SetPrec(400).SetFloat64(float64(b)))
		x.Add(x, new(big.Float).SetPrec(400).SetFloat64(float64(c)))
		f, _ := x.Float32()
		return f
	}
	r := rand.New(rand.NewPCG(7, 8))
	check := func(a, b, c float32) {
		if got, want := fma32(a, b, c), exact(a, b, c); got != want && !(got != got && want != want) {
			t.Errorf("fma32(%v, %v, %v) = %v, want %v", a, b, c, got, want)
		}
	}
	for range 200000 {
		a, b := float32(r.NormFloat64()), float32(r.NormFloat64())
		c := float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(80)-40)))
		check(a, b, c)
	}
	// 1 + 2^-24 is a float32 tie; a tiny c on either side breaks it.
	for _, c := range []float32{1e-30, -1e-30, 0x1p-60, -0x1p-60} {
		check(1+0x1p-23, 1+0x1p-24, c) // product 1 + 3·2^-24 + 2^-47
		check(1, 1, 0x1p-24+c)
		check(0x1p-12+0x1p-35, 0x1p12, 1+c)
	}
}
