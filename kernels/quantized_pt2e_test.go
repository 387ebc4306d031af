package kernels_test

import (
	"testing"

	"github.com/gofx/gofx/tensor"
)

func TestQuantizedPT2EBadInput(t *testing.T) {
	x := poolingF32(2, 4)
	s := zerosOf(tensor.Float32, 2, 1)
	z := zerosOf(tensor.Int64, 2, 1)
	runBad(t, []badCase{
		{"choose_qparams int64 input", "quantized_decomposed::choose_qparams.tensor", []any{zerosOf(tensor.Int64, 3), int64(-128), int64(127), 1e-5, tensor.Int8}, nil, "input"},
		{"choose_qparams float dtype", "quantized_decomposed::choose_qparams.tensor", []any{x, int64(-128), int64(127), 1e-5, tensor.Float32}, nil, "dtype"},
		{"choose_qparams range without 0", "quantized_decomposed::choose_qparams_symmetric.tensor", []any{x, int64(1), int64(127), 1e-5, tensor.Int8}, nil, "quant_min"},
		{"per_token uint8", "quantized_decomposed::choose_qparams_per_token", []any{x, tensor.Uint8}, nil, "dtype"},
		{"quantize_per_token scales", "quantized_decomposed::quantize_per_token", []any{x, zerosOf(tensor.Float32, 3, 1), z, int64(-128), int64(127), tensor.Int8}, nil, "scales"},
		{"quantize_per_token bounds", "quantized_decomposed::quantize_per_token", []any{x, s, z, int64(-300), int64(127), tensor.Int8}, nil, "quant_min"},
		{"group size 1", "quantized_decomposed::quantize_per_channel_group", []any{x, s, z, int64(-8), int64(7), tensor.Int8, int64(1)}, nil, "group_size"},
		{"group 3-d", "quantized_decomposed::dequantize_per_channel_group", []any{zerosOf(tensor.Int8, 1, 2, 4), s, z, int64(-8), int64(7), tensor.Int8, int64(4), tensor.Float32}, nil, "input"},
		{"group not dividing", "quantized_decomposed::quantize_per_channel_group", []any{poolingF32(2, 6), zerosOf(tensor.Float32, 3), zerosOf(tensor.Int64, 3), int64(-8), int64(7), tensor.Int8, int64(4)}, nil, "group_size"},
		{"optimized float64", "aten::choose_qparams_optimized", []any{zerosOf(tensor.Float64, 4), int64(4), int64(10), 0.5, int64(8)}, nil, "input"},
		{"optimized numel too big", "aten::choose_qparams_optimized", []any{zerosOf(tensor.Float32, 4), int64(5), int64(10), 0.5, int64(8)}, nil, "numel"},
		{"optimized bit width", "aten::choose_qparams_optimized", []any{zerosOf(tensor.Float32, 4), int64(4), int64(10), 0.5, int64(40)}, nil, "bit_width"},
		{"per tensor empty", "aten::_choose_qparams_per_tensor", []any{zerosOf(tensor.Float32, 0)}, nil, "self"},
	})
}
