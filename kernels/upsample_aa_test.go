package kernels_test

import (
	"testing"

	"github.com/gofx/gofx/tensor"
)

func TestUpsampleAABadInput(t *testing.T) {
	img := poolingF32(1, 2, 4, 4)
	runBad(t, []badCase{
		{"bilinear 3-d", "aten::_upsample_bilinear2d_aa", []any{poolingF32(2, 4, 4), []int64{2, 2}, false}, nil, "self"},
		{"bilinear one size", "aten::_upsample_bilinear2d_aa", []any{img, []int64{2}, false}, nil, "output_size"},
		{"bicubic bfloat16", "aten::_upsample_bicubic2d_aa", []any{zerosOf(tensor.BFloat16, 1, 1, 4, 4), []int64{2, 2}, false}, nil, "self"},
		{"bicubic zero size", "aten::_upsample_bicubic2d_aa", []any{img, []int64{0, 2}, false}, nil, "self"},
		{"vec both", "aten::_upsample_bilinear2d_aa.vec", []any{img, []int64{2, 2}, false, []float64{0.5, 0.5}}, nil, "scale_factors"},
		{"vec neither", "aten::_upsample_bicubic2d_aa.vec", []any{img, nil, false, nil}, nil, "output_size"},
	})
}
