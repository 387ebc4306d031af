package decomp

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/nn"
)

// TestShapeIndexRules runs the rules of rules_14a.go on the cases PyTorch
// 2.6 recorded for their operators (../kernels/testdata/extra, gen_14a.py):
// eagerly, and traced into a one-node graph that must then hold core ATen
// only and compute PyTorch's outputs with the interpreter.
func TestShapeIndexRules(t *testing.T) {
	core := Core()
	n := 0
	for _, name := range []string{
		"aten.rot90.default", "aten.take.default", "aten.count_nonzero.default",
		"aten.count_nonzero.dim_IntList", "aten.unsafe_split.Tensor", "aten.unsafe_split_with_sizes.default",
	} {
		cases, err := conformance.ReadFile(filepath.Join("..", "kernels", "testdata", "extra", name+".jsonl"))
		require.NoError(t, err)
		for _, c := range cases {
			t.Run(c.ID, func(t *testing.T) { checkRuleCase(t, core, nn.Op(c.Op), c) })
			n++
		}
	}
	require.Greater(t, n, 20)
}
