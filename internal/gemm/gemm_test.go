package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// naive computes c = alpha*op(a)*op(b) + beta*c with a triple loop,
// summing in float64, then applies ep.
func naive[T Float](tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int, ep *Epilogue[T]) {
	for i := range m {
		for j := range n {
			var s float64
			for p := range k {
				var av, bv T
				if tA {
					av = a[p*lda+i]
				} else {
					av = a[i*lda+p]
				}
				if tB {
					bv = b[j*ldb+p]
				} else {
					bv = b[p*ldb+j]
				}
				s += float64(av) * float64(bv)
			}
			v := T(float64(alpha) * s)
			if beta != 0 {
				v += beta * c[i*ldc+j]
			}
			if ep != nil {
				if ep.RowBias != nil {
					v += ep.RowBias[i]
				}
				if ep.ColBias != nil {
					v += ep.ColBias[j]
				}
				if ep.Residual != nil {
					v += ep.Residual[i*ep.LdResidual+j]
				}
				if ep.Clamp {
					v = min(max(v, ep.Min), ep.Max)
				}
			}
			c[i*ldc+j] = v
		}
	}
}

func randSlice[T Float](r *rand.Rand, n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(r.Float64()*2 - 1)
	}
	return s
}

// problem is one product's arguments; c0 is c before the product.
type problem[T Float] struct {
	tA, tB        bool
	m, n, k       int
	alpha, beta   T
	a, b, c0      []T
	lda, ldb, ldc int
	ep            *Epilogue[T]
}

