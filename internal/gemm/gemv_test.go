package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGemvT checks the dot-product path (products of a few rows by a
// transposed b) through GemmEpilogue against the naive loop, on odd
// lengths (the 32-, 8- and 1-wide loops of the dot product), padded
// leading dimensions, transposed a, beta and every epilogue part.
func TestGemvT(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, m := range []int{1, 2, 3, 4} {
		for _, n := range []int{1, 5, 64, 130, 1000} {
			for _, k := range []int{16, 17, 31, 32, 33, 100, 515} {
				tA := r.IntN(2) == 1
				p := newProblem[float32](r, tA, true, m, n, k, r.IntN(3)*3, []float32{1, 0.5, -2}[r.IntN(3)], []float32{0, 1, 0.25}[r.IntN(3)])
				if r.IntN(2) == 1 {
					p.ep = &Epilogue[float32]{RowBias: randSlice[float32](r, m), ColBias: randSlice[float32](r, n),
						Residual: randSlice[float32](r, m*n), LdResidual: n, Clamp: true, Min: -0.5, Max: float32(math.Inf(1))}
				}
				want := p.run(nil)
				got := append([]float32(nil), p.c0...)
				if err := GemmEpilogue(p.tA, p.tB, m, n, k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, got, p.ldc, p.ep); err != nil {
					t.Fatal(err)
				}
				p.compare(t, "gemv", got, want)
			}
		}
	}
}

// TestGemvTTaken checks that the products TestGemvT covers do take the
// dot-product path where the CPU has it, and others do not.
func TestGemvTTaken(t *testing.T) {
	if dot32 == nil || thin32 == nil {
		t.Skip("no AVX2 dot product here (or GOFX_GEMM=portable)")
	}
	a, b, c := make([]float32, 4*64), make([]float32, 64*64), make([]float32, 64*64)
	for _, tc := range []struct {
		tB      bool
		m, k    int
		taken   bool
		comment string
	}{
		{true, 1, 64, true, "vector times transposed matrix"},
		{true, 4, 64, true, "four rows"},
		{true, 5, 64, false, "five rows: the packed kernels"},
		{false, 1, 64, false, "b not transposed: the thin kernel reads it packed cheaply"},
		{true, 1, 8, false, "k below gemvMinK"},
	} {
		if got := gemvT[float32](false, tc.tB, tc.m, 64, tc.k, 1, a, tc.k, b, tc.k, 0, c, 64, nil); got != tc.taken {
			t.Errorf("%s: taken %v, want %v", tc.comment, got, tc.taken)
		}
	}
}

// BenchmarkGemvT times resnet18's classifier, [1,512] times a [1000,512]
// weight transposed, through Gemm (the dot-product path) and through the
// packed thin kernel it replaces.
func BenchmarkGemvT(b *testing.B) {
	const m, n, k = 1, 1000, 512
	r := rand.New(rand.NewPCG(1, 1))
	x, w, c := randSlice[float32](r, m*k), randSlice[float32](r, n*k), make([]float32, m*n)
	report := func(b *testing.B) {
		b.ReportMetric(2*m*n*k*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	}
	b.Run("dot", func(b *testing.B) {
		for b.Loop() {
			_ = Gemm(false, true, m, n, k, 1, x, k, w, k, 0, c, n)
		}
		report(b)
	})
	b.Run("packed", func(b *testing.B) {
		for b.Loop() {
			newJob(kernelFor[float32](m), false, true, m, n, k, 1, x, k, w, k, 0, c, n, nil).run()
		}
		report(b)
	})
}
