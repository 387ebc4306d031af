package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGemvT checks the dot-product path (few rows of c by a transposed b,
// or few columns of c with a not transposed) through GemmEpilogue against
// the naive loop, on odd lengths (the 32-, 8- and 1-wide loops of the dot
// product), padded leading dimensions, the other operand transposed or
// not, beta and every epilogue part.
func TestGemvT(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, short := range []int{1, 2, 3, 4} {
		for _, long := range []int{1, 5, 64, 130, 1000} {
			for _, k := range []int{16, 17, 31, 32, 33, 100, 515} {
				for _, byRows := range []bool{true, false} {
					m, n, tA, tB := short, long, r.IntN(2) == 1, true
					if !byRows {
						m, n, tA, tB = long, short, false, r.IntN(2) == 1
					}
					p := newProblem[float32](r, tA, tB, m, n, k, r.IntN(3)*3, []float32{1, 0.5, -2}[r.IntN(3)], []float32{0, 1, 0.25}[r.IntN(3)])
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
}

// TestGemvTTaken checks that the products TestGemvT covers do take the
// dot-product path where the CPU has it, and others do not.
func TestGemvTTaken(t *testing.T) {
	if dot32 == nil || thin32 == nil {
		t.Skip("no AVX2 dot product here (or GOFX_GEMM=portable)")
	}
	a, b, c := make([]float32, 64*64), make([]float32, 64*64), make([]float32, 64*64)
	for _, tc := range []struct {
		tA, tB  bool
		m, n, k int
		taken   bool
		comment string
	}{
		{false, true, 1, 64, 64, true, "vector times transposed matrix"},
		{true, true, 4, 64, 64, true, "four rows, a transposed"},
		{false, true, 5, 64, 64, false, "five rows: the packed kernels"},
		{false, false, 1, 64, 64, false, "b not transposed: the thin kernel reads it packed cheaply"},
		{false, false, 64, 1, 64, true, "matrix times vector"},
		{false, true, 64, 4, 64, true, "four columns"},
		{true, false, 64, 1, 64, false, "a transposed: its rows are not contiguous"},
		{false, true, 1, 64, 8, false, "k below gemvMinK"},
	} {
		if got := gemvT[float32](tc.tA, tc.tB, tc.m, tc.n, tc.k, 1, a, 64, b, 64, 0, c, 64, nil); got != tc.taken {
			t.Errorf("%s: taken %v, want %v", tc.comment, got, tc.taken)
		}
	}
}

// BenchmarkGemvT times resnet18's classifier, [1,512] times a [1000,512]
// weight transposed, and the matrix-vector product of the same sizes,
// through Gemm (the dot-product path) and through the packed kernels it
// replaces.
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
	// The matrix-vector product [1000,512] times [512]: the same work with
	// the operands' roles swapped.
	b.Run("mv_dot", func(b *testing.B) {
		for b.Loop() {
			_ = Gemm(false, false, n, m, k, 1, w, k, x, 1, 0, c, 1)
		}
		report(b)
	})
	b.Run("mv_packed", func(b *testing.B) {
		for b.Loop() {
			newJob(kernelFor[float32](n), false, false, n, m, k, 1, w, k, x, 1, 0, c, 1, nil).run()
		}
		report(b)
	})
}
