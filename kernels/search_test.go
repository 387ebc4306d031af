package kernels_test

import (
	"math"
	"testing"

	"github.com/gofx/gofx/tensor"
)

// The messages are PyTorch 2.6's for the same calls.
func TestSearchErrors(t *testing.T) {
	seq := vec(1, 3, 5, 7)
	ints := func(v ...int64) *tensor.Tensor { return tensor.Must(tensor.FromInt64s(tensor.Int64, v, len(v))) }
	bools := tensor.Must(tensor.FromInt64s(tensor.Bool, []int64{0, 1}, 2))
	runErrorCases(t, []errorCase{
		{"searchsorted side vs right", "aten::searchsorted.Tensor", []any{seq, vec(3)}, map[string]any{"side": "left", "right": true}, "side",
			"torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True"},
		{"searchsorted bad side", "aten::searchsorted.Tensor", []any{seq, vec(3)}, map[string]any{"side": "foo"}, "side",
			"torch.searchsorted(): side can only be 'left' or 'right' but got foo"},
		{"searchsorted dims", "aten::searchsorted.Tensor", []any{f32s(2, 3), f32s(3, 1)}, nil, "sorted_sequence",
			"torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor [2, 3] and input value tensor [3, 1]"},
		{"searchsorted 0-d sequence", "aten::searchsorted.Tensor", []any{f32s(), f32s(3)}, nil, "sorted_sequence",
			"torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension"},
		{"searchsorted sorter size", "aten::searchsorted.Tensor", []any{seq, f32s(3)}, map[string]any{"sorter": ints(0, 1)}, "sorter",
			"torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor [4] and got sorter tensor [2]"},
		{"searchsorted sorter dtype", "aten::searchsorted.Tensor", []any{seq, f32s(3)}, map[string]any{"sorter": vec(0, 1, 2, 3)}, "sorter",
			"torch.searchsorted(): sorter must be a tensor of long dtype but got dtype Float"},
		{"searchsorted sorter range", "aten::searchsorted.Tensor", []any{seq, f32s(3)}, map[string]any{"sorter": ints(0, 1, 2, 4)}, "sorter",
			"torch.searchsorted(): sorter index out of range"},
		{"searchsorted bool", "aten::searchsorted.Tensor", []any{bools, bools}, nil, "self", `"searchsorted_out_cpu" not implemented for 'Bool'`},
		{"bucketize 2-d", "aten::bucketize.Tensor", []any{f32s(3), f32s(2, 2)}, nil, "boundaries", "boundaries tensor must be 1 dimension, but got dim(2)"},
		{"histc int", "aten::histc", []any{ints(1, 2), 3}, nil, "self", `"histogram_cpu" not implemented for 'Long'`},
		{"histc bins", "aten::histc", []any{vec(1, 2), 0}, nil, "bins", "torch.histogram(): bins must be > 0, but got 0 for dimension 0"},
		{"histc min > max", "aten::histc", []any{vec(1, 2), 3, 3, 1}, nil, "max", "torch.histc: max must be larger than min"},
		{"histc infinite", "aten::histc", []any{vec(2, math.Inf(1)), 3}, nil, "self", "torch.histc: range of [2, inf] is not finite"},
		{"histogram int", "aten::histogram.bin_ct", []any{ints(1, 2, 1), 4}, nil, "self", `"histogramdd" not implemented for 'Long'`},
		{"histogram range", "aten::histogram.bin_ct", []any{vec(1, 2, 1), 4}, map[string]any{"range": []float64{2, 1}}, "range",
			"torch.histogramdd: min should not exceed max, but got min 2 max 1 for dimension 0"},
		{"histogram 2-d bins", "aten::histogram.bins_tensor", []any{vec(1, 2, 1), f32s(2, 2)}, nil, "bins",
			"torch.histogramdd: bins tensor should have one dimension, but got 2 dimensions in the bins tensor for dimension 0"},
		{"histogram weight shape", "aten::histogram.bin_ct", []any{vec(1, 2, 1), 4}, map[string]any{"weight": vec(1, 1)}, "weight",
			"torch.histogramdd: if weight tensor is provided it should have the same shape as the input tensor excluding its innermost dimension, but got input with shape [3, 1] and weight with shape [2]"},
		{"bincount float", "aten::bincount", []any{vec(1, 2)}, nil, "self", `"bincount_cpu" not implemented for 'Float'`},
		{"bincount negative", "aten::bincount", []any{ints(-1, 2)}, nil, "self", "bincount only supports 1-d non-negative integral inputs."},
		{"bincount 2-d", "aten::bincount", []any{tensor.Must(tensor.New(tensor.Int64, 2, 2))}, nil, "self", "bincount only supports 1-d non-negative integral inputs."},
		{"bincount minlength", "aten::bincount", []any{ints(1), nil, -1}, nil, "minlength", "minlength should be >= 0"},
		{"bincount weights", "aten::bincount", []any{ints(1, 2), vec(1)}, nil, "weights", "weights should be 1-d and have the same length as input"},
		{"isin bool", "aten::isin.Tensor_Tensor", []any{bools, bools}, nil, "elements", "Unsupported input type encountered for isin(): Bool"},
		{"count_nonzero repeated dim", "aten::count_nonzero.dim_IntList", []any{f32s(2, 2), []int64{0, 0}}, nil, "dim", "dim 0 appears multiple times in the list of dims"},
		{"nonzero_static size", "aten::nonzero_static", []any{ints(1, 0)}, map[string]any{"size": -1}, "size", "nonzero_static: 'size' must be an non-negative integer"},
		{"unique_dim zero-size other dim", "aten::unique_dim", []any{f32s(2, 0), 0}, nil, "self", "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied"},
		{"unique_dim 0-d", "aten::unique_dim", []any{f32s(), 0}, nil, "dim", "Dimension specified as 0 but tensor has no dimensions"},
		{"unique_consecutive 0-d dim", "aten::unique_consecutive", []any{f32s(), true, true, 0}, nil, "dim", "Dimension specified as 0 but tensor has no dimensions"},
	})
}
