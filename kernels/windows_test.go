package kernels_test

import (
	"testing"

	"github.com/gofx/gofx/tensor"
)

func TestWindowsBadInput(t *testing.T) {
	runBad(t, []badCase{
		{"hann negative", "aten::hann_window", []any{int64(-1)}, nil, "window_length"},
		{"hamming int64", "aten::hamming_window.periodic", []any{int64(4), true}, map[string]any{"dtype": tensor.Int64}, "dtype"},
		{"kaiser sparse", "aten::kaiser_window", []any{int64(4)}, map[string]any{"layout": "sparse_coo"}, "layout"},
		{"tril_indices negative row", "aten::tril_indices", []any{int64(-1), int64(3)}, nil, "row"},
		{"triu_indices negative col", "aten::triu_indices", []any{int64(3), int64(-3)}, nil, "col"},
		{"vander 2-d", "aten::vander", []any{zerosOf(tensor.Float32, 2, 2)}, nil, "x"},
		{"vander negative N", "aten::vander", []any{zerosOf(tensor.Float32, 2), int64(-1)}, nil, "N"},
		{"range zero step", "aten::range.step", []any{0.0, 1.0, 0.0}, nil, "step"},
		{"range wrong sign", "aten::range.step", []any{0.0, 1.0, -1.0}, nil, "step"},
	})
}
