package kernels_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// The errors of the norm, contraction, determinant, loss and special
// function families (norm.go, contraction.go, batch_linear_algebra.go,
// loss.go, special.go), with PyTorch 2.6's messages.
func TestMath14bErrors(t *testing.T) {
	i64 := func(v ...int64) *tensor.Tensor { return intTensor(v) }
	f64s := func(shape ...int) *tensor.Tensor { return zerosOf(tensor.Float64, shape...) }
	vals := func(v ...float64) *tensor.Tensor { return tensor.Must(tensor.FromFloat64s(tensor.Float32, v, len(v))) }
	runErrorCases(t, []errorCase{
		{"vector_norm int", "aten::linalg_vector_norm", []any{i64(1, 2)}, nil, "self", "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"},
		{"vector_norm empty inf", "aten::linalg_vector_norm", []any{f32s(0, 3), ops.FloatScalar(math.Inf(1)), []int64{0}}, nil, "dim", "linalg.vector_norm cannot compute the inf norm on the dimension 0because this dimension is empty"},
		{"vector_norm narrowing", "aten::linalg_vector_norm", []any{f64s(3)}, map[string]any{"dtype": tensor.Float32}, "dtype", "linalg.vector_norm: the dtype of the input (Double) should be convertible without narrowing to the specified dtype (Float)"},
		{"norm int", "aten::norm.Scalar", []any{i64(1, 2)}, nil, "self", "norm(): input dtype should be either floating point or complex. Got Long instead."},
		{"matrix_norm 1-d", "aten::linalg_matrix_norm", []any{f32s(3), ops.IntScalar(1)}, nil, "self", "linalg.matrix_norm: The input tensor A must have at least 2 dimensions."},
		{"matrix_norm ord 3", "aten::linalg_matrix_norm", []any{f32s(3, 3), ops.IntScalar(3)}, nil, "ord", "linalg.matrix_norm: Order 3 not supported."},
		{"matrix_norm str", "aten::linalg_matrix_norm.str_ord", []any{f32s(3, 3), "abc"}, nil, "ord", "linalg.matrix_norm: Order abc not supported."},
		{"matrix_norm same dims", "aten::linalg_matrix_norm", []any{f32s(3, 3), ops.IntScalar(1), []int64{0, 0}}, nil, "dim", "linalg.matrix_norm: dims must be different. Got (0, 0)"},
		{"linalg_norm 3-d ord", "aten::linalg_norm", []any{f32s(2, 2, 2), ops.IntScalar(2)}, nil, "self", "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got 3D."},
		{"renorm p", "aten::renorm", []any{f32s(2, 2), ops.IntScalar(0), int64(0), ops.FloatScalar(1)}, nil, "p", "renorm: non-positive-norm not supported"},
		{"renorm 1-d", "aten::renorm", []any{f32s(2), ops.IntScalar(2), int64(0), ops.FloatScalar(1)}, nil, "self", "renorm: input needs at least 2 dimensions, got 1 dimensions"},
		{"frobenius 3 dims", "aten::frobenius_norm.dim", []any{f32s(2, 2, 2), []int64{0, 1, 2}}, nil, "dim", "Expected at most 2 dimensions, but got 3 dimensions instead."},
		{"cosine int", "aten::cosine_similarity", []any{intTensor([]int64{1, 2}, 1, 2), intTensor([]int64{1, 2}, 1, 2)}, nil, "x1", "expected common dtype to be floating point, yet common dtype is Long"},
		{"pdist 1-d", "aten::pdist", []any{f32s(3)}, nil, "self", "pdist only supports 2D tensors, got: 1D"},
		{"einsum bad char", "aten::einsum", []any{"i1->i", []*tensor.Tensor{f32s(2)}}, nil, "equation", "einsum(): invalid subscript given at index 1 in the equation string, subscripts must be in [a-zA-Z]"},
		{"einsum too few", "aten::einsum", []any{"ij,jk->ik", []*tensor.Tensor{f32s(2, 2)}}, nil, "equation", "einsum(): fewer operands were provided than specified in the equation"},
		{"einsum dims", "aten::einsum", []any{"ijk->i", []*tensor.Tensor{f32s(2, 2)}}, nil, "tensors", "einsum(): the number of subscripts in the equation (3) does not match the number of dimensions (2) for operand 0 and no ellipsis was given"},
		{"einsum out twice", "aten::einsum", []any{"ij->ii", []*tensor.Tensor{f32s(2, 2)}}, nil, "equation", "einsum(): output subscript i appears more than once in the output"},
		{"einsum out unknown", "aten::einsum", []any{"ij->k", []*tensor.Tensor{f32s(2, 2)}}, nil, "equation", "einsum(): output subscript k does not appear in the equation for any input operand"},
		{"einsum size", "aten::einsum", []any{"ij,jk->ik", []*tensor.Tensor{f32s(2, 3), f32s(4, 2)}}, nil, "tensors", "einsum(): subscript j has size 4 for operand 1 which does not broadcast with previously seen size 3"},
		{"tensordot dtype", "aten::tensordot", []any{f32s(2, 2), f64s(2, 2), []int64{1}, []int64{0}}, nil, "other", "both inputs should have same dtype"},
		{"tensordot size", "aten::tensordot", []any{f32s(2, 3), f32s(2, 2), []int64{1}, []int64{0}}, nil, "other", "contracted dimensions need to match, but first has size 3 in dim 1 and second has size 2 in dim 0"},
		{"inner last", "aten::inner", []any{f32s(2, 3), f32s(2, 2)}, nil, "other", "inner() the last dimension must match on both input tensors but got shapes [2, 3] and [2, 2]"},
		{"cross len", "aten::linalg_cross", []any{f32s(2, 2), f32s(2, 2)}, nil, "other", "linalg.cross: inputs dimension -1 must have length 3. Got 2 and 2"},
		{"cross dims", "aten::linalg_cross", []any{f32s(3), f32s(2, 3)}, nil, "other", "linalg.cross: inputs must have the same number of dimensions."},
		{"multi_dot one", "aten::linalg_multi_dot", []any{[]*tensor.Tensor{f32s(2, 2)}}, nil, "tensors", "multi_dot(): expected at least 2 tensors but got 1"},
		{"multi_dot shapes", "aten::linalg_multi_dot", []any{[]*tensor.Tensor{f32s(2, 3), f32s(2, 2)}}, nil, "tensors", "multi_dot(): tensors 0 and 1 with shapes [2, 3] and [2, 2] cannot be multiplied"},
		{"multi_dot 3-d", "aten::linalg_multi_dot", []any{[]*tensor.Tensor{f32s(2, 2), f32s(2, 2, 2), f32s(2, 2)}}, nil, "tensors", "multi_dot(): tensor 1 must be 2D but got 3D"},
		{"matrix_power nonsquare", "aten::linalg_matrix_power", []any{f32s(2, 3), int64(2)}, nil, "self", "linalg.matrix_power: A must be batches of square matrices, but they are 2 by 3 matrices"},
		{"inv singular", "aten::linalg_inv", []any{f32s(2, 2)}, nil, "A", "linalg.inv: The diagonal element 1 is zero, the inversion could not be completed because the input matrix is singular."},
		{"det int", "aten::linalg_det", []any{intTensor([]int64{1, 0, 0, 1}, 2, 2)}, nil, "A", "linalg.det: Expected a floating point or complex tensor as input. Got Long"},
		{"det nonsquare", "aten::linalg_det", []any{f32s(2, 3)}, nil, "A", "linalg.det: A must be batches of square matrices, but they are 2 by 3 matrices"},
		{"bce range", "aten::binary_cross_entropy", []any{vals(1.5), vals(1)}, nil, "self", "all elements of input should be between 0 and 1"},
		{"kl int", "aten::kl_div", []any{i64(1), i64(1)}, nil, "self", "kl_div: Integral inputs not supported."},
		{"multi_margin p", "aten::multi_margin_loss", []any{f32s(2, 3), i64(0, 1), ops.IntScalar(3)}, nil, "p", "only p == 1 and p == 2 supported"},
		{"multi_margin target", "aten::multi_margin_loss", []any{f32s(2, 3), i64(0, 5)}, nil, "target", "target out of range"},
		{"cosine_embedding dims", "aten::cosine_embedding_loss", []any{f32s(2, 3), f32s(2, 3), f32s(2, 2)}, nil, "target", "0D or 1D target tensor expected, multi-target not supported"},
		{"triplet dims", "aten::triplet_margin_loss", []any{f32s(2, 3), f32s(3), f32s(2, 3)}, nil, "anchor", "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: anchor 2D, positive 1D, and negative 2D inputs"},
		{"polygamma neg", "aten::polygamma", []any{int64(-1), f32s(2)}, nil, "n", "polygamma(n, x) does not support negative n."},
		{"mvlgamma p", "aten::mvlgamma", []any{f32s(2), int64(0)}, nil, "p", "p has to be greater than or equal to 1"},
		{"logaddexp int", "aten::logaddexp", []any{i64(1), i64(2)}, nil, "self", `"logaddexp_cpu" not implemented for 'Long'`},
		{"gcd float", "aten::gcd", []any{f32s(2), f32s(2)}, nil, "self", `"gcd_cpu" not implemented for 'Float'`},
		{"shift float", "aten::bitwise_left_shift.Tensor", []any{f32s(2), f32s(2)}, nil, "self", `"lshift_cpu" not implemented for 'Float'`},
		{"heaviside dtypes", "aten::heaviside", []any{f32s(2), f64s(2)}, nil, "values", "heaviside is not yet implemented for tensors with different dtypes."},
		{"isclose dtypes", "aten::isclose", []any{f32s(2), f64s(2)}, nil, "other", "Float did not match Double"},
		{"isclose rtol", "aten::isclose", []any{f32s(2), f32s(2), -1.0}, nil, "rtol", "rtol must be greater than or equal to zero, but got -1"},
		{"frexp int", "aten::frexp.Tensor", []any{i64(1)}, nil, "self", "torch.frexp() only supports floating-point dtypes"},
		{"nanmean int", "aten::nanmean", []any{i64(1)}, nil, "self", "nanmean(): expected input to have floating point or complex dtype but got Long"},
		{"log_sigmoid int", "aten::log_sigmoid", []any{i64(1)}, nil, "self", `"log_sigmoid_cpu" not implemented for 'Long'`},
		{"cholesky not positive-definite", "aten::linalg_cholesky", []any{tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{1, 2, 2, 1}, 2, 2))}, nil, "self", "linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the leading minor of order 2 is not positive-definite)."},
		{"solve shapes", "aten::linalg_solve", []any{f32s(3, 3), f32s(2, 2)}, nil, "B", "linalg.solve: Incompatible shapes of A and B for the equation AX = B (3x3 and 2x2)"},
		{"solve singular", "aten::linalg_solve", []any{f32s(2, 2), f32s(2)}, nil, "A", "torch.linalg.solve: The solver failed because the input matrix is singular."},
		{"bilinear weight", "aten::bilinear", []any{f32s(2, 3), f32s(2, 4), f32s(5, 2, 4)}, nil, "weight", "bilinear(): input1 size does not match weight size: got 3 but expected 2"},
		{"cdist 1-d", "aten::cdist", []any{f32s(3), f32s(2, 3)}, nil, "x1", "cdist only supports at least 2D tensors, X1 got: 1D"},
		{"vecdot dtype", "aten::linalg_vecdot", []any{f32s(3), f64s(3)}, nil, "y", "linalg.vecdot: Expected x and y to have the same dtype, but found x of type Float and y of type Double instead"},
		{"nextafter int", "aten::nextafter", []any{i64(1), i64(2)}, nil, "self", `"nextafter_cpu" not implemented for 'Long'`},
	})
}