func newProblem[T Float](r *rand.Rand, tA, tB bool, m, n, k int, pad int, alpha, beta T) *problem[T] {
	p := &problem[T]{tA: tA, tB: tB, m: m, n: n, k: k, alpha: alpha, beta: beta}
	ar, ac := m, k
	if tA {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB {
		br, bc = n, k
	}
	p.lda, p.ldb, p.ldc = max(ac, 1)+pad, max(bc, 1)+pad, max(n, 1)+pad
	p.a = randSlice[T](r, span(ar, ac, p.lda))
	p.b = randSlice[T](r, span(br, bc, p.ldb))
	p.c0 = randSlice[T](r, span(m, n, p.ldc)+pad)
	if beta == 0 {
		for i := range p.c0 {
			p.c0[i] = T(math.NaN()) // must be ignored
		}
	}
	return p
}

// run computes the product with kern (nil: naive) into a copy of c0.
func (p *problem[T]) run(kern *kernel[T]) []T {
	c := append([]T(nil), p.c0...)
	if kern == nil {
		naive(p.tA, p.tB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, c, p.ldc, p.ep)
		return c
	}
	if err := check(p.tA, p.tB, p.m, p.n, p.k, p.a, p.lda, p.b, p.ldb, c, p.ldc, p.ep); err != nil {
		panic(err)
	}
	newJob(kern, p.tA, p.tB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, c, p.ldc, p.ep).run()
	return c
}

// compare fails t unless got matches want within a tolerance scaled by
// k, and got's padding (between rows, after the last) is untouched.
func (p *problem[T]) compare(t *testing.T, what string, got, want []T) {
	t.Helper()
	var z T
	eps := 1e-5
	if any(z) == any(float64(0)) {
		eps = 1e-13
	}
	tol := eps * float64(p.k+4) * (1 + math.Abs(float64(p.alpha)))
	for x := range got {
		i, j := x/p.ldc, x%p.ldc
		if i >= p.m || j >= p.n {
			if math.Float64bits(float64(got[x])) != math.Float64bits(float64(p.c0[x])) {
				t.Fatalf("%s: %+v: element %d outside c changed: %v, was %v", what, p.dims(), x, got[x], p.c0[x])
			}
			continue
		}
		g, w := float64(got[x]), float64(want[x])
		if math.IsNaN(w) != math.IsNaN(g) || math.Abs(g-w) > tol*(1+math.Abs(w)) {
			t.Fatalf("%s: %+v: c[%d,%d] = %v, want %v", what, p.dims(), i, j, g, w)
		}
	}
}

func (p *problem[T]) dims() map[string]any {
	return map[string]any{"tA": p.tA, "tB": p.tB, "m": p.m, "n": p.n, "k": p.k, "alpha": p.alpha, "beta": p.beta, "lda": p.lda, "ldb": p.ldb, "ldc": p.ldc, "epilogue": p.ep != nil}
}

// kernels returns every kernel this build and CPU can use for T: the
// portable one and the assembly ones.
func kernels[T Float]() []*kernel[T] {
	var z T
	if any(z) == any(float32(0)) {
		return any(append([]*kernel[float32]{portable32}, asmKernels32...)).([]*kernel[T])
	}
	return any(append([]*kernel[float64]{portable64}, asmKernels64...)).([]*kernel[T])
}

func testShapes[T Float](t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sizes := []int{1, 2, 3, 5, 6, 7, 8, 13, 16, 17, 31, 33, 47, 70}
	ks := kernels[T]()
	for _, m := range sizes {
		for _, n := range sizes {
			for _, k := range []int{0, 1, 2, 7, 16, 33, 70} {
				tA, tB := r.IntN(2) == 1, r.IntN(2) == 1
				pad := r.IntN(3) * 3
				alpha := []T{1, 0.5, -2}[r.IntN(3)]
				beta := []T{0, 1, 0.25}[r.IntN(3)]
				p := newProblem[T](r, tA, tB, m, n, k, pad, alpha, beta)
				want := p.run(nil)
				for _, kern := range ks {
					p.compare(t, kern.name, p.run(kern), want)
				}
			}
		}
	}
}

func TestShapesFloat32(t *testing.T) { testShapes[float32](t) }
func TestShapesFloat64(t *testing.T) { testShapes[float64](t) }

// TestBlocking runs products larger than one block in every dimension,
// so that several panels, several K blocks (beta applied once) and the
// parallel split by rows and by columns are exercised.
func TestBlocking(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, s := range [][3]int{{300, 20, 260}, {5, 3100, 200}, {7, 40, 520}, {150, 3100, 3}} {
		for _, tr := range [][2]bool{{false, false}, {true, true}, {false, true}, {true, false}} {
			p := newProblem[float32](r, tr[0], tr[1], s[0], s[1], s[2], 1, 1.5, 0.5)
			want := p.run(nil)
			for _, kern := range kernels[float32]() {
				p.compare(t, kern.name, p.run(kern), want)
			}
			q := newProblem[float64](r, tr[0], tr[1], s[0], s[1], s[2], 2, 1, 0)
			want64 := q.run(nil)
			for _, kern := range kernels[float64]() {
				q.compare(t, kern.name, q.run(kern), want64)
			}
		}
	}
}

func TestEpilogue(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, s := range [][3]int{{1, 1, 1}, {7, 19, 5}, {13, 40, 300}, {70, 33, 0}, {200, 50, 20}, {160, 70, 60}} {
		m, n, k := s[0], s[1], s[2]
		for variant := range 4 {
			p := newProblem[float32](r, variant&1 == 1, false, m, n, k, 1, 1, []float32{0, 1}[variant>>1])
			ep := &Epilogue[float32]{Clamp: true, Min: 0, Max: float32(math.Inf(1))}
			if variant != 1 {
				ep.RowBias = randSlice[float32](r, m)
			}
			if variant != 2 {
				ep.ColBias = randSlice[float32](r, n)
			}
			if variant >= 2 {
				ep.LdResidual = n + 3
				ep.Residual = randSlice[float32](r, span(m, n, n+3))
				ep.Max = 0.5
			}
			p.ep = ep
			want := p.run(nil)
			for _, kern := range kernels[float32]() {
				p.compare(t, kern.name, p.run(kern), want)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	a := make([]float32, 12)
	b := make([]float32, 12)
	c := make([]float32, 12)
	tests := []struct {
		name string
		err  error
	}{
		{"negative", Gemm(false, false, -1, 2, 2, 1, a, 2, b, 2, 0, c, 2)},
		{"lda", Gemm(false, false, 2, 2, 3, 1, a, 2, b, 2, 0, c, 2)},
		{"short a", Gemm(false, false, 4, 2, 4, 1, a, 4, b, 2, 0, c, 2)},
		{"short b", Gemm(false, true, 2, 4, 4, 1, a, 4, b, 4, 0, c, 4)},
		{"ldc", Gemm(false, false, 2, 3, 2, 1, a, 2, b, 3, 0, c, 2)},
		{"c overlaps a", Gemm(false, false, 2, 2, 2, 1, a, 2, b, 2, 0, a[3:], 2)},
		{"c overlaps b", Gemm(false, false, 2, 2, 2, 1, a, 2, b, 2, 0, b, 2)},
		{"short row bias", GemmEpilogue(false, false, 3, 2, 2, 1, a, 2, b, 2, 0, c, 2, &Epilogue[float32]{RowBias: make([]float32, 2)})},
		{"residual overlaps c", GemmEpilogue(false, false, 2, 2, 2, 1, a, 2, b, 2, 0, c, 2, &Epilogue[float32]{Residual: c[2:], LdResidual: 2})},
	}
	for _, tt := range tests {
		if tt.err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
	if err := Gemm[float32](false, false, 0, 0, 0, 1, nil, 1, nil, 1, 0, nil, 1); err != nil {
		t.Errorf("empty product: %v", err)
	}
	// Disjoint halves of one array do not overlap.
	if err := Gemm(false, false, 2, 2, 2, 1, a[:4], 2, a[4:8], 2, 0, a[8:], 2); err != nil {
		t.Errorf("disjoint parts of one array: %v", err)
	}
}

func FuzzGemm(f *testing.F) {
	f.Add(uint16(6), uint16(16), uint16(5), uint8(0), uint8(0), uint64(1))
	f.Add(uint16(1), uint16(1), uint16(0), uint8(3), uint8(5), uint64(2))
	f.Add(uint16(70), uint16(33), uint16(300), uint8(1), uint8(2), uint64(3))
	f.Add(uint16(13), uint16(3200), uint16(3), uint8(2), uint8(7), uint64(4))
	f.Add(uint16(1), uint16(1000), uint16(512), uint8(2), uint8(0), uint64(5)) // a linear layer at batch 1
	f.Add(uint16(3), uint16(37), uint16(45), uint8(19), uint8(4), uint64(6))   // few rows, transposed a and b, beta 1
	f.Fuzz(func(t *testing.T, m, n, k uint16, flags, pad uint8, seed uint64) {
		mm, nn, kk := int(m%400), int(n%4000), int(k%600)
		if mm*nn*kk > 1<<22 || mm*nn > 1<<18 {
			t.Skip()
		}
		r := rand.New(rand.NewPCG(seed, 7))
		alpha := []float32{1, -1, 0.5, 0}[flags>>2&3]
		beta := []float32{0, 1, 2, -0.5}[flags>>4&3]
		p := newProblem[float32](r, flags&1 == 1, flags&2 == 2, mm, nn, kk, int(pad%9), alpha, beta)
		want := p.run(nil)
		for _, kern := range kernels[float32]() {
			p.compare(t, kern.name, p.run(kern), want)
		}
		// Gemm itself: its choice of kernel and the dot-product path.
		got := append([]float32(nil), p.c0...)
		if err := Gemm(p.tA, p.tB, mm, nn, kk, alpha, p.a, p.lda, p.b, p.ldb, beta, got, p.ldc); err != nil {
			t.Fatal(err)
		}
		p.compare(t, "Gemm", got, want)
		q := newProblem[float64](r, flags&2 == 2, flags&1 == 1, mm, nn, kk, int(pad%5), float64(alpha), float64(beta))
		want64 := q.run(nil)
		for _, kern := range kernels[float64]() {
			q.compare(t, kern.name, q.run(kern), want64)
		}
	})
}

func fmtAny(v any) string { return fmt.Sprintf("%+v", v) }

// TestConcurrent runs products from several goroutines at once, as
// kernels does (a batch's items in parallel), sharing the worker pool and
// the buffer pools.
func TestConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	var probs []*problem[float32]
	var wants [][]float32
	for range 6 {
		p := newProblem[float32](r, r.IntN(2) == 1, r.IntN(2) == 1, 40+r.IntN(60), 40+r.IntN(60), 60+r.IntN(300), 1, 1, 0.5)
		probs = append(probs, p)
		wants = append(wants, p.run(nil))
	}
	got := make([][]float32, len(probs))
	done := make(chan int)
	for i, p := range probs {
		go func() {
			c := append([]float32(nil), p.c0...)
			for range 5 {
				copy(c, p.c0)
				if err := Gemm(p.tA, p.tB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, c, p.ldc); err != nil {
					panic(err)
				}
			}
			got[i] = c
			done <- i
		}()
	}
	for range probs {
		<-done
	}
	for i, p := range probs {
		p.compare(t, "concurrent", got[i], wants[i])
	}
}
