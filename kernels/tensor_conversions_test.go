package kernels_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/tensor"
)

func TestToCopyCasts(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float32{float32(math.NaN()), 3e9, -1.5, 300.7, 65537.9}))
	want := map[tensor.DType][]int64{
		tensor.Int64: {math.MinInt64, 3000000000, -1, 300, 65537},
		tensor.Int32: {math.MinInt32, math.MinInt32, -1, 300, 65537},
		tensor.Int16: {0, 0, -1, 300, 1},
		tensor.Uint8: {0, 0, 255, 44, 1},
	}
	for dt, w := range want {
		out, err := optest.Call(t, "aten::_to_copy", []any{x}, map[string]any{"dtype": dt})
		require.NoError(t, err)
		assert.Equal(t, w, out[0].(*tensor.Tensor).Int64s(), dt.String())
	}
}
