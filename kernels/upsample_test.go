package kernels_test

import (
	"testing"

	"github.com/gofx/gofx/tensor"
)

func TestResampleBadInput(t *testing.T) {
	img := poolingF32(1, 2, 4, 4)
	grid := poolingF32(1, 3, 3, 2)
	runBad(t, []badCase{
		{"bilinear both sizes", "aten::upsample_bilinear2d.vec", []any{img, []int64{2, 2}, false, []float64{2, 2}}, nil, "scale_factors"},
		{"bilinear no size", "aten::upsample_bilinear2d.vec", []any{img, nil, false, nil}, nil, "output_size"},
		{"bilinear 3 sizes", "aten::upsample_bilinear2d.vec", []any{img, []int64{2, 2, 2}, false, nil}, nil, "output_size"},
		{"bilinear 3-d input", "aten::upsample_bilinear2d.vec", []any{poolingF32(2, 4, 4), nil, false, []float64{2}}, nil, "input"},
		{"bilinear zero size", "aten::upsample_bilinear2d.vec", []any{img, []int64{0, 2}, false, nil}, nil, "input"},
		{"bilinear int64", "aten::upsample_bilinear2d.vec", []any{zerosOf(tensor.Int64, 1, 1, 2, 2), []int64{3, 3}, false, nil}, nil, "input"},
		{"grid 3-d", "aten::grid_sampler_2d", []any{poolingF32(2, 4, 4), grid, 0, 0, false}, nil, "grid"},
		{"grid dtype", "aten::grid_sampler_2d", []any{img, zerosOf(tensor.Float64, 1, 3, 3, 2), 0, 0, false}, nil, "grid"},
		{"grid batch", "aten::grid_sampler_2d", []any{img, poolingF32(2, 3, 3, 2), 0, 0, false}, nil, "grid"},
		{"grid last dim", "aten::grid_sampler_2d", []any{img, poolingF32(1, 3, 3, 3), 0, 0, false}, nil, "grid"},
		{"grid mode", "aten::grid_sampler_2d", []any{img, grid, 3, 0, false}, nil, "interpolation_mode"},
		{"grid padding", "aten::grid_sampler_2d", []any{img, grid, 0, 5, false}, nil, "padding_mode"},
		{"grid empty input", "aten::grid_sampler_2d", []any{poolingF32(1, 2, 0, 4), grid, 0, 0, false}, nil, "input"},
		{"col2im 3 output sizes", "aten::col2im", []any{poolingF32(1, 4, 9), []int64{4, 4, 4}, []int64{2, 2}, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}}, nil, "output_size"},
		{"col2im zero kernel", "aten::col2im", []any{poolingF32(1, 4, 9), []int64{4, 4}, []int64{0, 2}, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}}, nil, "kernel_size"},
		{"col2im zero stride", "aten::col2im", []any{poolingF32(1, 4, 9), []int64{4, 4}, []int64{2, 2}, []int64{1, 1}, []int64{0, 0}, []int64{0, 1}}, nil, "stride"},
		{"col2im zero dilation", "aten::col2im", []any{poolingF32(1, 4, 9), []int64{4, 4}, []int64{2, 2}, []int64{0, 1}, []int64{0, 0}, []int64{1, 1}}, nil, "dilation"},
		{"col2im negative padding", "aten::col2im", []any{poolingF32(1, 4, 9), []int64{4, 4}, []int64{2, 2}, []int64{1, 1}, []int64{-1, 0}, []int64{1, 1}}, nil, "padding"},
		{"col2im not divisible", "aten::col2im", []any{poolingF32(1, 5, 9), []int64{4, 4}, []int64{2, 2}, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}}, nil, "self"},
		{"col2im wrong length", "aten::col2im", []any{poolingF32(1, 4, 8), []int64{4, 4}, []int64{2, 2}, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}}, nil, "self"},
		{"col2im 4-d", "aten::col2im", []any{poolingF32(1, 1, 4, 9), []int64{4, 4}, []int64{2, 2}, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}}, nil, "self"},
		{"col2im int64", "aten::col2im", []any{zerosOf(tensor.Int64, 1, 4, 9), []int64{4, 4}, []int64{2, 2}, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}}, nil, "self"},
	})
}
