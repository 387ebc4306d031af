package kernels_test

import (
	"testing"

	"github.com/gofx/gofx/tensor"
)

func TestMaxPoolingBadInput(t *testing.T) {
	x3 := poolingF32(1, 2, 8)
	img := poolingF32(1, 2, 4, 4)
	vol := poolingF32(1, 1, 4, 4, 4)
	idx := zerosOf(tensor.Int64, 1, 2, 4, 4)
	runBad(t, []badCase{
		{"max_pool1d 4-d", "aten::max_pool1d", []any{img, []int64{2}}, nil, "self"},
		{"max_pool1d two kernel sizes", "aten::max_pool1d_with_indices", []any{x3, []int64{2, 2}}, nil, "kernel_size"},
		{"max_pool1d kernel too big", "aten::max_pool1d", []any{x3, []int64{9}}, nil, "self"},
		{"max_pool3d 3-d", "aten::max_pool3d", []any{x3, []int64{2}}, nil, "self"},
		{"adaptive_max_pool1d two sizes", "aten::adaptive_max_pool1d", []any{x3, []int64{2, 2}}, nil, "output_size"},
		{"adaptive_max_pool2d 2-d", "aten::adaptive_max_pool2d", []any{poolingF32(4, 4), []int64{2, 2}}, nil, "self"},
		{"adaptive_max_pool2d empty channel", "aten::adaptive_max_pool2d", []any{poolingF32(1, 0, 4, 4), []int64{2, 2}}, nil, "self"},
		{"adaptive_max_pool2d negative", "aten::adaptive_max_pool2d", []any{img, []int64{-1, 2}}, nil, "output_size"},
		{"adaptive_max_pool3d int64", "aten::adaptive_max_pool3d", []any{zerosOf(tensor.Int64, 1, 2, 2, 2), []int64{1, 1, 1}}, nil, "self"},
		{"max_unpool2d int32 indices", "aten::max_unpool2d", []any{img, zerosOf(tensor.Int32, 1, 2, 4, 4), []int64{8, 8}}, nil, "indices"},
		{"max_unpool2d index shape", "aten::max_unpool2d", []any{img, zerosOf(tensor.Int64, 1, 2, 4, 3), []int64{8, 8}}, nil, "indices"},
		{"max_unpool2d index too big", "aten::max_unpool2d", []any{img, filled(idx, 64), []int64{8, 8}}, nil, "indices"},
		{"max_unpool2d three sizes", "aten::max_unpool2d", []any{img, idx, []int64{8, 8, 8}}, nil, "output_size"},
		{"max_unpool3d zero stride", "aten::max_unpool3d", []any{vol, zerosOf(tensor.Int64, 1, 1, 4, 4, 4), []int64{8, 8, 8}, []int64{0, 2, 2}, []int64{0, 0, 0}}, nil, "stride"},
		{"fractional 2-d pool too big", "aten::fractional_max_pool2d", []any{img, []int64{2, 2}, []int64{4, 4}, zerosOf(tensor.Float32, 1, 2, 2)}, nil, "output_size"},
		{"fractional 2-d samples shape", "aten::fractional_max_pool2d", []any{img, []int64{2, 2}, []int64{2, 2}, zerosOf(tensor.Float32, 1, 1, 2)}, nil, "random_samples"},
		{"fractional 3-d samples dtype", "aten::fractional_max_pool3d", []any{vol, []int64{2, 2, 2}, []int64{2, 2, 2}, zerosOf(tensor.Float64, 1, 1, 3)}, nil, "random_samples"},
		{"fractional 3-d strict bound", "aten::fractional_max_pool3d", []any{vol, []int64{2, 2, 2}, []int64{3, 2, 2}, zerosOf(tensor.Float32, 1, 1, 3)}, nil, "output_size"},
	})
}

// filled returns a copy of t with every element v.
func filled(t *tensor.Tensor, v int64) *tensor.Tensor {
	vals := make([]int64, t.Numel())
	for i := range vals {
		vals[i] = v
	}
	return tensor.Must(tensor.FromInt64s(t.DType(), vals, t.Shape()...))
}
