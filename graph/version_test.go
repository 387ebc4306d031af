package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
)

// TestVersion: every method that changes a graph's nodes changes
// Version, and reading the graph (its forms, Lint, lookups, users) and
// setting node metadata do not.
func TestVersion(t *testing.T) {
	m := must(t)
	type parts struct {
		g             *graph.Graph
		x, y, a, b, o *node.Node
	}
	build := func(t *testing.T) parts {
		g := graph.New()
		x := m(g.Placeholder("x"))
		y := m(g.Placeholder("y"))
		a := m(g.CallFunction(fn(t, "aten.relu.default"), []node.Arg{x}, nil))
		b := m(g.CallFunction(fn(t, "aten.add.Tensor"), []node.Arg{a, y}, nil))
		o := m(g.Output(b))
		return parts{g, x, y, a, b, o}
	}
	changes := []struct {
		name string
		do   func(t *testing.T, p parts) error
	}{
		{"Placeholder", func(t *testing.T, p parts) error { _, err := p.g.Placeholder("z"); return err }},
		{"GetAttr", func(t *testing.T, p parts) error { _, err := p.g.GetAttr("w"); return err }},
		{"CallFunction", func(t *testing.T, p parts) error {
			_, err := p.g.CallFunction(fn(t, "aten.relu.default"), []node.Arg{p.b}, nil)
			return err
		}},
		{"CallMethod", func(t *testing.T, p parts) error { _, err := p.g.CallMethod("relu", []node.Arg{p.x}, nil); return err }},
		{"CallModule", func(t *testing.T, p parts) error { _, err := p.g.CallModule("m", []node.Arg{p.x}, nil); return err }},
		{"NodeCopy", func(t *testing.T, p parts) error {
			_, err := p.g.NodeCopy(p.a, func(n *node.Node) node.Arg { return n })
			return err
		}},
		{"EraseNode", func(t *testing.T, p parts) error {
			d := m(p.g.CallFunction(fn(t, "aten.relu.default"), []node.Arg{p.x}, nil))
			v := p.g.Version()
			require.NoError(t, p.g.EraseNode(d))
			require.NotEqual(t, v, p.g.Version(), "EraseNode itself")
			return nil
		}},
		{"EliminateDeadCode", func(t *testing.T, p parts) error {
			m(p.g.CallFunction(fn(t, "aten.relu.default"), []node.Arg{p.x}, nil))
			v := p.g.Version()
			require.True(t, p.g.EliminateDeadCode())
			require.NotEqual(t, v, p.g.Version(), "EliminateDeadCode itself")
			return nil
		}},
		{"MoveBefore", func(t *testing.T, p parts) error { return p.g.MoveBefore(p.y, p.x) }},
		{"MoveAfter", func(t *testing.T, p parts) error { return p.g.MoveAfter(p.x, p.y) }},
		{"Rename", func(t *testing.T, p parts) error { _, err := p.g.Rename(p.a, "r"); return err }},
		{"SetTarget", func(t *testing.T, p parts) error { return p.a.SetTarget(fn(t, "aten.sigmoid.default")) }},
		{"SetArgs", func(t *testing.T, p parts) error { return p.a.SetArgs([]node.Arg{p.y}) }},
		{"SetKwargs", func(t *testing.T, p parts) error {
			return p.b.SetKwargs(node.Kwargs{{Name: "alpha", Value: node.Int(2)}})
		}},
		{"SetArgsKwargs", func(t *testing.T, p parts) error { return p.a.SetArgsKwargs([]node.Arg{p.y}, nil) }},
		{"UpdateArg", func(t *testing.T, p parts) error { return p.b.UpdateArg(1, p.x) }},
		{"InsertArg", func(t *testing.T, p parts) error { return p.b.InsertArg(2, node.Int(2)) }},
		{"UpdateKwarg", func(t *testing.T, p parts) error { return p.b.UpdateKwarg("alpha", node.Int(2)) }},
		{"DeleteKwarg", func(t *testing.T, p parts) error {
			require.NoError(t, p.b.UpdateKwarg("alpha", node.Int(2)))
			v := p.g.Version()
			ok, err := p.b.DeleteKwarg("alpha")
			require.True(t, ok)
			require.NotEqual(t, v, p.g.Version(), "DeleteKwarg itself")
			return err
		}},
		{"ReplaceInputWith", func(t *testing.T, p parts) error { return p.b.ReplaceInputWith(p.y, p.x) }},
		{"ReplaceAllUsesWith", func(t *testing.T, p parts) error {
			_, err := p.a.ReplaceAllUsesWith(p.x, nil, false)
			return err
		}},
	}
	for _, c := range changes {
		t.Run(c.name, func(t *testing.T) {
			p := build(t)
			v := p.g.Version()
			require.NoError(t, c.do(t, p))
			require.NotEqual(t, v, p.g.Version(), "%s did not change the version", c.name)
		})
	}

	t.Run("reads", func(t *testing.T) {
		p := build(t)
		v := p.g.Version()
		_ = p.g.Text()
		_ = p.g.String()
		_ = p.g.Code()
		require.NoError(t, p.g.Lint())
		_ = p.g.Placeholders()
		_ = p.g.FindNodes(node.Placeholder, nil)
		_ = p.a.Users()
		_, _ = p.g.Node("relu")
		p.a.Meta.Set("note", "x")
		require.False(t, p.g.EliminateDeadCode())
		_, err := p.g.Rename(p.a, p.a.Name()) // its own name: nothing to do
		require.NoError(t, err)
		require.Equal(t, v, p.g.Version())
	})

	t.Run("detached", func(t *testing.T) {
		p := build(t)
		v := p.g.Version()
		d, err := node.New("d", node.CallFunction, fn(t, "aten.relu.default"), []node.Arg{node.Int(1)}, nil)
		require.NoError(t, err)
		require.NoError(t, d.SetArgs([]node.Arg{node.Int(2)}))
		require.NoError(t, d.SetTarget(fn(t, "aten.sigmoid.default")))
		require.Equal(t, v, p.g.Version(), "changing a node of no graph")
	})
}
