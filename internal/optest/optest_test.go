package optest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	_ "github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/tensor"
)

func TestCall(t *testing.T) {
	x := optest.Floats(t, tensor.Float32, []float64{-1, 2, -3, 4}, 2, 2)
	y := optest.Tensor(t, "aten::relu", []any{x}, nil)
	assert.Equal(t, []float64{0, 2, 0, 4}, y.Float64s())
	assert.Equal(t, []int{2, 2}, y.Shape())

	_, err := optest.Call(t, "aten::add.Tensor", []any{x, optest.Ints(t, tensor.Int64, 1, 2, 3)}, nil)
	require.Error(t, err, "shapes [2, 2] and [3] do not broadcast")
	assert.ErrorContains(t, err, "add")
}
