package kernels_test

import (
	"testing"

	"github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/tensor"
)

// depthwiseShapes are mobilenet_v2's depthwise convolutions at 224×224
// (3×3, stride 1 or 2, padding 1) and three of efficientnet_b0's 5×5
// ones (padding 2): channels, input size, kernel, stride.
var depthwiseShapes = []struct {
	name       string
	c, h, k, s int
}{
	{"32x112_k3s1", 32, 112, 3, 1},
	{"96x112_k3s2", 96, 112, 3, 2},
	{"144x56_k3s1", 144, 56, 3, 1},
	{"144x56_k3s2", 144, 56, 3, 2},
	{"192x28_k3s1", 192, 28, 3, 1},
	{"192x28_k3s2", 192, 28, 3, 2},
	{"384x14_k3s1", 384, 14, 3, 1},
	{"576x14_k3s1", 576, 14, 3, 1},
	{"576x14_k3s2", 576, 14, 3, 2},
	{"960x7_k3s1", 960, 7, 3, 1},
	{"144x56_k5s2", 144, 56, 5, 2},
	{"240x28_k5s1", 240, 28, 5, 1},
	{"672x14_k5s1", 672, 14, 5, 1},
}

// BenchmarkDepthwise times aten::convolution (batch 1, float32, with
// bias, groups = channels) on depthwiseShapes and reports GFLOP/s (two
// per multiply-add) and CPU time per call, fresh and pooled
// (benchBoth). ../bench/torch_conv.py times the same in PyTorch.
func BenchmarkDepthwise(b *testing.B) {
	o := benchOp(b, "aten::convolution")
	for _, tc := range depthwiseShapes {
		b.Run(tc.name, func(b *testing.B) {
			g := tensor.NewGenerator(4)
			x := tensor.Must(g.Randn(tensor.Float32, 1, tc.c, tc.h, tc.h))
			w := tensor.Must(g.Randn(tensor.Float32, tc.c, 1, tc.k, tc.k))
			bias := tensor.Must(g.Randn(tensor.Float32, tc.c))
			s, p := int64(tc.s), int64(tc.k/2)
			args := []any{x, w, bias, []int64{s, s}, []int64{p, p}, []int64{1, 1}, false, []int64{0, 0}, int64(tc.c)}
			oh := (tc.h+2*(tc.k/2)-tc.k)/tc.s + 1
			flops := 2 * float64(tc.c*oh*oh) * float64(tc.k*tc.k)
			benchBoth(b, o, args, flops, "GFLOP/s")
		})
	}
}

// BenchmarkConvPacked times aten::convolution on resnet18's convolutions
// (batch 1, float32, with bias) with the weight packed per call
// ("percall") and marked constant, packed once ("packed"), and reports
// GFLOP/s and CPU time per call, fresh and pooled (benchBoth).
// ../bench/torch_conv.py times the same in PyTorch.
func BenchmarkConvPacked(b *testing.B) {
	o := benchOp(b, "aten::convolution")
	cases := []struct {
		name                string
		c, h, cout, k, s, p int
	}{
		{"3x224_k7s2", 3, 224, 64, 7, 2, 3},
		{"64x56_k3", 64, 56, 64, 3, 1, 1},
		{"128x28_k3", 128, 28, 128, 3, 1, 1},
		{"256x14_k3", 256, 14, 256, 3, 1, 1},
		{"512x7_k3", 512, 7, 512, 3, 1, 1},
		{"256x14_k1s2", 256, 14, 512, 1, 2, 0},
	}
	for _, tc := range cases {
		for _, mode := range []string{"percall", "packed"} {
			b.Run(tc.name+"/"+mode, func(b *testing.B) {
				g := tensor.NewGenerator(2)
				x := tensor.Must(g.Randn(tensor.Float32, 1, tc.c, tc.h, tc.h))
				w := tensor.Must(g.Randn(tensor.Float32, tc.cout, tc.c, tc.k, tc.k))
				bias := tensor.Must(g.Randn(tensor.Float32, tc.cout))
				if mode == "packed" {
					kernels.MarkConstant(w)
					defer kernels.Unmark(w)
				}
				s, p := int64(tc.s), int64(tc.p)
				args := []any{x, w, bias, []int64{s, s}, []int64{p, p}, []int64{1, 1}, false, []int64{0, 0}, int64(1)}
				oh := (tc.h+2*tc.p-tc.k)/tc.s + 1
				flops := 2 * float64(tc.cout*oh*oh) * float64(tc.c*tc.k*tc.k)
				benchBoth(b, o, args, flops, "GFLOP/s")
			})
		}
	}
}
