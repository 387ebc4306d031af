package gemm

import (
	"math/rand/v2"
	"testing"
)

// im2colNaive returns im2col(x) as a k×n row-major matrix, element by
// element from the definition.
func im2colNaive[T Float](g *ConvGeom, x []T) []T {
	k, n := g.rows(), g.cols()
	cols := make([]T, k*n)
	for r := range k {
		kr := r % (g.K[0] * g.K[1] * g.K[2])
		ch := r / (g.K[0] * g.K[1] * g.K[2])
		kpos := [3]int{kr / (g.K[1] * g.K[2]), kr / g.K[2] % g.K[1], kr % g.K[2]}
		for j := range n {
			opos := [3]int{j / (g.Out[1] * g.Out[2]), j / g.Out[2] % g.Out[1], j % g.Out[2]}
			idx, ok := ch, true
			for d := range 3 {
				i := opos[d]*g.Stride[d] - g.Pad[d] + kpos[d]*g.Dilation[d]
				if i < 0 || i >= g.In[d] {
					ok = false
				}
				idx = idx*g.In[d] + i
			}
			if ok {
				cols[r*n+j] = x[idx]
			}
		}
	}
	return cols
}

func randGeom(r *rand.Rand, dims int) *ConvGeom {
	g := &ConvGeom{C: 1 + r.IntN(5)}
	for d := range 3 {
		g.In[d], g.K[d], g.Stride[d], g.Dilation[d] = 1, 1, 1, 1
		if d < 3-dims {
			g.Out[d] = 1
			continue
		}
		g.K[d] = 1 + r.IntN(4)
		g.Stride[d] = 1 + r.IntN(3)
		g.Dilation[d] = 1 + r.IntN(2)
		g.Pad[d] = r.IntN(4)
		g.In[d] = 1 + r.IntN(40)
		if dims == 3 {
			g.In[d] = 1 + r.IntN(7)
		}
		g.Out[d] = max((g.In[d]+2*g.Pad[d]-g.Dilation[d]*(g.K[d]-1)-1)/g.Stride[d]+1, 0)
	}
	return g
}

func TestGemmConv(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for it := range 300 {
		dims := 1 + it%3
		g := randGeom(r, dims)
		m := 1 + r.IntN(40)
		k, n := g.rows(), g.cols()
		x := randSlice[float32](r, g.C*g.In[0]*g.In[1]*g.In[2])
		p := newProblem[float32](r, false, false, m, n, k, r.IntN(2)*2, []float32{1, 0.5}[r.IntN(2)], []float32{0, 1}[r.IntN(2)])
		p.b, p.ldb = im2colNaive(g, x), max(n, 1)
		if r.IntN(3) == 0 {
			p.ep = &Epilogue[float32]{RowBias: randSlice[float32](r, m), Clamp: true, Max: 1}
			if r.IntN(2) == 0 {
				p.ep.Residual, p.ep.LdResidual = randSlice[float32](r, m*n), max(n, 1)
			}
		}
		want := p.run(nil)
		checkConvPaths(t, p, g, x, want)
		c := append([]float32(nil), p.c0...)
		if err := GemmConv(m, p.alpha, p.a, p.lda, x, g, p.beta, c, p.ldc, p.ep); err != nil {
			t.Fatal(err)
		}
		p.compare(t, "GemmConv "+geomString(g), c, want)
	}
}

