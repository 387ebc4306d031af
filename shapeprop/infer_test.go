package shapeprop

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testEnv returns an environment with s0 (hint 4) and s1 (hint 4), both in
// [2, int_oo], and s2 (hint 9) in [2, int_oo].
func testEnv(t testing.TB) (*sym.Env, sym.Expr, sym.Expr, sym.Expr) {
	env := sym.NewEnv()
	var out [3]sym.Expr
	for i, h := range []int64{4, 4, 9} {
		s, err := env.NewSymbol(fmt.Sprintf("s%d", i), h, sym.Range{Lo: 2, Hi: sym.Inf})
		require.NoError(t, err)
		out[i] = s.Expr()
	}
	return env, out[0], out[1], out[2]
}

func f32(dims ...any) *Fake { return NewFake(tensor.Float32, dims...) }
func i64(dims ...any) *Fake { return NewFake(tensor.Int64, dims...) }
func b8(dims ...any) *Fake  { return NewFake(tensor.Bool, dims...) }

// format prints Infer's results: fakes by their spelling, lists in
// brackets, results separated by "; ".
func format(out []any) string {
	parts := make([]string, len(out))
	for i, o := range out {
		switch x := o.(type) {
		case []*Fake:
			s := make([]string, len(x))
			for j, f := range x {
				s[j] = f.String()
			}
			parts[i] = "[" + strings.Join(s, ", ") + "]"
		default:
			parts[i] = fmt.Sprint(o)
		}
	}
	return strings.Join(parts, "; ")
}

func guardStrings(env *sym.Env) []string {
	var out []string
	for _, g := range env.Guards() {
		out = append(out, g.String())
	}
	return out
}

const big = int64(9223372036854775807)

