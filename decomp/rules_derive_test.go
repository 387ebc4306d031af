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

// TestDeriveRules runs the rules of rules_derive.go on the cases PyTorch
// recorded for their operators (../kernels/testdata/extra, gen_14b.py):
// eagerly, and traced into a one-node graph that must then hold core ATen
// only and compute PyTorch's outputs with the interpreter.
func TestDeriveRules(t *testing.T) {
	core := Core()
	for _, name := range []string{
		"aten.logaddexp.default", "aten.logaddexp2.default", "aten.addr.default", "aten.diag_embed.default",
		"aten.binary_cross_entropy.default", "aten.linalg_vector_norm.default", "aten.norm.Scalar",
		"aten.norm.ScalarOpt_dim", "aten.norm.ScalarOpt_dim_dtype", "aten.norm.ScalarOpt_dtype",
		"aten.addmv.default", "aten.mse_loss.default", "aten.l1_loss.default", "aten.huber_loss.default",
		"aten.smooth_l1_loss.default", "aten.hinge_embedding_loss.default", "aten.kl_div.default",
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

// TestDeriveRuleErrors checks that the rules refuse bad input with
// PyTorch's messages.
func TestDeriveRuleErrors(t *testing.T) {
	core := Core()
	x := tensor.Empty(tensor.Float32, 2, 3)
	for _, tc := range []struct {
		op   string
		args []any
		msg  string
	}{
		{"aten::diag_embed", []any{x, 0, 1, 1}, "diagonal dimensions cannot be identical 1, 1"},
		{"aten::addr", []any{x, x, tensor.Empty(tensor.Float32, 3)}, "addr: Expected 1-D argument vec1 and vec2, but got 2-D and 1-D"},
	} {
		_, ok, err := Call(core, nn.Op(tc.op), tc.args, nil)
		require.True(t, ok, tc.op)
		require.Error(t, err, tc.op)
		require.True(t, strings.Contains(err.Error(), tc.msg), "%s: %v", tc.op, err)
	}
}
