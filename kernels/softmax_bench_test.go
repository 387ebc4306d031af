package kernels_test

import (
	"testing"

	"github.com/gofx/gofx/tensor"
)

// BenchmarkSoftmax times float32 softmax and log_softmax along a dim
// other than the last (the column path: over the 64 channels of a
// [1,64,32,32] map, and over the 1024 rows of a [1024,64] matrix), and
// reports GB/s: the input read and the output written once each, with the
// outputs handed back to the buffer pool. BenchmarkNorm has the last-dim
// cases; ../bench/torch_softmax.py times the same calls in PyTorch.
func BenchmarkSoftmax(b *testing.B) {
	g := tensor.NewGenerator(6)
	randn := func(shape ...int) *tensor.Tensor { return tensor.Must(g.Randn(tensor.Float32, shape...)) }
	chw, tall := randn(1, 64, 32, 32), randn(1024, 64)
	cases := []struct {
		name, op string
		args     []any
		bytes    float64
	}{
		{"softmax_dim1_1x64x32x32", "aten::_softmax", []any{chw, int64(1), false}, 8 * 64 * 1024},
		{"log_softmax_dim1_1x64x32x32", "aten::_log_softmax", []any{chw, int64(1), false}, 8 * 64 * 1024},
		{"softmax_dim0_1024x64", "aten::_softmax", []any{tall, int64(0), false}, 8 * 64 * 1024},
		{"log_softmax_dim0_1024x64", "aten::_log_softmax", []any{tall, int64(0), false}, 8 * 64 * 1024},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			benchPooled(b, benchOp(b, tc.op), tc.args, tc.bytes, "GB/s")
		})
	}
}
