package kernels_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gofx/gofx/tensor"
)

// TestNativeDropoutAliasing checks that eval native_dropout returns a
// copy, not the input, and that empty input comes back as itself.
func TestNativeDropoutAliasing(t *testing.T) {
	x := reduceOverloadTensor(tensor.Float32, []float64{1, 2}, 2)
	out := callReduceOverload(t, "aten::native_dropout", []any{x, 0.5, false}, nil)
	assert.False(t, out[0].(*tensor.Tensor).SharesStorage(x))
	e := tensor.Empty(tensor.Int32, 0, 2)
	out = callReduceOverload(t, "aten::native_dropout", []any{e, 0.5, true}, nil)
	assert.Same(t, e, out[0])
	assert.Equal(t, tensor.Int32, out[1].(*tensor.Tensor).DType())
}
