package export

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// scaleState multiplies its input by the parameter weight.
type scaleState struct {
	nn.Base
	W *nn.Parameter
}

func (m *scaleState) Forward(x nn.Value) nn.Value {
	return nn.CallOp(nn.Op("aten::mul.Tensor"), x, m.W.Value())
}

// TestMarkCacheKept: steady-state runs reuse the answer of the first
// (the same *constInputs: no interp.ReadOnly walk), and the answer stops
// being current when the graph changes (its Version), when the
// signature's buffer mutations or input kinds change, and for another
// graph; copies made by Clone have their own cache.
func TestMarkCacheKept(t *testing.T) {
	w, err := tensor.NewGenerator(1).Randn(tensor.Float32, 3)
	require.NoError(t, err)
	x, err := tensor.NewGenerator(2).Randn(tensor.Float32, 3)
	require.NoError(t, err)
	m := &scaleState{}
	m.Init(m, "M")
	m.W = m.RegisterParameter("weight", w)
	ep, err := Export(m, []any{x}, nil)
	require.NoError(t, err)
	require.NotNil(t, ep.marks)

	_, err = ep.Run(x)
	require.NoError(t, err)
	first := ep.marks.p.Load()
	require.NotNil(t, first)
	wi := slices.IndexFunc(ep.Signature.Inputs, func(s InputSpec) bool { return s.Kind == Parameter })
	require.Equal(t, []int{wi}, first.marked, "the weight's input is marked")
	for range 3 {
		_, err = ep.Run(x)
		require.NoError(t, err)
		require.Same(t, first, ep.marks.p.Load(), "a steady-state run computed the answer again")
	}

	require.True(t, first.current(ep))
	outs := ep.Signature.Outputs
	ep.Signature.Outputs = append(slices.Clone(outs), OutputSpec{Kind: BufferMutation, Name: "x", Target: "weight"})
	require.False(t, first.current(ep), "a new buffer mutation")
	ep.Signature.Outputs = outs
	require.True(t, first.current(ep))

	ep.Signature.Inputs[wi].Kind = Buffer
	require.False(t, first.current(ep), "an input's kind changed")
	ep.Signature.Inputs[wi].Kind = Parameter
	require.True(t, first.current(ep))

	c := ep.Clone()
	require.NotSame(t, ep.marks, c.marks, "Clone's cache")

	ph := ep.Graph.Placeholders()[wi]
	_, err = ep.Graph.Rename(ph, "renamed")
	require.NoError(t, err)
	require.False(t, first.current(ep), "the graph changed")
	_, err = ep.Run(x)
	require.NoError(t, err)
	require.NotSame(t, first, ep.marks.p.Load(), "the run after the change computed the answer again")
}
