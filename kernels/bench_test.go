package kernels_test

import (
	"fmt"
	"testing"

	"github.com/gofx/gofx/internal/cputime"
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
	cpu0 := cputime.Process()
	for range b.N {
		if _, err := o.Call(args, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(work*float64(b.N)/b.Elapsed().Seconds()/1e9, unit)
	b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
}

// benchBoth runs benchRun as "fresh" (a new output per call, left to
// Go's allocator and GC) and "pooled" (each output handed back to
// tensor's buffer pool, as the interpreter does with a dead value and
// PyTorch's caching allocator with a freed tensor: the steady state of a
// model's run).
func benchBoth(b *testing.B, o *ops.Operator, args []any, work float64, unit string) {
	b.Helper()
	b.Run("fresh", func(b *testing.B) { benchRun(b, o, args, work, unit) })
	b.Run("pooled", func(b *testing.B) { benchPooled(b, o, args, work, unit) })
}

// benchPooled times o on args, handing every output back to tensor's
// buffer pool (tensor.Recycle) as the interpreter does with dead values,
// and reports work per second in unit and the process CPU time per call.
func benchPooled(b *testing.B, o *ops.Operator, args []any, work float64, unit string) {
	b.Helper()
	cpu0 := cputime.Process()
	for b.Loop() {
		out, err := o.Call(args, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range out {
			tensor.Recycle(v.(*tensor.Tensor).StorageKey())
		}
	}
	b.ReportMetric(work*float64(b.N)/b.Elapsed().Seconds()/1e9, unit)
	b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkMatmul times aten::mm on square float32 matrices and reports
// GFLOP/s (2n³ per product), fresh and pooled (benchBoth).
func BenchmarkMatmul(b *testing.B) {
	o := benchOp(b, "aten::mm")
	for _, n := range []int{256, 512, 1024} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			g := tensor.NewGenerator(1)
			x := tensor.Must(g.Randn(tensor.Float32, n, n))
			y := tensor.Must(g.Randn(tensor.Float32, n, n))
			benchBoth(b, o, []any{x, y}, 2*float64(n)*float64(n)*float64(n), "GFLOP/s")
		})
	}
}

// BenchmarkConv2d times aten::convolution on four of resnet18's
// convolutions (3×3, the 7×7 stem and a 1×1 downsample; batch 1, with
// bias; the weight packed on every call) and reports GFLOP/s (two per
// multiply-add), fresh and pooled (benchBoth).
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
			benchBoth(b, o, args, flops, "GFLOP/s")
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
	b.Run("fresh", func(b *testing.B) { benchRun(b, o, []any{x, y}, 12*n, "GB/s") })
	// pooled hands each output back to tensor's buffer pool, as the
	// interpreter does with a dead value (and PyTorch's caching allocator
	// with a freed tensor): the steady state of a model's run.
	b.Run("pooled", func(b *testing.B) { benchPooled(b, o, []any{x, y}, 12*n, "GB/s") })
}

// BenchmarkElementwise times the memory-bound kernels on inputs of
// resnet18's and a transformer's sizes and reports GB/s: the bytes of the
// inputs read and the output written, once each (the traffic of a
// one-pass kernel; softmax and the norms read their input twice in
// PyTorch too, and are counted once). ../bench/torch_kernels.py times
// the same calls in PyTorch.
func BenchmarkElementwise(b *testing.B) {
	g := tensor.NewGenerator(4)
	randn := func(shape ...int) *tensor.Tensor { return tensor.Must(g.Randn(tensor.Float32, shape...)) }
	x4 := randn(1, 64, 56, 56) // 200704 elements
	big := randn(1024, 1024)   // 2^20
	seq := randn(512, 768)     // a transformer's activations
	bn := func() []any {
		w, bb, m, v := randn(64), randn(64), randn(64), tensor.Must(g.Rand(tensor.Float32, 64))
		return []any{x4, w, bb, m, v, 0.1, 1e-5}
	}
	cases := []struct {
		name, op string
		args     []any
		bytes    float64
	}{
		{"mul_bcast_1x64x56x56", "aten::mul.Tensor", []any{x4, randn(1, 64, 1, 1)}, 8 * 200704},
		{"add_bcast_1024x1024+1024", "aten::add.Tensor", []any{big, randn(1024)}, 8 << 20},
		{"relu_1M", "aten::relu.default", []any{big}, 8 << 20},
		{"hardtanh_1M", "aten::hardtanh.default", []any{big, 0.0, 6.0}, 8 << 20},
		{"sum_lastdim_1024x1024", "aten::sum.dim_IntList", []any{big, []int64{-1}}, 4 << 20},
		{"sum_firstdim_1024x1024", "aten::sum.dim_IntList", []any{big, []int64{0}}, 4 << 20},
		{"mean_hw_1x64x56x56", "aten::mean.dim", []any{x4, []int64{-1, -2}, true}, 4 * 200704},
		{"amax_lastdim_1024x1024", "aten::amax", []any{big, []int64{-1}}, 4 << 20},
		{"amax_firstdim_1024x1024", "aten::amax", []any{big, []int64{0}}, 4 << 20},
		{"softmax_lastdim_1024x1024", "aten::_softmax", []any{big, int64(-1), false}, 8 << 20},
		{"log_softmax_lastdim_1024x1024", "aten::_log_softmax", []any{big, int64(-1), false}, 8 << 20},
		{"layer_norm_512x768", "aten::native_layer_norm", []any{seq, []int64{768}, randn(768), randn(768), 1e-5}, 8 * 512 * 768},
		{"group_norm_1x64x56x56_g32", "aten::native_group_norm", []any{x4, randn(64), randn(64), int64(1), int64(64), int64(56 * 56), int64(32), 1e-5}, 8 * 200704},
		{"batch_norm_infer_1x64x56x56", "aten::_native_batch_norm_legit_no_training", bn(), 8 * 200704},
		{"max_pool2d_1x64x112x112_k3s2", "aten::max_pool2d", []any{randn(1, 64, 112, 112), []int64{3, 3}, []int64{2, 2}, []int64{1, 1}}, 4 * (64*112*112 + 64*56*56)},
		{"adaptive_avg_pool2d_1x512x7x7", "aten::adaptive_avg_pool2d", []any{randn(1, 512, 7, 7), []int64{1, 1}}, 4 * (512*49 + 512)},
		{"upsample_nearest2d_1x64x56x56_x2", "aten::upsample_nearest2d.vec", []any{x4, nil, []float64{2, 2}}, 4 * 5 * 200704},
		{"upsample_bilinear2d_1x64x56x56_x2", "aten::upsample_bilinear2d.vec", []any{x4, nil, false, []float64{2, 2}}, 4 * 5 * 200704},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			benchRun(b, benchOp(b, tc.op), tc.args, tc.bytes, "GB/s")
		})
	}
}