// allclose and equal return Python bools, which the conformance vectors
// cannot hold beside meta tensors; the expected values are PyTorch 2.6's.
func TestAllcloseEqual(t *testing.T) {
	nan := math.NaN()
	f := func(v ...float64) *tensor.Tensor { return tensor.Must(tensor.FromFloat64s(tensor.Float32, v, len(v))) }
	cases := []struct {
		name   string
		op     string
		args   []any
		kwargs map[string]any
		want   bool
	}{
		{"allclose tiny difference", "aten::allclose", []any{f(1, 2), f(1, 2+1e-9)}, nil, true},
		{"allclose nan", "aten::allclose", []any{f(1, nan), f(1, nan)}, nil, false},
		{"allclose equal_nan", "aten::allclose", []any{f(1, nan), f(1, nan)}, map[string]any{"equal_nan": true}, true},
		{"allclose far", "aten::allclose", []any{f(1, 2), f(1, 2.1)}, nil, false},
		{"equal ints", "aten::equal", []any{intTensor([]int64{1, 2}), intTensor([]int64{1, 2})}, nil, true},
		{"equal shapes differ", "aten::equal", []any{intTensor([]int64{1, 2}), intTensor([]int64{1, 2}, 1, 2)}, nil, false},
		{"equal nan", "aten::equal", []any{f(1, nan), f(1, nan)}, nil, false},
		{"equal values differ", "aten::equal", []any{f(1, 3), f(1, 2)}, nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := optest.Call(t, tc.op, tc.args, tc.kwargs)
			require.NoError(t, err)
			assert.Equal(t, tc.want, out[0])
		})
	}
}

