package kernels_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// poolingOps are the op overload files of testdata/extra that these kernels
// (pooling.go, upsample.go, grid_sampler.go, col2im.go, distance.go,
// embedding.go, embedding_bag.go) implement.
var poolingOps = []string{
	"aten.avg_pool1d.default", "aten.adaptive_avg_pool1d.default", "aten.avg_pool3d.default",
	"aten._adaptive_avg_pool3d.default", "aten.max_pool3d_with_indices.default",
	"aten.upsample_bilinear2d.vec", "aten.grid_sampler_2d.default", "aten.col2im.default",
	"aten._cdist_forward.default", "aten._pdist_forward.default", "aten._embedding_bag.default",
	"aten._adaptive_avg_pool2d_backward.default", "aten.avg_pool2d_backward.default",
	"aten.max_pool2d_with_indices_backward.default", "aten.embedding_dense_backward.default",
	"aten.native_layer_norm_backward.default", "aten.native_group_norm_backward.default",
	"aten.convolution_backward.default",
}

// TestPoolingMetaExtra runs the extra cases of these ops with meta tensors:
// the meta functions must give the recorded dtypes and shapes (the shared
// vectors, which TestMetaConformance uses, have none of these ops).
func TestPoolingMetaExtra(t *testing.T) {
	_, byFile := casesByFile(t, "testdata/extra")
	for _, f := range poolingOps {
		cases, ok := byFile[f]
		if !ok {
			continue
		}
		t.Run(f, func(t *testing.T) {
			for _, c := range cases {
				if err := conformance.RunMeta(c); err != nil {
					t.Errorf("%s: %v", c.ID, err)
				}
			}
		})
	}
}

// poolingF32 returns a float32 tensor of the given shape filled with 0, 1, ...
func poolingF32(shape ...int) *tensor.Tensor { return arange(shape...) }

// zerosOf returns a zero tensor of dtype dt and the given shape.
func zerosOf(dt tensor.DType, shape ...int) *tensor.Tensor {
	return tensor.Must(tensor.New(dt, shape...))
}

// badCase is a bad-input case: calling op with args (and kwargs) must fail
// with an error naming arg.
type badCase struct {
	name   string
	op     string
	args   []any
	kwargs map[string]any
	arg    string
}

// runBad checks that every case fails, blaming its argument.
func runBad(t *testing.T, cases []badCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o, ok := ops.Global().Lookup(tc.op)
			require.True(t, ok, "no operator %s", tc.op)
			_, err := o.Call(tc.args, tc.kwargs)
			require.Error(t, err)
			assert.True(t, strings.Contains(err.Error(), "'"+tc.arg+"'"), "error %q does not name %q", err, tc.arg)
			assert.NotContains(t, err.Error(), "panic")
		})
	}
}

func TestPoolingPoolBadInput(t *testing.T) {
	x3 := poolingF32(1, 2, 8)
	x5 := poolingF32(1, 2, 4, 4, 4)
	img := poolingF32(1, 2, 4, 4)
	runBad(t, []badCase{
		{"avg_pool1d 4-d", "aten::avg_pool1d", []any{img, []int64{2}}, nil, "self"},
		{"avg_pool1d two kernel sizes", "aten::avg_pool1d", []any{x3, []int64{2, 2}}, nil, "kernel_size"},
		{"avg_pool1d two strides", "aten::avg_pool1d", []any{x3, []int64{2}, []int64{1, 1}}, nil, "stride"},
		{"avg_pool1d big padding", "aten::avg_pool1d", []any{x3, []int64{2}, []int64{1}, []int64{2}}, nil, "padding"},
		{"avg_pool1d kernel too big", "aten::avg_pool1d", []any{x3, []int64{9}}, nil, "self"},
		{"avg_pool1d int32", "aten::avg_pool1d", []any{zerosOf(tensor.Int32, 1, 2, 8), []int64{2}}, nil, "self"},
		{"adaptive_avg_pool1d 1-d", "aten::adaptive_avg_pool1d", []any{poolingF32(8), []int64{2}}, nil, "self"},
		{"adaptive_avg_pool1d two sizes", "aten::adaptive_avg_pool1d", []any{x3, []int64{2, 2}}, nil, "output_size"},
		{"adaptive_avg_pool1d negative", "aten::adaptive_avg_pool1d", []any{x3, []int64{-1}}, nil, "output_size"},
		{"avg_pool3d 3-d", "aten::avg_pool3d", []any{x3, []int64{2}}, nil, "self"},
		{"avg_pool3d two kernel sizes", "aten::avg_pool3d", []any{x5, []int64{2, 2}}, nil, "kernel_size"},
		{"avg_pool3d zero kernel", "aten::avg_pool3d", []any{x5, []int64{0}, []int64{1}}, nil, "kernel_size"},
		{"avg_pool3d zero stride", "aten::avg_pool3d", []any{x5, []int64{2}, []int64{0}}, nil, "stride"},
		{"avg_pool3d negative padding", "aten::avg_pool3d", []any{x5, []int64{2}, []int64{1}, []int64{-1}}, nil, "padding"},
		{"avg_pool3d kernel too big", "aten::avg_pool3d", []any{x5, []int64{5}, []int64{1}, []int64{2}}, nil, "self"},
		{"avg_pool3d zero divisor", "aten::avg_pool3d", []any{x5, []int64{2}, []int64{}, []int64{0}, false, true, 0}, nil, "divisor_override"},
		{"avg_pool3d int32", "aten::avg_pool3d", []any{zerosOf(tensor.Int32, 1, 1, 2, 2, 2), []int64{2}}, nil, "self"},
		{"max_pool3d zero dilation", "aten::max_pool3d_with_indices", []any{x5, []int64{2}, []int64{}, []int64{0}, []int64{0}}, nil, "dilation"},
		{"max_pool3d empty channel", "aten::max_pool3d_with_indices", []any{poolingF32(1, 0, 4, 4, 4), []int64{2}}, nil, "self"},
		{"max_pool3d bfloat16", "aten::max_pool3d_with_indices", []any{zerosOf(tensor.BFloat16, 1, 1, 2, 2, 2), []int64{2}}, nil, "self"},
		{"adaptive_avg_pool3d two sizes", "aten::_adaptive_avg_pool3d", []any{x5, []int64{2, 2}}, nil, "output_size"},
		{"adaptive_avg_pool3d 3-d", "aten::_adaptive_avg_pool3d", []any{x3, []int64{2, 2, 2}}, nil, "self"},
		{"adaptive_avg_pool3d empty dim", "aten::_adaptive_avg_pool3d", []any{poolingF32(1, 2, 0, 4, 4), []int64{2, 2, 2}}, nil, "self"},
		{"adaptive_avg_pool3d int64", "aten::_adaptive_avg_pool3d", []any{zerosOf(tensor.Int64, 1, 1, 2, 2, 2), []int64{2, 2, 2}}, nil, "self"},
	})
}