func TestInfer(t *testing.T) {
	type S = sym.Expr
	cases := []struct {
		name   string
		op     string
		args   func(s0, s1, s2 S) []any
		kwargs map[string]any
		want   string
		guards []string // "at test.go:1" is appended
	}{
		// Pointwise: broadcasting.
		{"add static", "aten::add.Tensor", func(s0, s1, s2 S) []any { return []any{f32(2, 3), f32(3)} }, nil, "f32[2, 3]", nil},
		{"add bias", "aten::add.Tensor", func(s0, s1, s2 S) []any { return []any{f32(s0, 16), f32(16)} }, nil, "f32[s0, 16]", nil},
		{"add guard", "aten::add.Tensor", func(s0, s1, s2 S) []any { return []any{f32(s0, 16), f32(s1, 16)} }, nil, "f32[s0, 16]", []string{"Eq(s0, s1)"}},
		{"add one", "aten::add.Tensor", func(s0, s1, s2 S) []any { return []any{f32(1, s1), f32(s0, 1)} }, nil, "f32[s0, s1]", nil},
		{"add real tensor", "aten::add.Tensor", func(s0, s1, s2 S) []any {
			return []any{f32(s0, 3), tensor.Must(tensor.Ones(tensor.Float32, 3))}
		}, map[string]any{"alpha": 2}, "f32[s0, 3]", nil},
		{"mul scalar", "aten::mul.Scalar", func(s0, s1, s2 S) []any { return []any{f32(s0, 3), 2.5} }, nil, "f32[s0, 3]", nil},
		{"div mode", "aten::div.Tensor_mode", func(s0, s1, s2 S) []any { return []any{i64(s0), i64(1)} }, map[string]any{"rounding_mode": "floor"}, "i64[s0]", nil},
		{"eq dtype", "aten::eq.Tensor", func(s0, s1, s2 S) []any { return []any{f32(s0, 3), f32(s0, 3)} }, nil, "b8[s0, 3]", nil},
		{"where", "aten::where.self", func(s0, s1, s2 S) []any { return []any{b8(s0, 1), f32(1, 5), f32(s0, 5)} }, nil, "f32[s0, 5]", nil},
		{"relu", "aten::relu", func(s0, s1, s2 S) []any { return []any{f32(s0, s2)} }, nil, "f32[s0, s2]", nil},
		{"clamp", "aten::clamp", func(s0, s1, s2 S) []any { return []any{f32(s0), 0, 6} }, nil, "f32[s0]", nil},
		{"gelu", "aten::gelu", func(s0, s1, s2 S) []any { return []any{f32(s0, 8)} }, map[string]any{"approximate": "tanh"}, "f32[s0, 8]", nil},
		{"add_ inplace", "aten::add_.Tensor", func(s0, s1, s2 S) []any { return []any{f32(s0, 3), f32(3)} }, nil, "f32[s0, 3]", nil},
		{"copy_", "aten::copy_", func(s0, s1, s2 S) []any { return []any{f32(s0, 3), f32(s1, 1)} }, nil, "f32[s0, 3]", []string{"Eq(s0, s1)"}},
		{"to_copy", "aten::_to_copy", func(s0, s1, s2 S) []any { return []any{f32(s0, 3)} }, map[string]any{"dtype": tensor.Float64}, "f64[s0, 3]", nil},
		{"clone", "aten::clone", func(s0, s1, s2 S) []any { return []any{f32(s0, 3)} }, nil, "f32[s0, 3]", nil},
		{"alias", "aten::alias", func(s0, s1, s2 S) []any { return []any{f32(s0, 3)} }, nil, "f32[s0, 3]", nil},
		// Views.
		{"view infer", "aten::view", func(s0, s1, s2 S) []any { return []any{f32(s0, 16), []any{-1, 4}} }, nil, "f32[4*s0, 4]", nil},
		{"view flat", "aten::view", func(s0, s1, s2 S) []any { return []any{f32(s0, 16), []any{s0.Mul(sym.Const(16))}} }, nil, "f32[16*s0]", nil},
		{"view guard", "aten::view", func(s0, s1, s2 S) []any { return []any{f32(s0, 3), []int64{-1, 2}} }, nil, "f32[((3*s0)//2), 2]", []string{"Eq(Mod(3*s0, 2), 0)"}},
		{"reshape", "aten::reshape", func(s0, s1, s2 S) []any { return []any{f32(s0, 5, 32), []any{s0, 5, 4, 8}} }, nil, "f32[s0, 5, 4, 8]", nil},
		{"unsafe_view", "aten::_unsafe_view", func(s0, s1, s2 S) []any { return []any{f32(s0, 4, 5, 8), []any{s0, 4, -1}} }, nil, "f32[s0, 4, 40]", nil},
		{"flatten", "aten::flatten.using_ints", func(s0, s1, s2 S) []any { return []any{f32(s0, 16, 1, 1), 1} }, nil, "f32[s0, 16]", nil},
		{"flatten all", "aten::flatten.using_ints", func(s0, s1, s2 S) []any { return []any{f32(s0, 3, s2)} }, nil, "f32[3*s0*s2]", nil},
		{"unsqueeze", "aten::unsqueeze", func(s0, s1, s2 S) []any { return []any{f32(s0, 3), -1} }, nil, "f32[s0, 3, 1]", nil},
		{"squeeze", "aten::squeeze", func(s0, s1, s2 S) []any { return []any{f32(s0, 1, 3)} }, nil, "f32[s0, 3]", nil},
		{"squeeze dim kept", "aten::squeeze.dim", func(s0, s1, s2 S) []any { return []any{f32(s0, 1), 0} }, nil, "f32[s0, 1]", nil},
		{"permute", "aten::permute", func(s0, s1, s2 S) []any { return []any{f32(s0, 3, 5), []int64{2, 0, 1}} }, nil, "f32[5, s0, 3]", nil},
		{"transpose", "aten::transpose.int", func(s0, s1, s2 S) []any { return []any{f32(s0, 4, 5, 8), 1, 2} }, nil, "f32[s0, 5, 4, 8]", nil},
		{"t", "aten::t", func(s0, s1, s2 S) []any { return []any{f32(s0, 3)} }, nil, "f32[3, s0]", nil},
		{"expand", "aten::expand", func(s0, s1, s2 S) []any { return []any{f32(1, 3), []any{s0, 3}} }, nil, "f32[s0, 3]", nil},
		{"expand keep", "aten::expand", func(s0, s1, s2 S) []any { return []any{f32(s0, 1), []any{2, -1, 5}} }, nil, "f32[2, s0, 5]", nil},
		{"select", "aten::select.int", func(s0, s1, s2 S) []any { return []any{f32(s0, 3), 1, 2} }, nil, "f32[s0]", nil},
		{"select sym dim", "aten::select.int", func(s0, s1, s2 S) []any { return []any{f32(s0, 3), 0, 3} }, nil, "f32[3]", []string{"3 < s0"}},
		{"slice", "aten::slice.Tensor", func(s0, s1, s2 S) []any { return []any{f32(s0, 8), 0, 1, big} }, nil, "f32[s0 - 1, 8]", nil},
		{"slice step", "aten::slice.Tensor", func(s0, s1, s2 S) []any { return []any{f32(s0, 8), 1, 0, 4, 2} }, nil, "f32[s0, 2]", nil},
		{"split", "aten::split.Tensor", func(s0, s1, s2 S) []any { return []any{f32(s0, 96), 32, -1} }, nil, "[f32[s0, 32], f32[s0, 32], f32[s0, 32]]", nil},
		{"split sym", "aten::split.Tensor", func(s0, s1, s2 S) []any { return []any{f32(s2, 2), 4} }, nil, "[f32[4, 2], f32[4, 2], f32[s2 - 8, 2]]", []string{"Eq(((s2 + 3)//4), 3)"}},
		{"split_with_sizes", "aten::split_with_sizes", func(s0, s1, s2 S) []any { return []any{f32(s0, 10), []int64{3, 7}, 1} }, nil, "[f32[s0, 3], f32[s0, 7]]", nil},
		{"cat", "aten::cat", func(s0, s1, s2 S) []any { return []any{[]any{f32(s0, 3), f32(s1, 3), f32(0)}} }, nil, "f32[s0 + s1, 3]", nil},
		{"cat dim1", "aten::cat", func(s0, s1, s2 S) []any { return []any{[]*Fake{f32(s0, 3), f32(s1, 5)}, 1} }, nil, "f32[s0, 8]", []string{"Eq(s0, s1)"}},
		// Linear algebra.
		{"mm", "aten::mm", func(s0, s1, s2 S) []any { return []any{f32(s0, 8), f32(8, 5)} }, nil, "f32[s0, 5]", nil},
		{"mm guard", "aten::mm", func(s0, s1, s2 S) []any { return []any{f32(s0, s1), f32(4, 5)} }, nil, "f32[s0, 5]", []string{"Eq(s1, 4)"}},
		{"bmm", "aten::bmm", func(s0, s1, s2 S) []any { return []any{f32(s0, 5, 8), f32(s0, 8, s2)} }, nil, "f32[s0, 5, s2]", nil},
		{"addmm", "aten::addmm", func(s0, s1, s2 S) []any { return []any{f32(5), f32(s0, 8), f32(8, 5)} }, nil, "f32[s0, 5]", nil},
		{"matmul 4d", "aten::matmul", func(s0, s1, s2 S) []any { return []any{f32(s0, 4, 5, 8), f32(s0, 4, 8, 5)} }, nil, "f32[s0, 4, 5, 5]", nil},
		{"matmul bcast", "aten::matmul", func(s0, s1, s2 S) []any { return []any{f32(s0, 5, 8), f32(8)} }, nil, "f32[s0, 5]", nil},
		{"matmul vec", "aten::matmul", func(s0, s1, s2 S) []any { return []any{f32(8), f32(s0, 8, 3)} }, nil, "f32[s0, 3]", nil},
		{"linear", "aten::linear", func(s0, s1, s2 S) []any { return []any{f32(s0, 5, 32), f32(96, 32), f32(96)} }, nil, "f32[s0, 5, 96]", nil},
		// Convolution and pooling.
		{"conv2d same", "aten::conv2d", func(s0, s1, s2 S) []any {
			return []any{f32(s0, 3, s2, s2), f32(8, 3, 3, 3), f32(8), []int64{1, 1}, []int64{1, 1}}
		}, nil, "f32[s0, 8, s2, s2]", nil},
		{"conv2d stride", "aten::conv2d", func(s0, s1, s2 S) []any {
			return []any{f32(s0, 3, s2, 16), f32(8, 3, 3, 3), nil, 2, 1}
		}, nil, "f32[s0, 8, ((s2 - 1)//2) + 1, 8]", nil},
		// PyTorch guards the input's channels against the weight's: a
		// symbolic channel dim is specialized (torch.export fails a Dim
		// declared on it: "c was inferred to be a constant (3)").
		{"conv2d channels", "aten::conv2d", func(s0, s1, s2 S) []any {
			return []any{f32(s0, s1, 8, 8), f32(8, 4, 3, 3)}
		}, nil, "f32[s0, 8, 6, 6]", []string{"Eq(s1, 4)"}},
		{"conv1d", "aten::conv1d", func(s0, s1, s2 S) []any { return []any{f32(s0, 2, s2), f32(4, 2, 3)} }, nil, "f32[s0, 4, s2 - 2]", []string{"s2 >= 3"}},
		{"convolution transposed", "aten::convolution", func(s0, s1, s2 S) []any {
			return []any{f32(s0, 4, s2, 5), f32(4, 2, 3, 3), nil, []int64{2, 2}, []int64{1, 1}, []int64{1, 1}, true, []int64{1, 1}, 1}
		}, nil, "f32[s0, 2, 2*s2, 10]", nil},
		{"max_pool2d_with_indices", "aten::max_pool2d_with_indices", func(s0, s1, s2 S) []any { return []any{f32(s0, 16, 8, 8), []int64{2, 2}} }, nil,
			"f32[s0, 16, 4, 4]; i64[s0, 16, 4, 4]", nil},
		{"max_pool2d sym", "aten::max_pool2d", func(s0, s1, s2 S) []any { return []any{f32(s0, 16, s2, 8), 3} }, nil, "f32[s0, 16, (s2//3), 2]", []string{"(s2//3) >= 1"}},
		{"avg_pool2d one-int kernel", "aten::avg_pool2d", func(s0, s1, s2 S) []any { return []any{f32(s0, 2, s2, s2), []int64{3}} }, nil, "f32[s0, 2, (s2//3), (s2//3)]", []string{"(s2//3) >= 1"}},
		{"max_pool2d ceil", "aten::max_pool2d", func(s0, s1, s2 S) []any { return []any{f32(s0, 2, 5, 5), 2, 2, 0, 1, true} }, nil, "f32[s0, 2, 3, 3]", nil},
		{"avg_pool2d", "aten::avg_pool2d", func(s0, s1, s2 S) []any { return []any{f32(s0, 2, 6, 6), 3, 1, 1} }, nil, "f32[s0, 2, 6, 6]", nil},
		{"adaptive_avg_pool2d", "aten::adaptive_avg_pool2d", func(s0, s1, s2 S) []any { return []any{f32(s0, 16, s2, s2), []int64{1, 1}} }, nil, "f32[s0, 16, 1, 1]", nil},
		{"_adaptive_avg_pool2d", "aten::_adaptive_avg_pool2d", func(s0, s1, s2 S) []any { return []any{f32(s0, 16, s2, 5), []int64{2, 3}} }, nil, "f32[s0, 16, 2, 3]", nil},
		// Reductions.
		{"mean.dim", "aten::mean.dim", func(s0, s1, s2 S) []any { return []any{f32(s0, 3, 5), []int64{-1}, true} }, nil, "f32[s0, 3, 1]", nil},
		{"sum.dim_IntList", "aten::sum.dim_IntList", func(s0, s1, s2 S) []any { return []any{f32(s0, 3, 5), []int64{0, 2}} }, nil, "f32[3]", nil},
		{"sum", "aten::sum", func(s0, s1, s2 S) []any { return []any{i64(s0, 3)} }, nil, "i64[]", nil},
		{"amax", "aten::amax", func(s0, s1, s2 S) []any { return []any{f32(s0, 3), []int64{1}} }, nil, "f32[s0]", nil},
		{"amin", "aten::amin", func(s0, s1, s2 S) []any { return []any{f32(s0, 3)} }, nil, "f32[]", nil},
		{"var.correction", "aten::var.correction", func(s0, s1, s2 S) []any { return []any{f32(s0, 3), []int64{0}} }, map[string]any{"keepdim": true, "correction": 1}, "f32[1, 3]", nil},
		// Normalization and softmax.
		{"native_batch_norm eval", "aten::native_batch_norm", func(s0, s1, s2 S) []any {
			return []any{f32(s0, 8, 4, 4), f32(8), f32(8), f32(8), f32(8), false, 0.1, 1e-5}
		}, nil, "f32[s0, 8, 4, 4]; f32[0]; f32[0]", nil},
		{"native_batch_norm train", "aten::native_batch_norm", func(s0, s1, s2 S) []any {
			return []any{f32(s0, 8, 4, 4), nil, nil, nil, nil, true, 0.1, 1e-5}
		}, nil, "f32[s0, 8, 4, 4]; f32[8]; f32[8]", nil},
		{"_native_batch_norm_legit_no_training", "aten::_native_batch_norm_legit_no_training", func(s0, s1, s2 S) []any {
			return []any{f32(s0, 8, 4, 4), f32(8), f32(8), f32(8), f32(8), 0.1, 1e-5}
		}, nil, "f32[s0, 8, 4, 4]; f32[0]; f32[0]", nil},
		{"batch_norm", "aten::batch_norm", func(s0, s1, s2 S) []any {
			return []any{f32(s0, 8, s2), f32(8), f32(8), f32(8), f32(8), false, 0.1, 1e-5, false}
		}, nil, "f32[s0, 8, s2]", nil},
		{"native_layer_norm", "aten::native_layer_norm", func(s0, s1, s2 S) []any {
			return []any{f32(s0, 5, 32), []int64{32}, f32(32), f32(32), 1e-5}
		}, nil, "f32[s0, 5, 32]; f32[s0, 5, 1]; f32[s0, 5, 1]", nil},
		{"layer_norm", "aten::layer_norm", func(s0, s1, s2 S) []any { return []any{f32(s0, 5, 32), []int64{5, 32}} }, nil, "f32[s0, 5, 32]", nil},
		{"native_group_norm", "aten::native_group_norm", func(s0, s1, s2 S) []any {
			return []any{f32(s0, 6, 4), nil, nil, s0, 6, 4, 2, 1e-5}
		}, nil, "f32[s0, 6, 4]; f32[s0, 2]; f32[s0, 2]", nil},
		{"group_norm", "aten::group_norm", func(s0, s1, s2 S) []any { return []any{f32(s0, 6, s2), 3} }, nil, "f32[s0, 6, s2]", nil},
		{"_softmax", "aten::_softmax", func(s0, s1, s2 S) []any { return []any{f32(s0, 5), -1, false} }, nil, "f32[s0, 5]", nil},
		{"log_softmax.int", "aten::log_softmax.int", func(s0, s1, s2 S) []any { return []any{f32(s0, 5), 0} }, nil, "f32[s0, 5]", nil},
		// Indexing, creation and the rest.
		{"embedding", "aten::embedding", func(s0, s1, s2 S) []any { return []any{f32(10, 4), i64(s0, 3)} }, nil, "f32[s0, 3, 4]", nil},
		{"topk", "aten::topk", func(s0, s1, s2 S) []any { return []any{f32(s0, 10), 3} }, nil, "f32[s0, 3]; i64[s0, 3]", nil},
		{"topk guard", "aten::topk", func(s0, s1, s2 S) []any { return []any{f32(s2), 3} }, nil, "f32[3]; i64[3]", []string{"3 <= s2"}},
		{"dropout", "aten::dropout", func(s0, s1, s2 S) []any { return []any{f32(s0, 3), 0.5, false} }, nil, "f32[s0, 3]", nil},
		{"native_dropout", "aten::native_dropout", func(s0, s1, s2 S) []any { return []any{f32(s0, 3), 0.5, true} }, nil, "f32[s0, 3]; b8[s0, 3]", nil},
		{"sym_size", "aten::sym_size.int", func(s0, s1, s2 S) []any { return []any{f32(s0, 3), 0} }, nil, "s0", nil},
		{"sym_numel", "aten::sym_numel", func(s0, s1, s2 S) []any { return []any{f32(s0, 3)} }, nil, "3*s0", nil},
		{"full", "aten::full", func(s0, s1, s2 S) []any { return []any{[]any{s0, 2}, 1.5} }, nil, "f32[s0, 2]", nil},
		{"zeros_like", "aten::zeros_like", func(s0, s1, s2 S) []any { return []any{i64(s0)} }, nil, "i64[s0]", nil},
		{"ones_like", "aten::ones_like", func(s0, s1, s2 S) []any { return []any{f32(s0)} }, map[string]any{"dtype": tensor.Bool}, "b8[s0]", nil},
		{"full_like", "aten::full_like", func(s0, s1, s2 S) []any { return []any{f32(s0, 2), 7} }, nil, "f32[s0, 2]", nil},
		{"scalar_tensor", "aten::scalar_tensor", func(s0, s1, s2 S) []any { return []any{3.0} }, nil, "f32[]", nil},
		{"arange static", "aten::arange.start_step", func(s0, s1, s2 S) []any { return []any{0, 10, 3} }, nil, "i64[4]", nil},
		{"arange sym", "aten::arange.start_step", func(s0, s1, s2 S) []any { return []any{1, s0, 1} }, nil, "i64[s0 - 1]", nil},
		{"constant_pad_nd", "aten::constant_pad_nd", func(s0, s1, s2 S) []any { return []any{f32(s0, 3), []int64{1, 1, 0, 2}} }, nil, "f32[s0 + 2, 5]", nil},
		{"index_select", "aten::index_select", func(s0, s1, s2 S) []any { return []any{f32(s0, 5), 1, i64(3)} }, nil, "f32[s0, 3]", nil},
		{"gather", "aten::gather", func(s0, s1, s2 S) []any { return []any{f32(s0, 5), 1, i64(s0, 2)} }, nil, "f32[s0, 2]", nil},
		{"nonzero", "aten::nonzero", func(s0, s1, s2 S) []any { return []any{f32(s0, 3)} }, nil, "i64[u0, 2]", nil},
		{"upsample scale", "aten::upsample_nearest2d.vec", func(s0, s1, s2 S) []any { return []any{f32(s0, 3, s2, 5), nil, []float64{2, 3}} }, nil, "f32[s0, 3, 2*s2, 15]", nil},
		{"upsample size", "aten::upsample_nearest2d.vec", func(s0, s1, s2 S) []any { return []any{f32(s0, 3, s2, 5), []any{s2, 7}, nil} }, nil, "f32[s0, 3, s2, 7]", nil},
		{"upsample fractional", "aten::upsample_nearest2d.vec", func(s0, s1, s2 S) []any { return []any{f32(s0, 3, s2, 5), nil, []float64{1.5, 1.5}} }, nil, "f32[s0, 3, 13, 7]", []string{"Eq(s2, 9)"}},
		{"repeat", "aten::repeat", func(s0, s1, s2 S) []any { return []any{f32(s0, 3), []int64{2, 1, 2}} }, nil, "f32[2, s0, 6]", nil},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, s0, s1, s2 := testEnv(t)
			op, ok := ops.Global().Lookup(c.op)
			require.True(t, ok, c.op)
			out, err := Infer(env, op, c.args(s0, s1, s2), c.kwargs, "test.go:1")
			require.NoError(t, err)
			assert.Equal(t, c.want, format(out))
			var want []string
			for _, g := range c.guards {
				want = append(want, g+" (at test.go:1)")
			}
			assert.Equal(t, want, guardStrings(env))
		})
		seen[c.op] = true
	}
	// Every rule the brief's list names is exercised above.
	for _, name := range strings.Fields("add.Tensor add.Scalar sub.Tensor mul.Tensor div.Tensor where.self clamp relu gelu hardtanh " +
		"leaky_relu sigmoid tanh exp erf rsqrt sqrt reciprocal neg _to_copy clone alias copy_ view _unsafe_view _reshape_alias reshape " +
		"flatten.using_ints unsqueeze squeeze squeeze.dim permute transpose.int t expand select.int slice.Tensor split.Tensor " +
		"split_with_sizes cat mm addmm bmm matmul linear convolution conv2d conv1d max_pool2d_with_indices max_pool2d avg_pool2d " +
		"adaptive_avg_pool2d _adaptive_avg_pool2d mean.dim sum.dim_IntList sum amax amin var.correction native_batch_norm " +
		"_native_batch_norm_legit_no_training _native_batch_norm_legit batch_norm native_layer_norm layer_norm native_group_norm " +
		"group_norm _softmax _log_softmax softmax.int log_softmax.int embedding topk dropout native_dropout sym_size.int full " +
		"zeros_like ones_like full_like scalar_tensor arange.start_step constant_pad_nd index_select gather nonzero") {
		assert.True(t, HasRule("aten::"+name), "no rule for aten::%s", name)
	}
}

