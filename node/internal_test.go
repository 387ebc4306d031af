package node

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// build returns a chain x, a=relu(x), b=add(a, x), c=relu(b), d=relu(x).
func build(t *testing.T) (*Chain, map[string]*Node) {
	t.Helper()
	relu, add := MustFunc("aten.relu.default", false), MustFunc("aten.add.Tensor", false)
	c := NewChain(nil)
	m := map[string]*Node{}
	mk := func(name string, op Opcode, target Target, args ...Arg) {
		n, err := New(name, op, target, args, nil)
		require.NoError(t, err)
		require.NoError(t, c.InsertBefore(n, nil))
		m[name] = n
	}
	mk("x", Placeholder, Path("x"))
	mk("a", CallFunction, relu, m["x"])
	mk("b", CallFunction, add, m["a"], m["x"])
	mk("c", CallFunction, relu, m["b"])
	mk("d", CallFunction, relu, m["x"])
	require.NoError(t, c.Check())
	return c, m
}

// Check must notice every kind of corruption and name the node.
func TestCheckFindsCorruption(t *testing.T) {
	tests := []struct {
		name    string
		corrupt func(c *Chain, m map[string]*Node)
		want    string
	}{
		{"user missing", func(c *Chain, m map[string]*Node) { m["x"].users.remove(m["b"]) }, "node %b: uses %x but is missing from its users"},
		{"extra user", func(c *Chain, m map[string]*Node) { m["a"].users.add(m["d"]) }, "node %a: lists %d as a user, but %d does not use it"},
		{"user listed twice", func(c *Chain, m map[string]*Node) { m["b"].users.s = append(m["b"].users.s, m["c"]) }, "node %b: user %c listed twice"},
		{"erased user", func(c *Chain, m map[string]*Node) { m["a"].erased = true }, "node %x: user %a is not in this graph"},
		{"erased but linked", func(c *Chain, m map[string]*Node) { m["d"].erased = true }, "node %x: user %d is not in this graph"},
		{"foreign input", func(c *Chain, m map[string]*Node) { m["c"].args[0] = &Node{name: "alien"} }, "node %c: uses %alien, which is not in this graph"},
		{"broken back link", func(c *Chain, m map[string]*Node) { m["c"].prev = m["a"] }, "node %c: broken back link"},
		{"labels out of order", func(c *Chain, m map[string]*Node) { m["c"].label = m["a"].label }, "node %c: order label not above"},
		{"unindexed", func(c *Chain, m map[string]*Node) { m["d"].slot = 99 }, "node %d: missing from the (opcode, target) index"},
		{"count", func(c *Chain, m map[string]*Node) { c.n++ }, "list count 6, but 5 nodes are linked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, m := build(t)
			tt.corrupt(c, m)
			err := c.Check()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// A user set with many members keeps a position index; removals keep it
// right and compaction drops it again.
func TestUserSetIndex(t *testing.T) {
	var u userSet
	ns := make([]*Node, 40)
	for i := range ns {
		ns[i] = &Node{name: fmt.Sprint("n", i)}
		u.add(ns[i])
	}
	require.NotNil(t, u.idx)
	require.NoError(t, u.check())
	for i := 0; i < 35; i++ {
		u.remove(ns[i])
		require.NoError(t, u.check(), "after removing %d", i)
	}
	assert.Equal(t, 5, u.len())
	assert.Equal(t, ns[35:], u.list())
}