// The kernels of these families read strided inputs as the logical
// tensors they are: a transposed (non-contiguous) input gives exactly what
// its contiguous copy gives. (The determinants are left out: like ATen,
// they factor a contiguous matrix through its transpose, so their last
// bits depend on the layout.)
func TestMath14bNonContiguous(t *testing.T) {
	m := func(seed float64, r, c int) *tensor.Tensor {
		v := make([]float64, r*c)
		for i := range v {
			v[i] = math.Sin(seed*float64(i+1)) * 3
		}
		x := tensor.Must(tensor.FromFloat64s(tensor.Float64, v, r, c))
		return tensor.Must(x.Transpose(0, 1))
	}
	cases := []struct {
		op   string
		args func(x, y *tensor.Tensor) []any
	}{
		{"aten::linalg_vector_norm", func(x, _ *tensor.Tensor) []any { return []any{x, ops.IntScalar(3), []int64{1}} }},
		{"aten::linalg_matrix_norm", func(x, _ *tensor.Tensor) []any { return []any{x, ops.IntScalar(1)} }},
		{"aten::einsum", func(x, y *tensor.Tensor) []any { return []any{"ij,jk->ik", []*tensor.Tensor{x, y}} }},
		{"aten::digamma", func(x, _ *tensor.Tensor) []any { return []any{x} }},
		{"aten::logaddexp", func(x, y *tensor.Tensor) []any { return []any{x, y} }},
		{"aten::linalg_cross", func(x, y *tensor.Tensor) []any { return []any{x, y} }},
		{"aten::cosine_similarity", func(x, y *tensor.Tensor) []any { return []any{x, y} }},
	}
	x, y := m(0.7, 3, 3), m(1.3, 3, 3)
	require.False(t, x.IsContiguous())
	for _, tc := range cases {
		t.Run(tc.op, func(t *testing.T) {
			got, err := optest.Call(t, tc.op, tc.args(x, y), nil)
			require.NoError(t, err)
			want, err := optest.Call(t, tc.op, tc.args(x.Contiguous(), y.Contiguous()), nil)
			require.NoError(t, err)
			assert.Equal(t, want[0].(*tensor.Tensor).Float64s(), got[0].(*tensor.Tensor).Float64s())
		})
	}
}
