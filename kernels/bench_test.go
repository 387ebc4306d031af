package kernels_test

import (
	"fmt"
	"testing"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// The kernel benchmarks: float32 matrix products, resnet18's
// convolutions and a large elementwise add, each called through the
// dispatch point. ../bench/torch_kernels.py times the same in PyTorch
// (two threads) and prints the same metrics.

// benchOp returns the operator called name.
func benchOp(b *testing.B, name string) *ops.Operator {
	b.Helper()
	o, ok := ops.Global().Lookup(name)
	if !ok {
		b.Fatalf("no operator %s", name)
	}
	return o
}

// benchRun calls o with args b.N times and reports work/op units per
// second as the metric unit (scaled by 1e9).
func benchRun(b *testing.B, o *ops.Operator, args []any, work float64, unit string) {
	b.Helper()
	if _, err := o.Call(args, nil); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := o.Call(args, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(work*float64(b.N)/b.Elapsed().Seconds()/1e9, unit)
}

// BenchmarkMatmul times aten::mm on square float32 matrices and reports
// GFLOP/s (2n³ per product).
func BenchmarkMatmul(b *testing.B) {
	o := benchOp(b, "aten::mm")
	for _, n := range []int{256, 512, 1024} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			g := tensor.NewGenerator(1)
			x := tensor.Must(g.Randn(tensor.Float32, n, n))
			y := tensor.Must(g.Randn(tensor.Float32, n, n))
			benchRun(b, o, []any{x, y}, 2*float64(n)*float64(n)*float64(n), "GFLOP/s")
		})
	}
}

// BenchmarkConv2d times aten::convolution on four of resnet18's
// convolutions (3×3, the 7×7 stem and a 1×1 downsample; batch 1, with
// bias) and reports GFLOP/s (two per multiply-add).
func BenchmarkConv2d(b *testing.B) {
	o := benchOp(b, "aten::convolution")
	cases := []struct {
		name                string
		c, h, cout, k, s, p int
	}{
		{"64x56x56_k3", 64, 56, 64, 3, 1, 1},
		{"3x224x224_k7s2", 3, 224, 64, 7, 2, 3},
		{"256x14x14_k3", 256, 14, 256, 3, 1, 1},
		{"128x28x28_k1s2", 128, 28, 256, 1, 2, 0},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			g := tensor.NewGenerator(2)
			x := tensor.Must(g.Randn(tensor.Float32, 1, tc.c, tc.h, tc.h))
			w := tensor.Must(g.Randn(tensor.Float32, tc.cout, tc.c, tc.k, tc.k))
			bias := tensor.Must(g.Randn(tensor.Float32, tc.cout))
			s, p := int64(tc.s), int64(tc.p)
			args := []any{x, w, bias, []int64{s, s}, []int64{p, p}, []int64{1, 1}, false, []int64{0, 0}, int64(1)}
			oh := (tc.h+2*tc.p-tc.k)/tc.s + 1
			flops := 2 * float64(tc.cout*oh*oh) * float64(tc.c*tc.k*tc.k)
			benchRun(b, o, args, flops, "GFLOP/s")
		})
	}
}

// BenchmarkAdd1M times aten::add.Tensor on two float32 tensors of 2^20
// elements and reports GB/s (12 bytes moved per element: two reads, one
// write).
func BenchmarkAdd1M(b *testing.B) {
	o := benchOp(b, "aten::add.Tensor")
	g := tensor.NewGenerator(3)
	const n = 1 << 20
	x := tensor.Must(g.Randn(tensor.Float32, n))
	y := tensor.Must(g.Randn(tensor.Float32, n))
	benchRun(b, o, []any{x, y}, 12*n, "GB/s")
}
