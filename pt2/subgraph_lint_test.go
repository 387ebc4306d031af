package pt2_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pt2"
)

// hopFiles returns the paths of the control-flow programs of
// testdata/hop (2.6 and 2.14) and their decomposed forms where present.
func hopFiles(t *testing.T) []string {
	var out []string
	for _, dir := range []string{"testdata/hop", "testdata/hop/torch-2.14"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.pt2"))
		out = append(out, files...)
	}
	require.NotEmpty(t, out)
	return out
}

// TestSubgraphsLintAndText: every control-flow program PyTorch saved
// passes LintWithSubgraphs, and its text form with subgraph sections
// parses back into the same graphs and prints the same text.
func TestSubgraphsLintAndText(t *testing.T) {
	for _, path := range hopFiles(t) {
		t.Run(path, func(t *testing.T) {
			ep, err := pt2.Load(path)
			require.NoError(t, err)
			subs := ep.Subgraphs()
			require.NotEmpty(t, subs)
			require.NoError(t, ep.Graph.LintWithSubgraphs(subs))
			text := ep.Graph.TextWithSubgraphs(subs)
			g, subs2, err := graph.ParseWithSubgraphs(text)
			require.NoError(t, err)
			assert.Equal(t, text, g.TextWithSubgraphs(subs2))
			require.NoError(t, graph.Equal(ep.Graph, g))
			require.Len(t, subs2, len(subs))
			for i := range subs {
				assert.Equal(t, subs[i].Name, subs2[i].Name)
				require.NoError(t, graph.Equal(subs[i].Graph, subs2[i].Graph), subs[i].Name)
			}
			require.NoError(t, g.LintWithSubgraphs(subs2))
		})
	}
}

// TestSubgraphsLintLoadedBroken breaks loaded programs one way each and
// checks that LintWithSubgraphs names the node, the operator, the branch
// or body and what differs.
func TestSubgraphsLintLoadedBroken(t *testing.T) {
	load := func(t *testing.T, name string) (*graph.Graph, []graph.Subgraph) {
		ep, err := pt2.Load("testdata/hop/" + name + ".pt2")
		require.NoError(t, err)
		return ep.Graph, ep.Subgraphs()
	}
	sub := func(t *testing.T, subs []graph.Subgraph, name string) *graph.Graph {
		sg, ok := graph.FindSubgraph(subs, name)
		require.True(t, ok, name)
		return sg.Graph
	}
	t.Run("cond branch returns one output too few", func(t *testing.T) {
		g, subs := load(t, "cond_nested")
		f := sub(t, subs, "false_graph_0")
		out := f.OutputNode()
		require.NoError(t, out.SetArgs([]node.Arg{node.Tuple{out.Arg(0).(node.Tuple)[0]}}))
		assert.ErrorContains(t, g.LintWithSubgraphs(subs), "node %cond: cond: the false branch false_graph_0 returns 1 values, the cond 2")
	})
	t.Run("nested cond branch takes an extra input", func(t *testing.T) {
		g, subs := load(t, "cond_nested")
		inner := sub(t, subs[0].Subgraphs, "true_graph_0")
		restore := inner.InsertingBefore(inner.Placeholders()[0])
		_, err := inner.Placeholder("z")
		restore()
		require.NoError(t, err)
		assert.ErrorContains(t, g.LintWithSubgraphs(subs), "subgraph true_graph_0: node %cond: cond: the true branch true_graph_0 takes 3 inputs (z, x, y), but there are 2 operands")
	})
	t.Run("while body changes a carried dtype", func(t *testing.T) {
		g, subs := load(t, "while_count")
		body := sub(t, subs, "while_loop_body_graph_0")
		add, ok := body.Node("add")
		require.True(t, ok)
		node.Val.Set(&add.Meta, node.TensorMeta{DType: node.Float32, Shape: []node.Dim{}})
		assert.ErrorContains(t, g.LintWithSubgraphs(subs), "node %while_loop: while_loop: output 0 of the body graph while_loop_body_graph_0 is f32[], carried input 0 (it) i64[]")
	})
	t.Run("map over a dangling body", func(t *testing.T) {
		g, _ := load(t, "map_rows")
		assert.ErrorContains(t, g.LintWithSubgraphs(nil), "node %map_impl: map_impl: the body graph body_graph_0 (read by %body_graph_0) is not a subgraph of this graph (dangling reference; subgraphs: none)")
	})
}