// checkConvPaths computes the convolution p (b unused: x with g) with
// every kernel, each through the im2col packing and shifted (with A
// packed per product and in advance), and compares each with want.
func checkConvPaths[T Float](t *testing.T, p *problem[T], g *ConvGeom, x, want []T) {
	t.Helper()
	k, n := g.rows(), g.cols()
	for _, kern := range kernels[T]() {
		c := append([]T(nil), p.c0...)
		d := newJob(kern, false, false, p.m, n, k, p.alpha, p.a, p.lda, x, 0, p.beta, c, p.ldc, p.ep)
		d.conv = g
		d.run()
		p.compare(t, kern.name+" im2col conv "+geomString(g), c, want)
		if p.m == 0 || k == 0 || n == 0 {
			continue
		}
		c = append(c[:0], p.c0...)
		convShift(kern, nil, p.m, p.alpha, p.a, p.lda, x, g, p.beta, c, p.ldc, p.ep)
		p.compare(t, kern.name+" shifted conv "+geomString(g), c, want)
		c = append(c[:0], p.c0...)
		pa := packAWith(kern, false, p.m, k, p.a, p.lda)
		convShift(kern, pa, p.m, p.alpha, nil, 0, x, g, p.beta, c, p.ldc, p.ep)
		p.compare(t, kern.name+" shifted packed conv "+geomString(g), c, want)
	}
}

func geomString(g *ConvGeom) string {
	return fmtAny(*g)
}

