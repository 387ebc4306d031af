package convert

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript"
)

// TestRefused: programs that are not functional fail with the archive,
// the node (kind and source range) and the reason.
func TestRefused(t *testing.T) {
	for _, tc := range []struct {
		archive string
		want    []string
	}{
		{"testdata/counter.pt", []string{"testdata/counter.pt", "prim::SetAttr at code/__torch__.py:", "writes the attribute calls", "not functional"}},
		{"testdata/doubling.pt", []string{"testdata/doubling.pt", "prim::Loop at code/__torch__.py:", "the loop condition depends on tensor data", "not functional"}},
		{"../testdata/hooks/root_hooks.script.pt", []string{"has forward", "hooks"}},
	} {
		t.Run(tc.archive, func(t *testing.T) {
			m, err := torchscript.Load(tc.archive)
			require.NoError(t, err)
			x := ones(t, 2, 3)
			_, err = Convert(m, []any{x}, File(tc.archive))
			require.Error(t, err)
			var ce *Error
			require.True(t, errors.As(err, &ce), "%T", err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.True(t, errors.Is(err, ErrNotFunctional), "%v", err)
		})
	}
}

// TestControlFlowShapes: an if on tensor data becomes higher_order.cond,
// a loop over a known size is unrolled.
func TestControlFlowShapes(t *testing.T) {
	m, err := torchscript.Load(sharedDir + "/torchscript/max_branch.script.pt")
	if err != nil {
		t.Skipf("max_branch.script.pt: %v", err)
	}
	x, y := ones(t, 3), ones(t, 3)
	ep, err := Convert(m, []any{x, y})
	require.NoError(t, err)
	assert.Contains(t, ep.String(), "torch.ops.higher_order.cond")
	require.Len(t, ep.Subgraphs(), 2)

	m, err = torchscript.Load(sharedDir + "/torchscript/loop_shape.script.pt")
	require.NoError(t, err)
	ep, err = Convert(m, []any{ones(t, 3, 4)})
	require.NoError(t, err)
	assert.NotContains(t, ep.String(), "while_loop")
	assert.Empty(t, ep.Subgraphs())
}

func ones(t *testing.T, shape ...int) *tensor.Tensor {
	x, err := tensor.Ones(tensor.Float32, shape...)
	require.NoError(t, err)
	return x
}
