package decomp

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/interp"
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
			t.Run(c.ID, func(t *testing.T) {
				args, kw := cloneArgs(c)
				got, ok, err := Call(core, nn.Op(c.Op), args, kw)
				require.True(t, ok)
				require.NoError(t, err, c.Note)
				require.NoError(t, compareOutputs(c, got), c.Note)

				op := nn.Op(c.Op)
				gm, inputs := caseGraph(t, op, c)
				changed, err := Decompose(gm, core)
				require.NoError(t, err, c.Note)
				require.True(t, changed)
				require.NoError(t, Verify(gm.Graph), gm.Graph.String())
				res, err := interp.New(gm.Graph, gm).Run(inputs...)
				require.NoError(t, err, gm.Graph.String())
				got, err = unpack(op, res)
				require.NoError(t, err)
				require.NoError(t, compareOutputs(c, got), "%s\n%s", c.Note, gm.Graph)
			})
			n++
		}
	}
	require.Greater(t, n, 20)
}
