package gemm

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestConvShiftParts runs shifted convolutions large enough to be cut
// into parts (convShift), with one, two and three workers: parts of output
// rows along each dimension (3-d, 2-d and 1-d convolutions, strides and
// paddings that make a part start inside the image), parts of output
// channels (with the weight packed in advance, so that a part starts
// inside it), with a row bias, a residual and a clamp, against im2col by
// definition and a naive product. Strides of 2 with one phase read
// along the last dimension (1×1 and 3×1 kernels) fill src by
// vec.EvenRows (fillEven). The stem-like cases (one K block) keep
// c' in a window of strips (job.window), over several row blocks and
// several column panels.
func TestConvShiftParts(t *testing.T) {
	geom := func(c int, in, k, s, p [3]int) *ConvGeom {
		g := &ConvGeom{C: c, In: in, K: k, Stride: s, Pad: p, Dilation: [3]int{1, 1, 1}}
		for d := range 3 {
			g.Out[d] = (in[d]+2*p[d]-k[d])/s[d] + 1
		}
		return g
	}
	cases := []struct {
		name string
		m    int
		g    *ConvGeom
	}{
		{"2d rows", 24, geom(16, [3]int{1, 30, 29}, [3]int{1, 3, 3}, [3]int{1, 1, 1}, [3]int{0, 1, 1})},
		{"2d stem-like", 20, geom(3, [3]int{1, 45, 47}, [3]int{1, 7, 7}, [3]int{1, 2, 2}, [3]int{0, 3, 3})},
		{"2d stride 2 pad 0", 20, geom(8, [3]int{1, 41, 40}, [3]int{1, 3, 3}, [3]int{1, 2, 2}, [3]int{0, 0, 0})},
		{"2d 1x1 stride 2", 70, geom(40, [3]int{1, 28, 27}, [3]int{1, 1, 1}, [3]int{1, 2, 2}, [3]int{0, 0, 0})},
		{"stem-like, many rows", 130, geom(3, [3]int{1, 37, 41}, [3]int{1, 7, 7}, [3]int{1, 2, 2}, [3]int{0, 3, 3})},
		{"stem-like, several panels", 16, geom(3, [3]int{1, 120, 130}, [3]int{1, 7, 7}, [3]int{1, 2, 2}, [3]int{0, 3, 3})},
		{"3d", 12, geom(4, [3]int{9, 12, 11}, [3]int{3, 3, 3}, [3]int{1, 1, 1}, [3]int{1, 1, 1})},
		{"1d stride 2", 20, geom(32, [3]int{1, 1, 400}, [3]int{1, 1, 5}, [3]int{1, 1, 2}, [3]int{0, 0, 3})},
		{"2d 1x1 stride 2 padded", 60, geom(40, [3]int{1, 27, 29}, [3]int{1, 1, 1}, [3]int{1, 2, 2}, [3]int{0, 1, 2})},
		{"2d 3x1 stride 2", 30, geom(24, [3]int{1, 31, 30}, [3]int{1, 3, 1}, [3]int{1, 2, 2}, [3]int{0, 1, 1})},
		{"3d 1x1x1 stride 2", 56, geom(48, [3]int{7, 12, 13}, [3]int{1, 1, 1}, [3]int{2, 2, 2}, [3]int{1, 0, 0})},
		{"channels", 200, geom(64, [3]int{1, 9, 9}, [3]int{1, 3, 3}, [3]int{1, 1, 1}, [3]int{0, 1, 1})},
		{"channels 1x1 stride 2", 230, geom(48, [3]int{1, 14, 13}, [3]int{1, 1, 1}, [3]int{1, 2, 2}, [3]int{0, 0, 0})},
		{"one position", 150, geom(400, [3]int{1, 3, 3}, [3]int{1, 3, 3}, [3]int{1, 1, 1}, [3]int{0, 0, 0})},
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(21, 22))
	for _, tc := range cases {
		g, m := tc.g, tc.m
		k, n := g.rows(), g.cols()
		if m*n*k < parallelMin {
			t.Fatalf("%s: %d multiply-adds, too few to run in parts", tc.name, m*n*k)
		}
		x := randSlice[float32](r, g.inputLen())
		p := newProblem[float32](r, false, false, m, n, k, 3, 1, 0.5)
		p.b, p.ldb = im2colNaive(g, x), n
		p.ep = &Epilogue[float32]{RowBias: randSlice[float32](r, m), Residual: randSlice[float32](r, m*(n+2)), LdResidual: n + 2, Clamp: true, Min: -3, Max: 3}
		want := p.run(nil)
		for _, procs := range []int{1, 2, 3} {
			runtime.GOMAXPROCS(procs)
			for _, kern := range kernels[float32]() {
				c := append([]float32(nil), p.c0...)
				convShift(kern, nil, m, p.alpha, p.a, p.lda, x, g, p.beta, c, p.ldc, p.ep)
				p.compare(t, tc.name+" "+kern.name, c, want)
				c = append(c[:0], p.c0...)
				pa := packAWith(kern, false, m, k, p.a, p.lda)
				convShift(kern, pa, m, p.alpha, nil, 0, x, g, p.beta, c, p.ldc, p.ep)
				p.compare(t, tc.name+" packed "+kern.name, c, want)
			}
		}
	}
}
