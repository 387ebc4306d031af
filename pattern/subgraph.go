package pattern

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
)

// maxSubgraphDepth bounds the nesting of subgraphs Find and Replace walk.
const maxSubgraphDepth = 64

// eachSubgraph calls fn on every GraphModule that a higher-order
// operator of gm calls (a cond's branches, a while_loop's cond and body
// graphs, a map_impl's body: call_function nodes whose target starts with
// higher_order., reading their graphs with get_attr), in graph order,
// each once, nested ones after their parent. Each graph is matched on
// its own: a match lies inside one branch or body and never spans the
// boundary between a graph and its subgraph (the higher-order node is
// opaque to the graph around it, and the subgraph's placeholders are its
// inputs).
func eachSubgraph(gm *fx.GraphModule, fn func(*fx.GraphModule) error) error {
	return walkSubgraphs(gm, fn, 0)
}

func walkSubgraphs(gm *fx.GraphModule, fn func(*fx.GraphModule) error, depth int) error {
	if depth > maxSubgraphDepth {
		return fmt.Errorf("subgraphs nested deeper than %d", maxSubgraphDepth)
	}
	seen := map[*fx.GraphModule]bool{}
	for n := range gm.Graph.Nodes() {
		if !graph.IsHigherOrder(n) {
			continue
		}
		for _, a := range n.Args() {
			in, ok := a.(*node.Node)
			if !ok {
				continue
			}
			sub, ok := gm.SubgraphAt(in)
			if !ok || seen[sub] {
				continue
			}
			seen[sub] = true
			if err := fn(sub); err != nil {
				return fmt.Errorf("subgraph %s: %w", in.Target(), err)
			}
			if err := walkSubgraphs(sub, fn, depth+1); err != nil {
				return fmt.Errorf("subgraph %s: %w", in.Target(), err)
			}
		}
	}
	return nil
}
