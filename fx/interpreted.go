package fx

import "github.com/gofx/gofx/graph"

// InterpretedGraph returns the graph Forward interprets (gm.Graph). An
// interpreter that reads gm with a get_attr (a branch or body graph of a
// higher-order operator) runs it with an interpreter of this graph that it
// keeps across calls, instead of planning the graph on every call.
func (gm *GraphModule) InterpretedGraph() *graph.Graph { return gm.Graph }