func TestGemmConvErrors(t *testing.T) {
	g := &ConvGeom{C: 2, In: [3]int{1, 4, 4}, K: [3]int{1, 3, 3}, Out: [3]int{1, 2, 2}, Stride: [3]int{1, 1, 1}, Dilation: [3]int{1, 1, 1}}
	w := make([]float32, 3*18)
	x := make([]float32, 32)
	c := make([]float32, 12)
	if err := GemmConv(3, 1, w, 18, x, g, 0, c, 4, nil); err != nil {
		t.Fatalf("valid convolution: %v", err)
	}
	bad := *g
	bad.Stride[1] = 0
	for name, err := range map[string]error{
		"nil geometry": GemmConv[float32](3, 1, w, 18, x, nil, 0, c, 4, nil),
		"stride 0":     GemmConv(3, 1, w, 18, x, &bad, 0, c, 4, nil),
		"short x":      GemmConv(3, 1, w, 18, x[:31], g, 0, c, 4, nil),
		"short w":      GemmConv(3, 1, w[:50], 18, x, g, 0, c, 4, nil),
		"c overlaps x": GemmConv(3, 1, w, 18, x, g, 0, x[20:], 4, nil),
		"overflow":     GemmConv(3, 1, w, 18, x, &ConvGeom{C: 1 << 30, In: [3]int{1 << 30, 1 << 30, 4}, K: g.K, Out: g.Out, Stride: g.Stride, Dilation: g.Dilation}, 0, c, 4, nil),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestGemmConvLarge covers several B panels and K blocks: resnet18's
// first 3×3 layer (64 channels of 56×56, stride 1, padding 1) and a
// strided 7×7 one.
func TestGemmConvLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	for _, g := range []*ConvGeom{
		{C: 64, In: [3]int{1, 56, 56}, K: [3]int{1, 3, 3}, Out: [3]int{1, 56, 56}, Stride: [3]int{1, 1, 1}, Pad: [3]int{0, 1, 1}, Dilation: [3]int{1, 1, 1}},
		{C: 3, In: [3]int{1, 61, 67}, K: [3]int{1, 7, 7}, Out: [3]int{1, 31, 34}, Stride: [3]int{1, 2, 2}, Pad: [3]int{0, 3, 3}, Dilation: [3]int{1, 1, 1}},
	} {
		m, k, n := 20, g.rows(), g.cols()
		x := randSlice[float32](r, g.C*g.In[0]*g.In[1]*g.In[2])
		p := newProblem[float32](r, false, false, m, n, k, 0, 1, 0)
		p.b = im2colNaive(g, x)
		want := p.run(nil)
		checkConvPaths(t, p, g, x, want)
	}
}

// FuzzGemmConv draws convolution geometries (1-d to 3-d, strides,
// padding, dilation, and output sizes other than the natural one) and
// compares every kernel's GemmConv with im2col by definition and a naive
// product.
func FuzzGemmConv(f *testing.F) {
	f.Add(uint64(1), uint8(2), uint8(8), int8(0))
	f.Add(uint64(2), uint8(1), uint8(1), int8(-1))
	f.Add(uint64(3), uint8(3), uint8(30), int8(2))
	f.Fuzz(func(t *testing.T, seed uint64, dims, m uint8, outDelta int8) {
		r := rand.New(rand.NewPCG(seed, 12))
		g := randGeom(r, 1+int(dims%3))
		g.Out[2] = max(g.Out[2]+int(outDelta%3), 0)
		mm := 1 + int(m%64)
		k, n := g.rows(), g.cols()
		x := randSlice[float32](r, g.C*g.In[0]*g.In[1]*g.In[2])
		p := newProblem[float32](r, false, false, mm, n, k, int(seed%3), 1, []float32{0, 1}[seed%2])
		p.b, p.ldb = im2colNaive(g, x), max(n, 1)
		want := p.run(nil)
		checkConvPaths(t, p, g, x, want)
	})
}

// TestGemmConvFloat64 runs float64 convolutions through every path: the
// float64 kernels have no indirect variant and pack B by copies.
func TestGemmConvFloat64(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	for it := range 60 {
		g := randGeom(r, 1+it%3)
		m := 1 + r.IntN(30)
		k, n := g.rows(), g.cols()
		x := randSlice[float64](r, g.C*g.In[0]*g.In[1]*g.In[2])
		p := newProblem[float64](r, false, false, m, n, k, r.IntN(2)*3, []float64{1, -0.5}[r.IntN(2)], []float64{0, 2}[r.IntN(2)])
		p.b, p.ldb = im2colNaive(g, x), max(n, 1)
		if r.IntN(2) == 0 {
			p.ep = &Epilogue[float64]{RowBias: randSlice[float64](r, m), Residual: randSlice[float64](r, m*n), LdResidual: max(n, 1), Clamp: true, Min: -0.5, Max: 2}
		}
		checkConvPaths(t, p, g, x, p.run(nil))
	}
}

// TestConvConcurrent runs shifted convolutions from several goroutines
// at once, as kernels does (a batch's items and groups in parallel),
// sharing the worker pool, the buffer pools and the offsets pool.
func TestConvConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	type conv struct {
		p    *problem[float32]
		g    *ConvGeom
		x    []float32
		want []float32
	}
	var convs []conv
	for range 6 {
		g := &ConvGeom{C: 8 + r.IntN(24), In: [3]int{1, 10 + r.IntN(20), 10 + r.IntN(20)}, K: [3]int{1, 3, 3},
			Stride: [3]int{1, 1 + r.IntN(2), 1 + r.IntN(2)}, Pad: [3]int{0, 1, 1}, Dilation: [3]int{1, 1, 1}}
		g.Out = [3]int{1, (g.In[1]+2-3)/g.Stride[1] + 1, (g.In[2]+2-3)/g.Stride[2] + 1}
		m, k, n := 20+r.IntN(50), g.rows(), g.cols()
		x := randSlice[float32](r, g.inputLen())
		p := newProblem[float32](r, false, false, m, n, k, 0, 1, 0)
		p.b, p.ldb = im2colNaive(g, x), n
		convs = append(convs, conv{p, g, x, p.run(nil)})
	}
	got := make([][]float32, len(convs))
	done := make(chan int)
	for i, cv := range convs {
		go func() {
			c := append([]float32(nil), cv.p.c0...)
			for range 5 {
				if err := GemmConv(cv.p.m, 1, cv.p.a, cv.p.lda, cv.x, cv.g, 0, c, cv.p.ldc, nil); err != nil {
					panic(err)
				}
			}
			got[i] = c
			done <- i
		}()
	}
	for range convs {
		<-done
	}
	for i, cv := range convs {
		cv.p.compare(t, "concurrent conv "+geomString(cv.g), got[i], cv.want)
	}
}
