package decomp

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/ops"
)

// TestMathRules runs the rules of rules_math.go on the PyTorch 2.6
// vectors of their operators (../kernels/testdata/extra, made by
// gen_14b.py): eagerly, and as a decomposed one-node graph that must be
// core ATen and compute the same values.
func TestMathRules(t *testing.T) {
	cases, err := conformance.ReadDir(filepath.Join("..", "kernels", "testdata", "extra"))
	require.NoError(t, err)
	mine := map[*ops.Operator]bool{opDeg2rad: true, opRad2deg: true, opIsposinf: true, opIsneginf: true,
		opSinc: true, opSoftMarginLoss: true, opNansum: true}
	core := Core()
	seen := map[*ops.Operator]int{}
	for _, c := range cases {
		op, ok := ops.Global().Lookup(c.Op)
		if !ok || !mine[op] {
			continue
		}
		seen[op]++
		t.Run(c.ID, func(t *testing.T) { checkRuleCase(t, core, op, c) })
	}
	for op := range mine {
		require.NotZero(t, seen[op], "no vectors for %s", op)
	}
}

// checkRuleCase runs the rule of table for op on one PyTorch case: called
// eagerly, and traced into a one-node graph that, decomposed, must hold
// core ATen only and compute PyTorch's outputs with the interpreter.
func checkRuleCase(t *testing.T, table Table, op *ops.Operator, c *conformance.Case) {
	t.Helper()
	args, kw := cloneArgs(c)
	got, ok, err := Call(table, op, args, kw)
	require.True(t, ok)
	require.NoError(t, err, c.Note)
	require.NoError(t, compareOutputs(c, got), c.Note)

	gm, inputs := caseGraph(t, op, c)
	changed, err := Decompose(gm, table)
	require.NoError(t, err, c.Note)
	require.True(t, changed)
	require.NoError(t, Verify(gm.Graph), gm.Graph.String())
	res, err := interp.New(gm.Graph, gm).Run(inputs...)
	require.NoError(t, err, gm.Graph.String())
	got, err = unpack(op, res)
	require.NoError(t, err)
	require.NoError(t, compareOutputs(c, got), "%s\n%s", c.Note, gm.Graph)
}
