package kernels_test

import (
	"testing"

	"github.com/gofx/gofx/tensor"
)

// The messages are PyTorch 2.6's for the same calls (meshgrid's 2-d
// message prints the tensor in PyTorch; gofx names its rank instead).
func TestShapeHelperErrors(t *testing.T) {
	longs := tensor.Must(tensor.New(tensor.Int64, 2))
	runErrorCases(t, []errorCase{
		{"column_stack empty", "aten::column_stack", []any{[]*tensor.Tensor{}}, nil, "tensors", "column_stack expects a non-empty TensorList"},
		{"dstack empty", "aten::dstack", []any{[]*tensor.Tensor{}}, nil, "tensors", "dstack expects a non-empty TensorList"},
		{"hsplit 0-d", "aten::hsplit.int", []any{f32s(), 2}, nil, "self", "torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with 0 dimensions!"},
		{"hsplit not divisible", "aten::hsplit.int", []any{f32s(2, 5), 2}, nil, "sections", "torch.hsplit attempted to split along dimension 1, but the size of the dimension 5 is not divisible by the split_size 2!"},
		{"hsplit zero", "aten::hsplit.int", []any{f32s(2, 5), 0}, nil, "sections", "torch.hsplit attempted to split along dimension 1, but the size of the dimension 5 is not divisible by the split_size 0!"},
		{"vsplit 1-d", "aten::vsplit.int", []any{f32s(5), 5}, nil, "self", "torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 dimensions!"},
		{"dsplit 2-d", "aten::dsplit.array", []any{f32s(5, 2), []int64{1}}, nil, "self", "torch.dsplit requires a tensor with at least 3 dimension, but got a tensor with 2 dimensions!"},
		{"tensor_split 0-d", "aten::tensor_split.sections", []any{f32s(), 2}, nil, "self", "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"},
		{"tensor_split zero sections", "aten::tensor_split.sections", []any{f32s(3), 0}, nil, "sections", "number of sections must be larger than 0, got 0"},
		{"tensor_split float tensor", "aten::tensor_split.tensor_indices_or_sections", []any{f32s(3), f32s()}, nil, "tensor_indices_or_sections",
			"tensor_split expected tensor_indices_or_sections to have dtype of long, but got Float"},
		{"tensor_split 2-d tensor", "aten::tensor_split.tensor_indices_or_sections", []any{f32s(3), tensor.Must(tensor.New(tensor.Int64, 1, 1))}, nil, "tensor_indices_or_sections",
			"tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional tensor, but got a tensor with 2 dims"},
		{"flipud 0-d", "aten::flipud", []any{f32s()}, nil, "self", "Input must be >= 1-d."},
		{"fliplr 1-d", "aten::fliplr", []any{f32s(2)}, nil, "self", "Input must be >= 2-d."},
		{"rot90 three dims", "aten::rot90", []any{f32s(2, 2), 1, []int64{0, 1, 2}}, nil, "dims", "expected total rotation dims == 2, but got dims = 3"},
		{"rot90 1-d", "aten::rot90", []any{f32s(2), 1, []int64{0, 1}}, nil, "self", "expected total dims >= 2, but got total dims = 1"},
		{"rot90 same dims", "aten::rot90", []any{f32s(2, 2), 1, []int64{0, 0}}, nil, "dims", "expected rotation dims to be different, but got dim0 = 0 and dim1 = 0"},
		{"rot90 same dims wrapped", "aten::rot90", []any{f32s(2, 2), 1, []int64{0, -2}}, nil, "dims", "expected rotation dims to be different, but got dim0 = 0 and dim1 = -2"},
		{"rot90 range", "aten::rot90", []any{f32s(2, 2), 1, []int64{0, 5}}, nil, "dims", "Rotation dim1 out of range, dim1 = 5"},
		{"meshgrid empty", "aten::meshgrid.indexing", []any{[]*tensor.Tensor{}}, map[string]any{"indexing": "ij"}, "tensors", "meshgrid expects a non-empty TensorList"},
		{"meshgrid 2-d", "aten::meshgrid.indexing", []any{[]*tensor.Tensor{f32s(2, 2)}}, map[string]any{"indexing": "ij"}, "tensors", "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got"},
		{"meshgrid dtypes", "aten::meshgrid.indexing", []any{[]*tensor.Tensor{f32s(2), longs}}, map[string]any{"indexing": "ij"}, "tensors", "meshgrid expects all tensors to have the same dtype"},
		{"meshgrid indexing", "aten::meshgrid.indexing", []any{[]*tensor.Tensor{f32s(2)}}, map[string]any{"indexing": "foo"}, "indexing", `torch.meshgrid: indexing must be one of "xy" or "ij", but received: foo`},
		{"cartesian_prod 2-d", "aten::cartesian_prod", []any{[]*tensor.Tensor{f32s(2, 2)}}, nil, "tensors", "Expect a 1D vector, but got shape [2, 2]"},
		{"combinations r", "aten::combinations", []any{f32s(2), -1}, nil, "r", "Expect a non-negative number, but got -1"},
		{"combinations 2-d", "aten::combinations", []any{f32s(2, 2)}, nil, "self", "Expect a 1D vector, but got shape [2, 2]"},
		{"block_diag 3-d", "aten::block_diag", []any{[]*tensor.Tensor{f32s(2), f32s(2, 2, 2)}}, nil, "tensors", "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 1 has 3 dimensions"},
		{"unfold size", "aten::unfold", []any{f32s(3), 0, 5, 1}, nil, "size", "maximum size for tensor at dimension 0 is 3 but size is 5"},
		{"unfold step", "aten::unfold", []any{f32s(3), 0, 2, 0}, nil, "step", "step is 0 but must be > 0"},
		{"unfold negative size", "aten::unfold", []any{f32s(3), 0, -1, 1}, nil, "size", "size is -1 but must be >= 0"},
		{"mT 1-d", "aten::mT", []any{f32s(3)}, nil, "self", "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor."},
		{"mH 1-d", "aten::mH", []any{f32s(3)}, nil, "self", "tensor.mH is only supported on matrices or batches of matrices. Got 1-D tensor."},
		{"adjoint 1-d", "aten::adjoint", []any{f32s(3)}, nil, "self", "tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor."},
		{"matrix_H 3-d", "aten::matrix_H", []any{f32s(2, 2, 2)}, nil, "self", "tensor.H is only supported on matrices (2-D tensors). Got 3-D tensor."},
		{"positive bool", "aten::positive", []any{tensor.Must(tensor.New(tensor.Bool, 1))}, nil, "self", "The `+` operator, on a bool tensor is not supported."},
		{"channel_shuffle groups", "aten::channel_shuffle", []any{f32s(1, 6, 2), 4}, nil, "groups", "Number of channels must be divisible by groups. Got 6 channels and 4 groups."},
		{"channel_shuffle 2-d", "aten::channel_shuffle", []any{f32s(1, 6), 3}, nil, "self", "channel_shuffle expects input with > 2 dims, but got input with sizes [1, 6]"},
		{"channel_shuffle zero groups", "aten::channel_shuffle", []any{f32s(1, 6, 2), 0}, nil, "groups", "Number of groups to divide channels in must be positive. Value of groups:0"},
		{"sum_to_size", "aten::sum_to_size", []any{f32s(2, 3), []int64{4}}, nil, "size", "size {[4]} is not expandable to size {[2, 3]}."},
		{"broadcast_tensors", "aten::broadcast_tensors", []any{[]*tensor.Tensor{f32s(3), f32s(2)}}, nil, "tensors", "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0"},
	})
}
