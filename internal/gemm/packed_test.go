package gemm

import (
	"math/rand/v2"
	"testing"
)

func TestPackedA(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, s := range [][3]int{{1, 1, 1}, {3, 40, 7}, {13, 33, 200}, {70, 49, 450}, {100, 300, 20}, {5, 0, 3}, {4, 7, 0}} {
		m, n, k := s[0], s[1], s[2]
		tA, tB := r.IntN(2) == 1, r.IntN(2) == 1
		p := newProblem[float32](r, tA, tB, m, n, k, r.IntN(3), 0.5, []float32{0, 1}[r.IntN(2)])
		want := p.run(nil)
		for _, kern := range kernels[float32]() {
			pa := packAWith(kern, tA, m, k, p.a, p.lda)
			c := append([]float32(nil), p.c0...)
			if err := pa.Gemm(tB, n, p.alpha, p.b, p.ldb, p.beta, c, p.ldc, nil); err != nil {
				t.Fatal(err)
			}
			p.compare(t, kern.name+" packed", c, want)
		}
		pa, err := PackA(tA, m, k, p.a, p.lda)
		if err != nil {
			t.Fatal(err)
		}
		c := append([]float32(nil), p.c0...)
		if err := pa.Gemm(tB, n, p.alpha, p.b, p.ldb, p.beta, c, p.ldc, nil); err != nil {
			t.Fatal(err)
		}
		p.compare(t, "PackA", c, want)
	}
	for it := range 60 {
		g := randGeom(r, 1+it%3)
		m := 1 + r.IntN(30)
		k, n := g.rows(), g.cols()
		x := randSlice[float32](r, g.inputLen())
		p := newProblem[float32](r, false, false, m, n, k, 0, 1, 0)
		p.b, p.ldb = im2colNaive(g, x), max(n, 1)
		p.ep = &Epilogue[float32]{RowBias: randSlice[float32](r, m)}
		want := p.run(nil)
		for _, kern := range kernels[float32]() {
			pa := packAWith(kern, false, m, k, p.a, p.lda)
			c := append([]float32(nil), p.c0...)
			if err := pa.Conv(1, x, g, 0, c, p.ldc, p.ep); err != nil {
				t.Fatal(err)
			}
			p.compare(t, kern.name+" packed conv "+geomString(g), c, want)
		}
	}
}

func TestPackedAErrors(t *testing.T) {
	a := make([]float32, 12)
	if _, err := PackA(false, 3, 5, a, 5); err == nil {
		t.Error("short a: no error")
	}
	pa, err := PackA(false, 3, 4, a, 4)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]float32, 8)
	c := make([]float32, 6)
	if err := pa.Gemm(false, 2, 1, b, 2, 0, c, 2, nil); err != nil {
		t.Errorf("valid product: %v", err)
	}
	if err := pa.Gemm(false, 3, 1, b, 3, 0, c, 3, nil); err == nil {
		t.Error("short b: no error")
	}
	g := &ConvGeom{C: 2, In: [3]int{1, 2, 2}, K: [3]int{1, 1, 1}, Out: [3]int{1, 2, 2}, Stride: [3]int{1, 1, 1}, Dilation: [3]int{1, 1, 1}}
	if err := pa.Conv(1, b, g, 0, make([]float32, 12), 4, nil); err == nil {
		t.Error("conv with k 2 against a packed k of 4: no error")
	}
}
