package decomp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// TestRules15r runs the rules of rules_15r.go on the cases PyTorch 2.6
// recorded for their operators (../kernels/testdata/extra): eagerly, and
// traced into a one-node graph that must then hold core ATen only and
// compute PyTorch's outputs with the interpreter.
func TestRules15r(t *testing.T) {
	core := Core()
	for _, name := range []string{
		"aten.logsumexp.default", "aten.special_logsumexp.default",
		"aten.isin.Tensor_Tensor", "aten.isin.Tensor_Scalar", "aten.isin.Scalar_Tensor",
		"aten.kron.default", "aten.tensordot.default", "aten.trapezoid.x", "aten.trapezoid.dx",
		"aten.block_diag.default", "aten.margin_ranking_loss.default", "aten.poisson_nll_loss.default",
		"aten.cosine_embedding_loss.default", "aten.triplet_margin_loss.default", "aten.multi_margin_loss.default",
		"aten.einsum.default",
	} {
		path := filepath.Join("..", "kernels", "testdata", "extra", name+".jsonl")
		if _, err := os.Stat(path); err != nil {
			t.Skipf("no %s", path)
		}
		cases, err := conformance.ReadFile(path)
		require.NoError(t, err)
		require.NotEmpty(t, cases, name)
		for _, c := range cases {
			t.Run(c.ID, func(t *testing.T) { checkRuleCase(t, core, nn.Op(c.Op), c) })
		}
	}
}

// TestRules15rErrors checks that the rules refuse bad input with
// PyTorch's messages.
func TestRules15rErrors(t *testing.T) {
	core := Core()
	f := func(shape ...int) *tensor.Tensor { return tensor.Empty(tensor.Float32, shape...) }
	for _, tc := range []struct {
		op   string
		args []any
		msg  string
	}{
		{"aten::block_diag", []any{[]*tensor.Tensor{f(2), f(2, 2, 2)}}, "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 1 has 3 dimensions"},
		{"aten::tensordot", []any{f(2, 3), f(4, 5), []int64{1}, []int64{0}}, "contracted dimensions need to match, but first has size 3 in dim 1 and second has size 4 in dim 0"},
		{"aten::cosine_embedding_loss", []any{f(4, 5), f(4, 5), f(4, 1)}, "0D or 1D target tensor expected, multi-target not supported"},
		{"aten::trapezoid.x", []any{f(3, 4), f(5)}, "trapezoid: There must be one `x` value for each sample point"},
	} {
		_, ok, err := Call(core, nn.Op(tc.op), tc.args, nil)
		require.True(t, ok, tc.op)
		require.Error(t, err, tc.op)
		require.True(t, strings.Contains(err.Error(), tc.msg), "%s: %v", tc.op, err)
	}
}
