package ops_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// c10::ScalarType codes stand for dtypes in schema defaults (randperm's
// dtype=4) and in TorchScript's calls.
func TestScalarTypeCodes(t *testing.T) {
	for code, want := range map[int64]tensor.DType{0: tensor.Uint8, 4: tensor.Int64, 6: tensor.Float32, 7: tensor.Float64, 11: tensor.Bool, 15: tensor.BFloat16} {
		got, ok := ops.DTypeFromCode(code)
		require.True(t, ok, code)
		assert.Equal(t, want, got, code)
	}
	_, ok := ops.DTypeFromCode(9) // complex64: not a gofx dtype
	assert.False(t, ok)

	o, _ := ops.Global().Lookup("aten::randperm")
	c, err := o.Bind([]any{int64(3)}, nil)
	require.NoError(t, err)
	dt, ok := c.DType("dtype")
	require.True(t, ok)
	assert.Equal(t, tensor.Int64, dt)
	c, err = o.Bind([]any{int64(3)}, map[string]any{"dtype": 7})
	require.NoError(t, err)
	dt, _ = c.DType("dtype")
	assert.Equal(t, tensor.Float64, dt)
}
