package kernels_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/tensor"
)

func TestSymInts(t *testing.T) {
	x := tensor.Must(arange(2, 3, 4).Transpose(0, 2))
	sel := tensor.Must(arange(2, 3, 4).Select(0, 1))
	for _, m := range []bool{false, true} {
		in := x
		if m {
			in = x.Meta()
		}
		call := func(op string, args ...any) any {
			out, err := optest.Call(t, op, append([]any{in}, args...), nil)
			require.NoError(t, err)
			return out[0]
		}
		assert.Equal(t, int64(4), call("aten::sym_size.int", 0))
		assert.Equal(t, int64(2), call("aten::sym_size.int", -1))
		assert.Equal(t, int64(24), call("aten::sym_numel"))
		if !m {
			// Meta tensors are contiguous.
			assert.Equal(t, int64(1), call("aten::sym_stride.int", 0))
			assert.Equal(t, int64(12), call("aten::sym_stride.int", -1))
		}
	}
	out, err := optest.Call(t, "aten::sym_storage_offset", []any{sel}, nil)
	require.NoError(t, err)
	assert.Equal(t, int64(12), out[0])
}
