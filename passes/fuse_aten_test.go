package passes_test

import (
	"strings"
	"testing"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// batchNormOps counts the call_function nodes of batch-norm operators.
func batchNormOps(g *graph.Graph) int {
	k := 0
	for n := range g.Nodes() {
		if n.Op() == node.CallFunction && strings.Contains(n.Function().String(), "batch_norm") {
			k++
		}
	}
	return k
}

// exported exports a zoo model with PyTorch's weights and its example
// inputs.
func exported(t *testing.T, name string) (nn.Module, *torchio.StateDict, *models.IO, *export.ExportedProgram) {
	t.Helper()
	m, sd, io := loadModel(t, name)
	spec, err := models.Lookup(name)
	require.NoError(t, err)
	ep, err := models.Export(spec, m, io.Cases[0].Inputs)
	require.NoError(t, err)
	return m, sd, io, ep
}

func argsOf(vs []nn.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v.MustTensor()
	}
	return out
}

// TestFoldConvBN folds the batch norms of exported zoo models at the
// core-ATen level, on ep.Module(): no batch-norm operator is left, and the
// outputs match the eager model's (PyTorch's recorded outputs) and the
// program's before folding.
func TestFoldConvBN(t *testing.T) {
	for _, tc := range []struct {
		name   string
		folds  int
		noBias int // convolutions without bias, which get a new get_attr node
	}{{"convnet", 2, 0}, {"resnet18", 20, 20}} {
		t.Run(tc.name, func(t *testing.T) {
			m, sd, io, ep := exported(t, tc.name)
			require.Equal(t, tc.folds, batchNormOps(ep.Graph))
			gm, err := ep.Module()
			require.NoError(t, err)
			before := gm.Graph.Len()
			changed, err := passes.FoldConvBN.Apply(gm)
			require.NoError(t, err)
			require.True(t, changed)
			require.NoError(t, gm.Lint())
			assert.Zero(t, batchNormOps(gm.Graph), "batch-norm operators left:\n%s", gm.Code())
			// Each fold erases the batch norm, its getitem and the get_attr
			// nodes of gamma, beta, mean, var and num_batches_tracked.
			assert.Equal(t, before-7*tc.folds+tc.noBias, gm.Graph.Len())
			for name := range nn.NamedParameters(gm) {
				assert.NotContains(t, name, "bn", "parameter %s left", name)
			}
			for name := range nn.NamedBuffers(gm) {
				t.Errorf("buffer %s left", name)
			}
			worst, worstEP := 0.0, 0.0
			for _, c := range io.Cases {
				out, err := gm.Run(c.Inputs...)
				require.NoError(t, err)
				worst = max(worst, requireClose(t, out, c.Outputs, 1e-4, "folded vs eager, case "+c.Note))
				ref, err := ep.Run(argsOf(c.Inputs)...)
				require.NoError(t, err)
				worstEP = max(worstEP, requireClose(t, out, models.Flatten(ref), 1e-4, "folded vs ep.Run, case "+c.Note))
			}
			t.Logf("max |folded - eager| %g, |folded - ep.Run| %g over %d cases", worst, worstEP, len(io.Cases))
			requireUnchanged(t, m, sd)
			// The program's state is the model's, untouched.
			for name, x := range ep.StateDict() {
				want, ok := sd.Get(name)
				require.True(t, ok, name)
				assert.True(t, tensor.Equal(want, x), "program state %s changed", name)
			}
		})
	}
}

// TestFoldConvBNProgram folds at the level of the exported program: the
// folded weights are PARAMETER inputs of the signature, the batch norms'
// state is gone, and Run gives the same outputs.
func TestFoldConvBNProgram(t *testing.T) {
	for _, name := range []string{"convnet", "resnet18"} {
		t.Run(name, func(t *testing.T) {
			m, sd, io, ep := exported(t, name)
			text := ep.String()
			out, changed, err := passes.FoldConvBNProgram(ep)
			require.NoError(t, err)
			require.True(t, changed)
			assert.Zero(t, batchNormOps(out.Graph))
			assert.Equal(t, text, ep.String(), "ep changed")
			state := out.StateDict()
			for _, in := range out.Signature.Inputs {
				switch in.Kind {
				case export.Parameter, export.Buffer:
					assert.NotContains(t, in.Target, "bn", "state %s left", in.Target)
					_, ok := state[in.Target]
					assert.True(t, ok, "no state for %s", in.Target)
				}
			}
			assert.Contains(t, out.String(), "p_conv1_weight: PARAMETER target='conv1.weight'")
			for _, c := range io.Cases {
				res, err := out.Run(argsOf(c.Inputs)...)
				require.NoError(t, err)
				requireClose(t, res, c.Outputs, 1e-4, "folded program vs eager, case "+c.Note)
			}
			requireUnchanged(t, m, sd)
			again, changed, err := passes.FoldConvBNProgram(out)
			require.NoError(t, err)
			assert.False(t, changed)
			assert.Same(t, out, again)
		})
	}
}
