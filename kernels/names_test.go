package kernels_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// TestNamedOverloads checks that a named-tensor (Dimname) overload fails
// with an error that names the operator and says named tensors are
// unsupported, on data and on meta tensors, instead of a missing-kernel
// error.
func TestNamedOverloads(t *testing.T) {
	x := poolingF32(2, 3)
	for _, tc := range []struct {
		op     string
		args   []any
		kwargs map[string]any
		arg    string
	}{
		{"aten::softmax.Dimname", []any{x, "C"}, nil, "dim"},
		{"aten::sum.dim_DimnameList", []any{x, []string{"N"}}, nil, "dim"},
		{"aten::transpose.Dimname", []any{x, "N", "C"}, nil, "dim0"},
		{"aten::zeros.names", []any{[]int64{2}}, map[string]any{"names": []string{"N"}}, "names"},
		{"aten::rename", []any{x, []string{"N", "C"}}, nil, "names"},
	} {
		t.Run(tc.op, func(t *testing.T) {
			o, ok := ops.Global().Lookup(tc.op)
			require.True(t, ok)
			for _, meta := range []bool{false, true} {
				args := append([]any(nil), tc.args...)
				if meta {
					for i, a := range args {
						if tt, ok := a.(*tensor.Tensor); ok {
							args[i] = tt.Meta()
						}
					}
				}
				_, err := o.Call(args, tc.kwargs)
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.op)
				assert.Contains(t, err.Error(), "named tensors")
				assert.Contains(t, err.Error(), "'"+tc.arg+"'")
				assert.NotContains(t, err.Error(), "no kernel")
			}
		})
	}
}
