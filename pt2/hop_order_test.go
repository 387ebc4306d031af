package pt2_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/pt2"
)

// hopOperands lists, for each higher-order node of g and of its
// subgraphs (in order), the names of its arguments that are nodes,
// operand lists flattened: the order PyTorch's program passes them in.
func hopOperands(g *graph.Graph, subs []export.Subgraph) []string {
	var out []string
	for n := range g.Nodes() {
		if !graph.IsHigherOrder(n) {
			continue
		}
		s := n.Name() + ":"
		for _, a := range n.Args() {
			node.MapArg(a, func(x *node.Node) node.Arg {
				if x.Op() == node.GetAttr {
					s += " " + x.Target().String()
				} else {
					s += " " + x.Name()
				}
				return x
			})
		}
		out = append(out, s)
	}
	for _, sg := range subs {
		var phs []string
		for _, p := range sg.Graph.Placeholders() {
			phs = append(phs, p.Name())
		}
		out = append(out, sg.Name+" inputs:"+joinNames(phs))
		out = append(out, hopOperands(sg.Graph, sg.Subgraphs)...)
	}
	return out
}

func joinNames(ns []string) string {
	s := ""
	for _, n := range ns {
		s += " " + n
	}
	return s
}

// TestTransformKeepsOperandOrder: after Transform, the operands of each
// higher-order node (lifted parameters and buffers included) and the
// placeholders of its subgraphs come in the order PyTorch's program has
// them (the loaded .pt2), not in the order the passes read them.
func TestTransformKeepsOperandOrder(t *testing.T) {
	touch := passes.Pass{Name: "touch", Run: func(gm *fx.GraphModule) (bool, error) { return true, nil }}
	for name, path := range xformPrograms(t) {
		t.Run(name, func(t *testing.T) {
			ep, err := pt2.Load(path)
			require.NoError(t, err)
			want := hopOperands(ep.Graph, ep.Subgraphs())
			out, err := ep.Transform(passes.NewManager(touch))
			require.NoError(t, err)
			assert.Equal(t, want, hopOperands(out.Graph, out.Subgraphs()))
		})
	}
}
