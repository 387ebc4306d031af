package graph_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
)

// noOutput is the problem Lint reports for a graph under construction.
const noOutput = "the graph has no output node"

// lintBody is Lint for graphs that are still being built (random
// mutations, fuzzed text): every invariant but the presence of the output
// node.
func lintBody(g *graph.Graph) error {
	err := g.Lint()
	var le *graph.LintError
	if !errors.As(err, &le) {
		return err
	}
	probs := slices.DeleteFunc(slices.Clone(le.Problems), func(p string) bool { return p == noOutput })
	if len(probs) == 0 {
		return nil
	}
	return &graph.LintError{Problems: probs}
}

// TestLintRequiresOutput: a graph without an output node is not a complete
// graph, and Lint says so.
func TestLintRequiresOutput(t *testing.T) {
	m := must(t)
	g := graph.New()
	x := m(g.Placeholder("x"))
	m(g.CallFunction(aten.Relu, []node.Arg{x}, nil))
	assert.EqualError(t, g.Lint(), "lint: "+noOutput)
	assert.NoError(t, lintBody(g))
	assert.EqualError(t, graph.New().Lint(), "lint: "+noOutput)
}

// TestLintBindsCalls: every call of an operator is bound to its schema, and
// the problem names the node and the argument.
func TestLintBindsCalls(t *testing.T) {
	tests := []struct {
		name   string
		build  func(g *graph.Graph, x *node.Node) (*node.Node, error)
		errMsg string
	}{
		{"ok", func(g *graph.Graph, x *node.Node) (*node.Node, error) {
			return g.CallFunction(aten.AddTensor, []node.Arg{x, x}, node.Kwargs{{Name: "alpha", Value: node.Int(2)}})
		}, ""},
		{"defaults may be left out", func(g *graph.Graph, x *node.Node) (*node.Node, error) {
			return g.CallFunction(aten.SumDimIntList, []node.Arg{x, node.List{node.Int(1)}}, nil)
		}, ""},
		{"too many", func(g *graph.Graph, x *node.Node) (*node.Node, error) {
			return g.CallFunction(aten.Relu, []node.Arg{x, x}, nil)
		}, "lint: node %relu: aten.relu.default takes at most 1 positional arguments but 2 were given"},
		{"too few", func(g *graph.Graph, x *node.Node) (*node.Node, error) {
			return g.CallFunction(aten.AddTensor, []node.Arg{x}, nil)
		}, "lint: node %add: aten.add.Tensor: missing required argument 'other' of type Tensor"},
		{"unknown keyword", func(g *graph.Graph, x *node.Node) (*node.Node, error) {
			return g.CallFunction(aten.AddTensor, []node.Arg{x, x}, node.Kwargs{{Name: "beta", Value: node.Int(2)}})
		}, "lint: node %add: aten.add.Tensor got an unexpected keyword argument 'beta'"},
		{"twice", func(g *graph.Graph, x *node.Node) (*node.Node, error) {
			return g.CallFunction(aten.AddTensor, []node.Arg{x, x}, node.Kwargs{{Name: "other", Value: x}})
		}, "lint: node %add: aten.add.Tensor: argument 'other' given both by position and by keyword"},
		{"keyword-only by position", func(g *graph.Graph, x *node.Node) (*node.Node, error) {
			return g.CallFunction(aten.AddTensor, []node.Arg{x, x, node.Int(2)}, nil)
		}, "lint: node %add: aten.add.Tensor takes at most 2 positional arguments but 3 were given"},
		// aten::_cdist_backward's grad is grad_output since PyTorch 2.14:
		// a 2.6 call binds to 2.6's schema.
		{"a keyword of an older schema", func(g *graph.Graph, x *node.Node) (*node.Node, error) {
			return g.CallFunction(node.MustOp("aten", "_cdist_backward", "default", false), nil, node.Kwargs{
				{Name: "grad", Value: x}, {Name: "x1", Value: x}, {Name: "x2", Value: x}, {Name: "p", Value: node.Float(2)}, {Name: "cdist", Value: x}})
		}, ""},
		{"no schema binds: the newest's problem", func(g *graph.Graph, x *node.Node) (*node.Node, error) {
			return g.CallFunction(node.MustOp("aten", "_cdist_backward", "default", false), nil, node.Kwargs{
				{Name: "grad", Value: x}, {Name: "x1", Value: x}, {Name: "x2", Value: x}, {Name: "cdist", Value: x}})
		}, "lint: node %_cdist_backward: aten._cdist_backward.default got an unexpected keyword argument 'grad'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := graph.New()
			x := must(t)(g.Placeholder("x"))
			n := must(t)(tt.build(g, x))
			must(t)(g.Output(n))
			err := g.Lint()
			if tt.errMsg == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, tt.errMsg, err.Error())
		})
	}
}
