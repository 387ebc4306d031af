package convert

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/pt2"
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
		{"testdata/counting.pt", []string{"testdata/counting.pt", "prim::Loop at ", "gen_refused.py:32:8 (code/__torch__.py:11:5)", "loop-carried value 1 is a int", "while_loop carries tensors only", "not functional"}},
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

// TestWhileLoop: a while loop on tensor data (doubling.pt: while
// bool(x.sum() < 100.0): x = x * 2.0) becomes torch's while_loop and runs
// as PyTorch's archive does (checked here against the interpreter).
func TestWhileLoop(t *testing.T) {
	m, err := torchscript.Load("testdata/doubling.pt")
	require.NoError(t, err)
	x := ones(t, 2, 3)
	ep, err := Convert(m, []any{x}, File("testdata/doubling.pt"))
	require.NoError(t, err)
	assert.Contains(t, ep.String(), "torch.ops.higher_order.while_loop")
	for _, v := range []float32{1, 0.5, 30} {
		in, err := tensor.Full(tensor.Float32, float64(v), 2, 3)
		require.NoError(t, err)
		want, err := m.Forward(in.Clone())
		require.NoError(t, err)
		got, err := ep.Run(in)
		require.NoError(t, err)
		assert.Equal(t, want.(*tensor.Tensor).Float64s(), got.Tensor().Float64s(), "x = %v", v)
	}
}

// TestMethod converts a method other than forward (script_holds_trace's
// helper, which forward calls) and compares it with the interpreter.
func TestMethod(t *testing.T) {
	path := sharedDir + "/torchscript/script_holds_trace.script.pt"
	m, err := torchscript.Load(path)
	if err != nil {
		t.Skipf("%s: %v", path, err)
	}
	io, err := pt2.ReadIO(sharedDir + "/torchscript/script_holds_trace.io.json")
	require.NoError(t, err)
	args := caseArgs(&io.Cases[0])
	ep, err := Convert(m, args, Method("helper"), File(path))
	require.NoError(t, err)
	h, err := m.Method("helper")
	require.NoError(t, err)
	want, err := h.Run(caseArgs(&io.Cases[0])...)
	require.NoError(t, err)
	got, err := ep.Run(args...)
	require.NoError(t, err)
	assert.InDeltaSlice(t, want.(*tensor.Tensor).Float64s(), got.Tensor().Float64s(), 1e-5)
}
