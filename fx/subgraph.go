package fx

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
)

// Subgraphs returns the graphs of gm's higher-order calls (cond's
// branches, while_loop's cond and body graph, map_impl's body): the
// GraphModule submodules that its graph's get_attr nodes read, under
// their targets (true_graph_0), in the order of those nodes, each with
// its own Subgraphs. The graphs are the submodules' own, not copies.
func (gm *GraphModule) Subgraphs() []graph.Subgraph {
	return subgraphsOf(gm, 0)
}

// SubgraphAt returns the GraphModule submodule of gm that the get_attr
// node n reads (a higher-order operator's branch or body graph), and
// false when n is no get_attr or reads something else.
func (gm *GraphModule) SubgraphAt(n *node.Node) (*GraphModule, bool) {
	if n.Op() != node.GetAttr {
		return nil, false
	}
	m, err := nn.Submodule(gm, n.Target().String())
	if err != nil {
		return nil, false
	}
	sub, ok := m.(*GraphModule)
	return sub, ok
}

// maxSubgraphDepth bounds the nesting Subgraphs follows (a module tree
// that holds itself would otherwise never end).
const maxSubgraphDepth = 200

func subgraphsOf(gm *GraphModule, depth int) []graph.Subgraph {
	if depth > maxSubgraphDepth {
		return nil
	}
	var subs []graph.Subgraph
	seen := map[string]bool{}
	for n := range gm.Graph.Nodes() {
		if n.Op() != node.GetAttr {
			continue
		}
		target := n.Target().String()
		if seen[target] {
			continue
		}
		sub, ok := gm.SubgraphAt(n)
		if !ok {
			continue
		}
		seen[target] = true
		subs = append(subs, graph.Subgraph{Name: target, Graph: sub.Graph, Subgraphs: subgraphsOf(sub, depth+1)})
	}
	return subs
}

// Text returns gm's graph and its subgraphs in the text form
// (graph.TextWithSubgraphs), which ParseModule reads back.
func (gm *GraphModule) Text() string {
	return gm.Graph.TextWithSubgraphs(gm.Subgraphs())
}

// ParseModule reads a GraphModule from the text form that Text writes
// (graph.ParseWithSubgraphs): its graph runs over root's module tree (its
// parameters, buffers and submodules are shared, as NewGraphModule shares
// them; nil for none), and each subgraph section becomes a GraphModule
// submodule under its name, holding its own subgraphs the same way. The
// result passes Lint, or ParseModule returns Lint's error. Text gives the
// text back (a section that no get_attr node reads stays a submodule but
// is not one of Subgraphs, so Text leaves it out).
func ParseModule(text string, root nn.Module, opts ...graph.ParseOption) (*GraphModule, error) {
	g, subs, err := graph.ParseWithSubgraphs(text, opts...)
	if err != nil {
		return nil, fmt.Errorf("fx: ParseModule: %w", err)
	}
	gm, err := NewGraphModule(root, g)
	if err != nil {
		return nil, fmt.Errorf("fx: ParseModule: %w", err)
	}
	if err := addSubgraphModules(gm, subs); err != nil {
		return nil, fmt.Errorf("fx: ParseModule: %w", err)
	}
	if err := gm.Lint(); err != nil {
		return nil, fmt.Errorf("fx: ParseModule: %w", err)
	}
	return gm, nil
}

// addSubgraphModules registers each subgraph as a GraphModule of gm.
func addSubgraphModules(gm *GraphModule, subs []graph.Subgraph) error {
	for _, sg := range subs {
		if !node.IsIdentifier(sg.Name) {
			return fmt.Errorf("subgraph %q: a submodule's name must be an identifier", sg.Name)
		}
		if _, err := nn.Submodule(gm, sg.Name); err == nil {
			return fmt.Errorf("subgraph %s: the module already has a submodule of that name", sg.Name)
		}
		sub, err := NewGraphModule(nil, sg.Graph)
		if err != nil {
			return fmt.Errorf("subgraph %s: %w", sg.Name, err)
		}
		if err := addSubgraphModules(sub, sg.Subgraphs); err != nil {
			return fmt.Errorf("subgraph %s: %w", sg.Name, err)
		}
		gm.AddModule(sg.Name, sub)
	}
	return nn.Err(gm)
}

// Readable returns gm as torch.fx's print_readable prints it: a class
// whose forward is the graph's code, and a nested class per subgraph,
// indented as they nest.
//
//	class GraphModule(torch.nn.Module):
//	    def forward(self, pred, x):
//	        true_graph_0 = self.true_graph_0
//	        ...
//
//	    class true_graph_0(torch.nn.Module):
//	        def forward(self, x):
//	            ...
func (gm *GraphModule) Readable() string {
	var b strings.Builder
	writeReadable(&b, "GraphModule", gm.Graph, gm.Subgraphs(), "")
	return b.String()
}

func writeReadable(b *strings.Builder, name string, g *graph.Graph, subs []graph.Subgraph, indent string) {
	fmt.Fprintf(b, "%sclass %s(torch.nn.Module):\n", indent, name)
	for _, l := range strings.Split(strings.TrimRight(g.Code(), "\n"), "\n") {
		b.WriteString(indent + "    " + l + "\n")
	}
	for _, sg := range subs {
		b.WriteString("\n")
		writeReadable(b, sg.Name, sg.Graph, sg.Subgraphs, indent+"    ")
	}
}

// Tabular returns gm's graph as torch.fx's print_tabular table, followed
// by each subgraph's table under a "# subgraph NAME" line (nested ones
// named by their dotted path, true_graph_0.false_graph_0).
func (gm *GraphModule) Tabular() string {
	var b strings.Builder
	b.WriteString(gm.Graph.Tabular())
	writeTabulars(&b, "", gm.Subgraphs())
	return b.String()
}

func writeTabulars(b *strings.Builder, prefix string, subs []graph.Subgraph) {
	for _, sg := range subs {
		b.WriteString("\n# subgraph " + prefix + sg.Name + "\n")
		b.WriteString(sg.Graph.Tabular())
		writeTabulars(b, prefix+sg.Name+".", sg.Subgraphs)
	}
}

// lintSubgraphs checks the graphs of gm's higher-order calls against the
// calls (graph.LintWithSubgraphs) and that each subgraph module passes
// Lint; problems are prefixed with the subgraph's path.
func (gm *GraphModule) lintSubgraphs() []string {
	subs := gm.Subgraphs()
	if len(subs) == 0 && !hasHigherOrder(gm.Graph) {
		return nil
	}
	var errs []string
	if err := gm.Graph.LintWithSubgraphs(subs); err != nil {
		var le *graph.LintError
		if errors.As(err, &le) {
			errs = append(errs, le.Problems...)
		} else {
			errs = append(errs, err.Error())
		}
	}
	return errs
}

func hasHigherOrder(g *graph.Graph) bool {
	for n := range g.Nodes() {
		if graph.IsHigherOrder(n) {
			return true
		}
	}
	return false
}
