package kernels_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
)

// Go's math.Log on amd64 is wrong for subnormal float64 inputs; PyTorch
// 1.13 gives the true logarithm (values from torch.log).
func TestLogSubnormal(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float64{1e-320, 5e-324}))
	out, err := call(t, "aten::log", []any{x}, nil)
	require.NoError(t, err)
	assert.InDeltaSlice(t, []float64{-736.8272408909739, -744.4400719213812}, tensor.Values[float64](out[0].(*tensor.Tensor)), 1e-10)
}