// TestContiguity checks which results are contiguous: every new tensor,
// views that keep the layout, not transposes, expands and narrowing.
func TestContiguity(t *testing.T) {
	env, s0, _, _ := testEnv(t)
	nc := &Fake{DType: tensor.Float32, Shape: []sym.Expr{s0, sym.Const(3)}}
	cases := []struct {
		op   string
		args []any
		want bool
	}{
		{"aten::add.Tensor", []any{f32(s0, 3), f32(3)}, true},
		{"aten::relu", []any{nc}, true},
		{"aten::transpose.int", []any{f32(s0, 3), 0, 1}, false},
		{"aten::t", []any{f32(s0, 3)}, false},
		{"aten::permute", []any{f32(s0, 3), []int64{0, 1}}, true},
		{"aten::expand", []any{f32(1, 3), []any{s0, 3}}, false},
		{"aten::expand", []any{f32(s0, 3), []any{-1, 3}}, true},
		{"aten::slice.Tensor", []any{f32(s0, 8), 1, 0, 4}, false},
		{"aten::slice.Tensor", []any{f32(s0, 8), 0, 1, 3}, true},
		{"aten::select.int", []any{f32(s0, 8), 1, 0}, false},
		{"aten::view", []any{f32(s0, 8), []int64{-1}}, true},
		{"aten::view", []any{nc, []int64{-1}}, false},
		{"aten::reshape", []any{nc, []int64{-1}}, true},
		{"aten::alias", []any{nc}, false},
		{"aten::clone", []any{nc}, true},
		{"aten::unsqueeze", []any{nc, 0}, false},
		{"aten::split.Tensor", []any{f32(s0, 4), 2, 1}, false},
	}
	for _, c := range cases {
		op, _ := ops.Global().Lookup(c.op)
		out, err := Infer(env, op, c.args, nil, "")
		require.NoError(t, err, c.op)
		var got bool
		switch x := out[0].(type) {
		case *Fake:
			got = x.Contiguous
		case []*Fake:
			got = x[0].Contiguous
		}
		assert.Equal(t, c.want, got, "%s%v", c.op, c.args)
	}
}