// BenchmarkPool times pooling and upsampling on float32 inputs of
// resnet18's sizes (its stem max pool, its global average pool) and a
// segmentation head's, and reports GB/s: the input read and the outputs
// (indices included) written once each, with the outputs handed back to
// the buffer pool after each call (the interpreter's steady state, and
// PyTorch's caching allocator's). ../bench/torch_pool.py times the same
// calls in PyTorch.
func BenchmarkPool(b *testing.B) {
	g := tensor.NewGenerator(5)
	randn := func(shape ...int) *tensor.Tensor { return tensor.Must(g.Randn(tensor.Float32, shape...)) }
	p := randn(1, 64, 112, 112)
	x := randn(1, 64, 56, 56)
	q := randn(1, 512, 7, 7)
	const n112, n56, n28 = 64 * 112 * 112, 64 * 56 * 56, 64 * 28 * 28
	cases := []struct {
		name, op string
		args     []any
		bytes    float64
	}{
		{"max_pool2d_1x64x112x112_k3s2p1", "aten::max_pool2d", []any{p, []int64{3, 3}, []int64{2, 2}, []int64{1, 1}}, 4 * (n112 + n56)},
		{"max_pool2d_with_indices_1x64x112x112_k3s2p1", "aten::max_pool2d_with_indices", []any{p, []int64{3, 3}, []int64{2, 2}, []int64{1, 1}}, 4*n112 + 12*n56},
		{"max_pool2d_1x64x56x56_k2s2", "aten::max_pool2d", []any{x, []int64{2, 2}, []int64{2, 2}, []int64{0, 0}}, 4 * (n56 + n28)},
		{"avg_pool2d_1x64x56x56_k3s1p1", "aten::avg_pool2d", []any{x, []int64{3, 3}, []int64{1, 1}, []int64{1, 1}}, 8 * n56},
		{"avg_pool2d_1x64x56x56_k2s2", "aten::avg_pool2d", []any{x, []int64{2, 2}, []int64{2, 2}, []int64{0, 0}}, 4 * (n56 + n28)},
		{"adaptive_avg_pool2d_1x512x7x7_1", "aten::adaptive_avg_pool2d", []any{q, []int64{1, 1}}, 4 * (512*49 + 512)},
		{"adaptive_avg_pool2d_1x64x56x56_7", "aten::adaptive_avg_pool2d", []any{x, []int64{7, 7}}, 4 * (n56 + 64*49)},
		{"adaptive_max_pool2d_1x64x56x56_7", "aten::adaptive_max_pool2d", []any{x, []int64{7, 7}}, 4*n56 + 12*64*49},
		{"upsample_nearest2d_1x64x56x56_x2", "aten::upsample_nearest2d.vec", []any{x, nil, []float64{2, 2}}, 4 * 5 * n56},
		{"upsample_bilinear2d_1x64x56x56_x2", "aten::upsample_bilinear2d.vec", []any{x, nil, false, []float64{2, 2}}, 4 * 5 * n56},
		{"upsample_bilinear2d_ac_1x64x56x56_x2", "aten::upsample_bilinear2d.vec", []any{x, nil, true, []float64{2, 2}}, 4 * 5 * n56},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			benchPooled(b, benchOp(b, tc.op), tc.args, tc.bytes, "GB/s")
		})
	}
}
