package kernels_test

import (
	"testing"

	"github.com/gofx/gofx/tensor"
)

func TestRNNSeqBadInput(t *testing.T) {
	x := poolingF32(3, 2, 4)
	h := zerosOf(tensor.Float32, 1, 2, 5)
	lstmW := []*tensor.Tensor{zerosOf(tensor.Float32, 20, 4), zerosOf(tensor.Float32, 20, 5)}
	gruW := []*tensor.Tensor{zerosOf(tensor.Float32, 15, 4), zerosOf(tensor.Float32, 15, 5)}
	args := func(in, hx any, params []*tensor.Tensor, layers int64, bi bool) []any {
		return []any{in, hx, params, false, layers, 0.0, false, bi, false}
	}
	runBad(t, []badCase{
		{"lstm 2-d input", "aten::lstm.input", args(poolingF32(3, 4), []*tensor.Tensor{h, h}, lstmW, 1, false), nil, "input"},
		{"lstm one state", "aten::lstm.input", args(x, []*tensor.Tensor{h}, lstmW, 1, false), nil, "hx"},
		{"lstm too few weights", "aten::lstm.input", args(x, []*tensor.Tensor{h, h}, lstmW[:1], 1, false), nil, "params"},
		{"lstm bidirectional needs two states", "aten::lstm.input", args(x, []*tensor.Tensor{h, h}, lstmW, 1, true), nil, "hx"},
		{"lstm wrong input size", "aten::lstm.input", args(poolingF32(3, 2, 3), []*tensor.Tensor{h, h}, lstmW, 1, false), nil, "params"},
		{"gru zero layers", "aten::gru.input", args(x, h, gruW, 0, false), nil, "num_layers"},
		{"gru empty sequence", "aten::gru.input", args(poolingF32(0, 2, 4), h, gruW, 1, false), nil, "input"},
		{"gru batch mismatch", "aten::gru.input", args(x, zerosOf(tensor.Float32, 1, 3, 5), gruW, 1, false), nil, "hx"},
		{"packed increasing batch_sizes", "aten::gru.data", []any{poolingF32(5, 4), i64s(2, 3), h, gruW, false, int64(1), 0.0, false, false}, nil, "batch_sizes"},
		{"packed sum mismatch", "aten::gru.data", []any{poolingF32(6, 4), i64s(3, 2), h, gruW, false, int64(1), 0.0, false, false}, nil, "batch_sizes"},
		{"packed 3-d data", "aten::lstm.data", []any{x, i64s(2), []*tensor.Tensor{h, h}, lstmW, false, int64(1), 0.0, false, false}, nil, "data"},
		{"rnn_tanh lstm weights", "aten::rnn_tanh.input", args(x, h, []*tensor.Tensor{lstmW[0], zerosOf(tensor.Float32, 20, 4)}, 1, false), nil, "params"},
	})
}

// i64s returns a 1-D int64 tensor of vs.
func i64s(vs ...int64) *tensor.Tensor {
	return tensor.Must(tensor.FromInt64s(tensor.Int64, vs, len(vs)))
}
