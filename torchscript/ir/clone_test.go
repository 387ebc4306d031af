package ir

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/torchscript/types"
)

func TestCopy(t *testing.T) {
	data, err := os.ReadFile("testdata/attributes.script.code.txt")
	require.NoError(t, err)
	text := graphSections(string(data))[0]
	g, err := Parse(text)
	require.NoError(t, err)
	c, err := g.Copy()
	require.NoError(t, err)
	require.NoError(t, c.Lint())
	assert.Equal(t, text, c.String())
	// the copy is independent
	c.Nodes()[0].Kind = "prim::Changed"
	assert.Equal(t, text, g.String())
}

// Inlining loop_if's forward into a caller: the callee's named values keep
// their names, a clash renaming the caller's older value as PyTorch does.
func TestInsertGraph(t *testing.T) {
	data, err := os.ReadFile("testdata/loop_if.script.code.txt")
	require.NoError(t, err)
	callee, err := Parse(graphSections(string(data))[0])
	require.NoError(t, err)

	g := NewGraph()
	self, _ := g.AddInput("self", callee.Inputs()[0].Type)
	n, _ := g.AddInput("rv0", types.Int) // clashes with the callee's %rv0
	outs, err := g.InsertGraph(callee, []*Value{self, n})
	require.NoError(t, err)
	require.Len(t, outs, 1)
	g.RegisterOutput(outs[0])
	require.NoError(t, g.Lint())
	assert.Equal(t, "rv0", outs[0].Name())
	assert.Equal(t, "rv0.1", n.Name(), "the caller's older value is renamed")
	assert.Len(t, g.Nodes(), len(callee.Nodes()))

	_, err = g.InsertGraph(callee, []*Value{self})
	assert.Error(t, err)
}
