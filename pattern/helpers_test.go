package pattern_test

import (
	"math"
	"testing"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
	"github.com/stretchr/testify/require"
)

func mustOp(t testing.TB, name string) *ops.Operator {
	t.Helper()
	op, ok := ops.Global().Lookup(name)
	require.True(t, ok, name)
	return op
}

// testInput returns a float32 tensor of the given shape with values spread
// over [-2, 2], negative and positive.
func testInput(t testing.TB, shape ...int) *tensor.Tensor {
	t.Helper()
	n := 1
	for _, d := range shape {
		n *= d
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = 2 * math.Sin(float64(i)*1.7+0.3)
	}
	x, err := tensor.FromFloat64s(tensor.Float32, vals, shape...)
	require.NoError(t, err)
	return x
}
