package pattern_test

import (
	"fmt"
	"testing"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/internal/chain"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pattern"
	"github.com/gofx/gofx/tensor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func chainPattern(x nn.Value) nn.Value { return x.Add(1.0).Relu() }

func chainReplacement(t testing.TB) func(x nn.Value) nn.Value {
	clampMin := mustOp(t, "aten::clamp_min")
	return func(x nn.Value) nn.Value { return nn.CallOp(clampMin, x.Add(1.0), 0.0) }
}

func TestReplaceChain(t *testing.T) {
	for _, n := range []int{1, 3, 50} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			m := chain.NewModel(n)
			gm, err := fx.SymbolicTrace(m)
			require.NoError(t, err)
			x := testInput(t, 1, 16)
			want, err := gm.Run(nn.Tensor(x))
			require.NoError(t, err)
			ms, err := pattern.Replace(gm, chainPattern, chainReplacement(t))
			require.NoError(t, err)
			assert.Len(t, ms, n)
			require.NoError(t, gm.Lint())
			assert.Empty(t, gm.Graph.FindNodes(node.CallMethod, node.Path("relu")))
			assert.Len(t, gm.Graph.FindNodes(node.CallFunction, mustOp(t, "aten::clamp_min")), n)
			assert.Equal(t, 1+3*n+1, gm.Graph.Len())
			got, err := gm.Run(nn.Tensor(x))
			require.NoError(t, err)
			assert.True(t, tensor.AllClose(want.Tensor(), got.Tensor(), 1e-6, 1e-6, false))
		})
	}
}
