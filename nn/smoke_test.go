package nn_test

import (
	"testing"

	_ "github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
	"github.com/stretchr/testify/require"
)

func TestSmokeMLP(t *testing.T) {
	m := nn.NewSequential(nn.NewLinear(16, 32, true), nn.NewReLU(), nn.NewLinear(32, 10, true))
	require.NoError(t, nn.Load(m, "../testdata/models/mlp.state_dict.pt", nn.LoadOptions{}))
	io, err := models.ReadIO("../testdata/models/mlp.io.json")
	require.NoError(t, err)
	nn.Eval(m)
	for _, c := range io.Cases {
		out, err := nn.Run(m, c.Inputs...)
		require.NoError(t, err)
		require.True(t, tensor.AllClose(out.Tensor(), c.Outputs[0].Tensor(), 0, 1e-4, false))
	}
	t.Log(nn.Repr(m))
}
