package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gofx/gofx/internal/cputime"
)

// benchShapes are square products and resnet18's convolutions as
// products (M output channels, N output pixels, K input channels × kernel
// area): the 7×7 stem, 3×3 layers of each stage, 1×1 downsamples; and one
// channel of a depthwise 3×3 convolution on 112×112 (one row).
var benchShapes = []struct {
	name    string
	m, n, k int
}{
	{"square256", 256, 256, 256},
	{"square512", 512, 512, 512},
	{"square1024", 1024, 1024, 1024},
	{"conv7x7stem", 64, 12544, 147},
	{"conv3x3_64", 64, 3136, 576},
	{"conv3x3_128", 128, 784, 1152},
	{"conv3x3_256", 256, 196, 2304},
	{"conv3x3_512", 512, 49, 4608},
	{"conv1x1_256", 256, 196, 128},
	{"depthwise3x3_112", 1, 12544, 9},
}

func benchGemm[T Float](b *testing.B, kern *kernel[T], m, n, k int) {
	r := rand.New(rand.NewPCG(1, 1))
	a := randSlice[T](r, m*k)
	bb := randSlice[T](r, k*n)
	c := make([]T, m*n)
	b.ResetTimer()
	cpu0 := cputime.Process()
	for b.Loop() {
		newJob(kern, false, false, m, n, k, 1, a, k, bb, n, 0, c, n, nil).run()
	}
	reportFlops(b, 2*float64(m)*float64(n)*float64(k), cpu0)
}

// BenchmarkGemm times each shape with each kernel this build has
// (float32) and the chosen float64 kernel. Run with -cpu 1 for one core.
func BenchmarkGemm(b *testing.B) {
	for _, s := range benchShapes {
		for _, kern := range kernels[float32]() {
			if kern.mr == 1 && s.m > thinRows {
				continue // Gemm never uses a thin kernel there
			}
			b.Run(fmt.Sprintf("f32/%s/%s", kern.name, s.name), func(b *testing.B) { benchGemm(b, kern, s.m, s.n, s.k) })
		}
		b.Run(fmt.Sprintf("f64/%s/%s", kernelFor[float64](s.m).name, s.name), func(b *testing.B) { benchGemm(b, kernelFor[float64](s.m), s.m, s.n, s.k) })
	}
}

// BenchmarkMicroKernel times the float32 micro-kernel alone on packed
// strips that stay in L1 (k = 256), the ceiling the driver can reach.
func BenchmarkMicroKernel(b *testing.B) {
	for _, kern := range kernels[float32]() {
		b.Run(kern.name, func(b *testing.B) {
			const k = 256
			r := rand.New(rand.NewPCG(1, 1))
			a := randSlice[float32](r, k*kern.mr)
			bb := randSlice[float32](r, k*kern.nr)
			c := make([]float32, kern.mr*kern.nr)
			for b.Loop() {
				kern.full(k, &a[0], &bb[0], &c[0], kern.nr, 1, 0)
			}
			b.ReportMetric(2*float64(k*kern.mr*kern.nr)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkGemmConv times resnet18's convolutions at batch 1 (the 3×3
// layers, a strided 3×3, the 7×7 stem and a strided 1×1 downsample)
// through GemmConv with the chosen float32 kernel, computed shifted
// (the default) and with im2col gathered while packing
// (GOFX_CONV=im2col). It reports GFLOP/s of wall time and of CPU time
// (the process's, all workers together: per core).
func BenchmarkGemmConv(b *testing.B) {
	for _, s := range []struct {
		name                    string
		c, hw, out, k, str, pad int
	}{
		{"conv3x3_64", 64, 56, 64, 3, 1, 1},
		{"conv3x3_128", 128, 28, 128, 3, 1, 1},
		{"conv3x3_256", 256, 14, 256, 3, 1, 1},
		{"conv3x3_512", 512, 7, 512, 3, 1, 1},
		{"conv3x3_64s2", 64, 56, 128, 3, 2, 1},
		{"conv7x7stem", 3, 224, 64, 7, 2, 3},
		{"conv1x1_128s2", 128, 28, 256, 1, 2, 0},
	} {
		o := (s.hw+2*s.pad-s.k)/s.str + 1
		g := &ConvGeom{C: s.c, In: [3]int{1, s.hw, s.hw}, K: [3]int{1, s.k, s.k}, Out: [3]int{1, o, o},
			Stride: [3]int{1, s.str, s.str}, Pad: [3]int{0, s.pad, s.pad}, Dilation: [3]int{1, 1, 1}}
		r := rand.New(rand.NewPCG(1, 1))
		m, k, n := s.out, g.rows(), g.cols()
		w := randSlice[float32](r, m*k)
		x := randSlice[float32](r, s.c*s.hw*s.hw)
		c := make([]float32, m*n)
		for _, mode := range []string{"shifted", "im2col"} {
			b.Run(s.name+"/"+mode, func(b *testing.B) {
				defer func(v bool) { convIm2col = v }(convIm2col)
				convIm2col = mode == "im2col"
				cpu0 := cputime.Process()
				for b.Loop() {
					if err := GemmConv(m, 1, w, k, x, g, 0, c, n, nil); err != nil {
						b.Fatal(err)
					}
				}
				reportFlops(b, 2*float64(m)*float64(n)*float64(k), cpu0)
			})
		}
	}
}

// reportFlops reports flops per call as GFLOP/s of wall time and of the
// process's CPU time since cpu0.
func reportFlops(b *testing.B, flops float64, cpu0 int64) {
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	if cpu := cputime.Process() - cpu0; cpu > 0 {
		b.ReportMetric(flops*float64(b.N)/float64(cpu), "cpu-GFLOP/s")
	}
}

// BenchmarkPackedA times products whose A (a weight) is packed once,
// against packing it in every product, on the shapes where A is the
// larger operand.
func BenchmarkPackedA(b *testing.B) {
	for _, s := range benchShapes {
		if s.m*s.k < s.k*s.n {
			continue
		}
		r := rand.New(rand.NewPCG(1, 1))
		a := randSlice[float32](r, s.m*s.k)
		bb := randSlice[float32](r, s.k*s.n)
		c := make([]float32, s.m*s.n)
		pa, err := PackA(false, s.m, s.k, a, s.k)
		if err != nil {
			b.Fatal(err)
		}
		flops := 2 * float64(s.m) * float64(s.n) * float64(s.k)
		b.Run("packed/"+s.name, func(b *testing.B) {
			for b.Loop() {
				if err := pa.Gemm(false, s.n, 1, bb, s.n, 0, c, s.n, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run("unpacked/"+s.name, func(b *testing.B) {
			for b.Loop() {
				if err := Gemm(false, false, s.m, s.n, s.k, 1, a, s.k, bb, s.n, 0, c, s.n); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