func TestPoolingBackwardBadInput(t *testing.T) {
	x := poolingF32(1, 2, 4, 4)
	g := poolingF32(1, 2, 2, 2)
	idx := zerosOf(tensor.Int64, 1, 2, 2, 2)
	k, st, pd, dl := []int64{2, 2}, []int64{2, 2}, []int64{0, 0}, []int64{1, 1}
	runBad(t, []badCase{
		{"adaptive 2-d grad", "aten::_adaptive_avg_pool2d_backward", []any{poolingF32(2, 2), x}, nil, "grad_output"},
		{"adaptive empty grad", "aten::_adaptive_avg_pool2d_backward", []any{poolingF32(1, 2, 0, 2), x}, nil, "grad_output"},
		{"adaptive dtype", "aten::_adaptive_avg_pool2d_backward", []any{zerosOf(tensor.Float64, 1, 2, 2, 2), x}, nil, "grad_output"},
		{"adaptive rank", "aten::_adaptive_avg_pool2d_backward", []any{g, poolingF32(2, 4, 4)}, nil, "self"},
		{"adaptive int64", "aten::_adaptive_avg_pool2d_backward", []any{zerosOf(tensor.Int64, 1, 2, 2, 2), zerosOf(tensor.Int64, 1, 2, 4, 4)}, nil, "self"},
		{"avg grad shape", "aten::avg_pool2d_backward", []any{poolingF32(1, 2, 3, 2), x, k, st, pd, false, true, nil}, nil, "grad_output"},
		{"avg grad dtype", "aten::avg_pool2d_backward", []any{zerosOf(tensor.Float64, 1, 2, 2, 2), x, k, st, pd, false, true, nil}, nil, "grad_output"},
		{"avg zero stride", "aten::avg_pool2d_backward", []any{g, x, k, []int64{0, 0}, pd, false, true, nil}, nil, "stride"},
		{"avg zero divisor", "aten::avg_pool2d_backward", []any{g, x, k, st, pd, false, true, 0}, nil, "divisor_override"},
		{"avg 2-d self", "aten::avg_pool2d_backward", []any{g, poolingF32(4, 4), k, st, pd, false, true, nil}, nil, "self"},
		{"max grad shape", "aten::max_pool2d_with_indices_backward", []any{poolingF32(1, 2, 2, 3), x, k, st, pd, dl, false, idx}, nil, "grad_output"},
		{"max zero dilation", "aten::max_pool2d_with_indices_backward", []any{g, x, k, st, pd, []int64{0, 0}, false, idx}, nil, "dilation"},
		{"max int32 indices", "aten::max_pool2d_with_indices_backward", []any{g, x, k, st, pd, dl, false, zerosOf(tensor.Int32, 1, 2, 2, 2)}, nil, "indices"},
		{"max indices shape", "aten::max_pool2d_with_indices_backward", []any{g, x, k, st, pd, dl, false, zerosOf(tensor.Int64, 1, 2, 2)}, nil, "indices"},
		{"max index out of range", "aten::max_pool2d_with_indices_backward", []any{g, x, k, st, pd, dl, false, intTensor([]int64{0, 1, 2, 16, 0, 0, 0, 0}, 1, 2, 2, 2)}, nil, "indices"},
		{"embedding float indices", "aten::embedding_dense_backward", []any{poolingF32(2, 3), poolingF32(2), 4, -1, false}, nil, "indices"},
		{"embedding index out of range", "aten::embedding_dense_backward", []any{poolingF32(2, 3), intTensor([]int64{0, 4}), 4, -1, false}, nil, "indices"},
		{"embedding grad rows", "aten::embedding_dense_backward", []any{poolingF32(3, 3), intTensor([]int64{0, 1}), 4, -1, false}, nil, "grad_output"},
		{"embedding 0-d grad", "aten::embedding_dense_backward", []any{tensor.Scalar(float32(1)), intTensor([]int64{0}), 4, -1, false}, nil, "grad_output"},
		{"embedding negative num_weights", "aten::embedding_dense_backward", []any{poolingF32(1, 3), intTensor([]int64{0}), -1, -1, false}, nil, "num_weights"},
		{"embedding int64 grad", "aten::embedding_dense_backward", []any{zerosOf(tensor.Int64, 1, 3), intTensor([]int64{0}), 2, -1, false}, nil, "grad_output"},
	})
}