// TestInferStaticMatchesMeta: with static shapes Infer gives the meta
// function's shapes exactly (checked for many ops by TestConformanceShapes
// too).
func TestInferStaticMatchesMeta(t *testing.T) {
	env := sym.NewEnv()
	op, _ := ops.Global().Lookup("aten::convolution")
	x := tensor.Must(tensor.NewMeta(tensor.Float32, 2, 3, 17, 11))
	w := tensor.Must(tensor.NewMeta(tensor.Float32, 6, 3, 3, 2))
	args := []any{x, w, nil, []int64{2, 1}, []int64{1, 0}, []int64{2, 1}, false, []int64{0, 0}, 1}
	want, err := op.Call(args, nil)
	require.NoError(t, err)
	got, err := Infer(env, op, args, nil, "")
	require.NoError(t, err)
	sh, ok := got[0].(*Fake).Static()
	require.True(t, ok)
	assert.Equal(t, want[0].(*tensor.Tensor).Shape(), sh)
}

var defineOnce sync.Once

// testOps defines custom operators for the tests: shapeprop_test::twice
// (meta: same shape, no rule) and shapeprop_test::nometa (no meta).
func testOps(t *testing.T) (twice, nometa, badrule *ops.Operator) {
	defineOnce.Do(func() {
		same := func(c *ops.Call) ([]any, error) {
			x := c.Tensor("x")
			return []any{tensor.Must(tensor.NewMeta(x.DType(), x.Shape()...))}, nil
		}
		_, err := ops.Define("shapeprop_test::twice(Tensor x) -> Tensor", nil, same, 0)
		require.NoError(t, err)
		_, err = ops.Define("shapeprop_test::nometa(Tensor x) -> Tensor", same, nil, 0)
		require.NoError(t, err)
		_, err = ops.Define("shapeprop_test::badrule(Tensor x) -> Tensor", nil, same, 0)
		require.NoError(t, err)
		RegisterRule("shapeprop_test::badrule", func(c *RuleCall) ([]any, error) {
			sh := append([]sym.Expr{sym.Const(2)}, c.Fake(0).Shape[1:]...)
			return []any{&Fake{Shape: sh, Contiguous: true}}, nil
		})
	})
	twice, _ = ops.Global().Lookup("shapeprop_test::twice")
	nometa, _ = ops.Global().Lookup("shapeprop_test::nometa")
	badrule, _ = ops.Global().Lookup("shapeprop_test::badrule")
	return
}

