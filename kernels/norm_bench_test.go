package kernels_test

import (
	"testing"

	"github.com/gofx/gofx/tensor"
)

// BenchmarkNorm times the float32 row kernels of issue 17's norms,
// softmax, max reduction and exp on a ViT's and a transformer's
// activations and a resnet-sized group norm, and reports GB/s: the bytes
// of the input read and the output written once each (the statistics
// and the weights not counted), with the outputs handed back to the
// buffer pool. ../bench/torch_norm.py times the same calls in PyTorch.
func BenchmarkNorm(b *testing.B) {
	g := tensor.NewGenerator(5)
	randn := func(shape ...int) *tensor.Tensor { return tensor.Must(g.Randn(tensor.Float32, shape...)) }
	vit, rows, gn, big := randn(1, 197, 768), randn(64, 1024), randn(1, 256, 56, 56), randn(1<<20)
	cases := []struct {
		name, op string
		args     []any
		bytes    float64
	}{
		{"layer_norm_1x197x768", "aten::native_layer_norm", []any{vit, []int64{768}, randn(768), randn(768), 1e-5}, 8 * 197 * 768},
		{"layer_norm_64x1024", "aten::native_layer_norm", []any{rows, []int64{1024}, randn(1024), randn(1024), 1e-5}, 8 * 64 * 1024},
		{"group_norm_1x256x56x56_g32", "aten::native_group_norm", []any{gn, randn(256), randn(256), int64(1), int64(256), int64(56 * 56), int64(32), 1e-5}, 8 * 256 * 56 * 56},
		{"softmax_64x1024", "aten::_softmax", []any{rows, int64(-1), false}, 8 * 64 * 1024},
		{"log_softmax_64x1024", "aten::_log_softmax", []any{rows, int64(-1), false}, 8 * 64 * 1024},
		{"amax_lastdim_64x1024", "aten::amax", []any{rows, []int64{-1}}, 4 * 64 * 1024},
		{"max.dim_lastdim_64x1024", "aten::max.dim", []any{rows, int64(-1)}, 4 * 64 * 1024},
		{"exp_1M", "aten::exp.default", []any{big}, 8 << 20},
		{"sigmoid_1M", "aten::sigmoid.default", []any{big}, 8 << 20},
		{"silu_1M", "aten::silu.default", []any{big}, 8 << 20},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			// Outputs go back to the buffer pool: the steady state of a
			// model's run (BenchmarkAdd1M/pooled).
			benchPooled(b, benchOp(b, tc.op), tc.args, tc.bytes, "GB/s")
		})
	}
}
