package node_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/node"
)

// TestSliceArg: a slice is an argument whose parts may be nodes: they are
// inputs of the node (use-def edges), mapped by MapArg, compared by
// EqualArgs, and checked.
func TestSliceArg(t *testing.T) {
	c, ns := chainOf(t, 2)
	x, r0, r1 := ns[0], ns[1], ns[2]
	idx := node.Tuple{node.Slice{Start: node.Int(0), Stop: r0, Step: node.None}, node.Ellipsis, node.None}
	gi, err := node.New("getitem", node.CallFunction, node.MustFunc("operator.getitem", false), []node.Arg{x, idx}, nil)
	require.NoError(t, err)
	require.NoError(t, c.InsertBefore(gi, nil))
	require.NoError(t, c.Check())
	assert.Equal(t, []string{"x", "r0"}, names(gi.AllInputNodes()))
	assert.Contains(t, names(r0.Users()), "getitem")

	gi.ReplaceInputWith(r0, r1)
	require.NoError(t, c.Check())
	assert.Equal(t, []string{"x", "r1"}, names(gi.AllInputNodes()))
	assert.NotContains(t, names(r0.Users()), "getitem")

	got := node.MapArg(idx, func(n *node.Node) node.Arg { return node.Int(7) })
	assert.True(t, node.EqualArgs(node.Tuple{node.Slice{Start: node.Int(0), Stop: node.Int(7), Step: node.None}, node.Ellipsis, node.None}, got))
	assert.False(t, node.EqualArgs(node.Slice{Start: node.Int(0), Stop: node.None, Step: node.None}, node.Slice{Start: node.None, Stop: node.None, Step: node.None}))
	assert.True(t, node.EqualArgs(node.Ellipsis, node.Ellipsis))

	for _, bad := range []struct {
		arg node.Arg
		msg string
	}{
		{node.Slice{Start: node.Int(0), Stop: node.Float(1), Step: node.None}, "node %bad: arg 1.stop is a node.Float: a slice part is an Int, None or a *Node"},
		{node.Slice{Start: node.Int(0)}, "node %bad: arg 1.stop is nil (use node.None for a part left out)"},
	} {
		_, err := node.New("bad", node.CallFunction, node.MustFunc("operator.getitem", false), []node.Arg{x, bad.arg}, nil)
		assert.EqualError(t, err, bad.msg)
	}

	a, ok := node.ArgOf(node.Slice{Start: node.None, Stop: node.Int(2), Step: node.None})
	assert.True(t, ok)
	assert.Equal(t, node.Slice{Start: node.None, Stop: node.Int(2), Step: node.None}, a)
	a, ok = node.ArgOf(node.Ellipsis)
	assert.True(t, ok && a == node.Ellipsis)
}
