package kernels_test

import (
	"testing"

	"github.com/gofx/gofx/tensor"
)

func TestDistanceEmbeddingBagBadInput(t *testing.T) {
	a, b := poolingF32(3, 4), poolingF32(2, 4)
	w := poolingF32(5, 3)
	idx := intTensor([]int64{0, 1, 4, 2})
	off := intTensor([]int64{0, 2})
	runBad(t, []badCase{
		{"cdist 1-d x1", "aten::_cdist_forward", []any{poolingF32(4), b, 2.0, nil}, nil, "x1"},
		{"cdist 1-d x2", "aten::_cdist_forward", []any{a, poolingF32(4), 2.0, nil}, nil, "x2"},
		{"cdist columns", "aten::_cdist_forward", []any{a, poolingF32(2, 3), 2.0, nil}, nil, "x2"},
		{"cdist negative p", "aten::_cdist_forward", []any{a, b, -1.0, nil}, nil, "p"},
		{"cdist mode", "aten::_cdist_forward", []any{a, b, 2.0, 3}, nil, "compute_mode"},
		{"cdist int64", "aten::_cdist_forward", []any{zerosOf(tensor.Int64, 3, 4), zerosOf(tensor.Int64, 2, 4), 2.0, nil}, nil, "x1"},
		{"cdist dtypes differ", "aten::_cdist_forward", []any{a, zerosOf(tensor.Float64, 2, 4), 2.0, nil}, nil, "x2"},
		{"cdist batch", "aten::_cdist_forward", []any{poolingF32(2, 3, 4), poolingF32(3, 2, 4), 2.0, nil}, nil, "x2"},
		{"pdist 1-d", "aten::_pdist_forward", []any{poolingF32(4)}, nil, "self"},
		{"pdist int64", "aten::_pdist_forward", []any{zerosOf(tensor.Int64, 3, 4)}, nil, "self"},
		{"bag float indices", "aten::_embedding_bag", []any{w, poolingF32(4), off}, nil, "indices"},
		{"bag 2-d offsets", "aten::_embedding_bag", []any{w, idx, intTensor([]int64{0, 2}, 1, 2)}, nil, "offsets"},
		{"bag int64 weight", "aten::_embedding_bag", []any{zerosOf(tensor.Int64, 5, 3), idx, off}, nil, "weight"},
		{"bag bfloat16 weight", "aten::_embedding_bag", []any{zerosOf(tensor.BFloat16, 5, 3), idx, off}, nil, "weight"},
		{"bag 1-d weight", "aten::_embedding_bag", []any{poolingF32(5), idx, off}, nil, "weight"},
		{"bag mode", "aten::_embedding_bag", []any{w, idx, off, false, 3}, nil, "mode"},
		{"bag first offset", "aten::_embedding_bag", []any{w, idx, intTensor([]int64{1, 2})}, nil, "offsets"},
		{"bag last offset", "aten::_embedding_bag", []any{w, idx, intTensor([]int64{0, 5})}, nil, "offsets"},
		{"bag decreasing offsets", "aten::_embedding_bag", []any{w, idx, intTensor([]int64{0, 3, 2})}, nil, "offsets"},
		{"bag index out of range", "aten::_embedding_bag", []any{w, intTensor([]int64{0, 5}), off}, nil, "indices"},
		{"bag negative index", "aten::_embedding_bag", []any{w, intTensor([]int64{-1, 0}), off}, nil, "indices"},
		{"bag weights with mean", "aten::_embedding_bag", []any{w, idx, off, false, 1, false, poolingF32(4)}, nil, "per_sample_weights"},
		{"bag weights dtype", "aten::_embedding_bag", []any{w, idx, off, false, 0, false, zerosOf(tensor.Float64, 4)}, nil, "per_sample_weights"},
		{"bag weights length", "aten::_embedding_bag", []any{w, idx, off, false, 0, false, poolingF32(3)}, nil, "per_sample_weights"},
		{"bag include_last_offset without offsets", "aten::_embedding_bag", []any{w, idx, intTensor([]int64{}), false, 0, false, nil, true}, nil, "offsets"},
	})
}