// TestSpecialize: an operator without a rule specializes every symbolic
// size of its arguments to its hint, each a guard naming the operator and
// the location.
func TestSpecialize(t *testing.T) {
	twice, _, _ := testOps(t)
	env, s0, _, s2 := testEnv(t)
	out, err := Infer(env, twice, []any{f32(s0, s2, 3)}, nil, "model.go:12")
	require.NoError(t, err)
	assert.Equal(t, "f32[4, 9, 3]", format(out))
	assert.Equal(t, []string{
		"Eq(s0, 4) (at specialized by shapeprop_test::twice at model.go:12)",
		"Eq(s2, 9) (at specialized by shapeprop_test::twice at model.go:12)",
	}, guardStrings(env))
	// A static call records nothing.
	env2, _, _, _ := testEnv(t)
	_, err = Infer(env2, twice, []any{f32(2, 3)}, nil, "")
	require.NoError(t, err)
	assert.Empty(t, env2.Guards())
}

func TestInferErrors(t *testing.T) {
	_, nometa, badrule := testOps(t)
	mm, _ := ops.Global().Lookup("aten::mm")
	view, _ := ops.Global().Lookup("aten::view")
	add, _ := ops.Global().Lookup("aten::add.Tensor")
	meta := func(dims ...int) *tensor.Tensor { return tensor.Must(tensor.NewMeta(tensor.Float32, dims...)) }
	kernelErr := func(op *ops.Operator, args ...any) string {
		_, err := op.Call(args, nil)
		require.Error(t, err)
		return err.Error()
	}
	cases := []struct {
		name string
		op   *ops.Operator
		args func(s0, s1, s2 sym.Expr) []any
		want string // the error, or a part of it
	}{
		{"mm static: the kernel's error", mm, func(s0, s1, s2 sym.Expr) []any { return []any{f32(2, 3), f32(4, 5)} },
			kernelErr(mm, meta(2, 3), meta(4, 5))},
		{"mm at the hints: the kernel's error", mm, func(s0, s1, s2 sym.Expr) []any { return []any{f32(s0, s2), f32(4, 5)} },
			kernelErr(mm, meta(4, 9), meta(4, 5))},
		{"view: the kernel's error", view, func(s0, s1, s2 sym.Expr) []any { return []any{f32(s0, 3), []int64{5, -1}} },
			kernelErr(view, meta(4, 3), []int64{5, -1})},
		{"broadcast at the hints", add, func(s0, s1, s2 sym.Expr) []any { return []any{f32(s0), f32(s2)} },
			kernelErr(add, meta(4), meta(9))},
		{"no meta function", nometa, func(s0, s1, s2 sym.Expr) []any { return []any{f32(s0)} }, "no meta function registered"},
		{"rule inconsistent with meta", badrule, func(s0, s1, s2 sym.Expr) []any { return []any{f32(s0, 3)} },
			"shapeprop_test::badrule: shape rule inconsistent with the meta function: result 0: shape [2, 3] is [2 3] at the hints, the meta function gives [4 3]"},
		{"missing argument", mm, func(s0, s1, s2 sym.Expr) []any { return []any{f32(s0, 3)} }, "aten::mm: argument 'mat2': missing required argument"},
		{"wrong type", mm, func(s0, s1, s2 sym.Expr) []any { return []any{f32(s0, 3), "x"} }, "aten::mm: argument 'mat2': expected Tensor, got str"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, s0, s1, s2 := testEnv(t)
			_, err := Infer(env, c.op, c.args(s0, s1, s2), nil, "")
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	env, _, _, _ := testEnv(t)
	_, err := Infer(env, nil, nil, nil, "")
	assert.Error(t, err)
	_, err = Infer(nil, mm, nil, nil, "")
	assert.ErrorContains(t, err, "nil sym.Env")
}

// TestFakeMeta checks the conversions of Fake.
func TestFakeMeta(t *testing.T) {
	_, s0, _, _ := testEnv(t)
	f := f32(s0.Mul(sym.Const(2)), 16)
	assert.Equal(t, "f32[2*s0, 16]", f.String())
	assert.Equal(t, "f32[2*s0, 16]", f.Meta().String())
	_, ok := f.Static()
	assert.False(t, ok)
	st, ok := FakeOf(tensor.Must(tensor.New(tensor.Int64, 2, 3))).Static()
	assert.True(t, ok)
	assert.Equal(t, []int{2, 3}, st)
	tr := FakeOf(tensor.Must(tensor.Must(tensor.New(tensor.Float32, 2, 3)).Transpose(0, 1)))
	assert.False(t, tr.Contiguous)
	assert.Equal(t, "f32[3, 2]", tr.String())
}
