package export

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
)

// hopGraphArgs names the graph arguments of each higher-order operator by
// position, as errors name them.
var hopGraphArgs = map[node.Function][]struct {
	pos  int
	name string
}{
	nn.CondOp:      {{1, "true branch"}, {2, "false branch"}},
	nn.WhileLoopOp: {{0, "cond_fn"}, {1, "body_fn"}},
	nn.MapImplOp:   {{0, "body_fn"}},
}

// checkSubgraphRefs checks that every graph argument of every
// higher-order operator of g (and, recursively, of its subgraphs) is a
// get_attr node naming one of subs: a reference that dangles is an error
// naming the operator's node, the branch and the name.
func checkSubgraphRefs(g *graph.Graph, subs []Subgraph, where string) error {
	for n := range g.Nodes() {
		if n.Op() != node.CallFunction {
			continue
		}
		roles, ok := hopGraphArgs[n.Function()]
		if !ok {
			continue
		}
		for _, r := range roles {
			if r.pos >= n.NumArgs() {
				return fmt.Errorf("%snode %s (%s): the %s (argument %d) is missing", where, n.Name(), n.Function(), r.name, r.pos)
			}
			ref, isNode := n.Arg(r.pos).(*node.Node)
			if !isNode || ref.Op() != node.GetAttr {
				return fmt.Errorf("%snode %s (%s): the %s (argument %d) must be a get_attr node naming a subgraph, got %v", where, n.Name(), n.Function(), r.name, r.pos, n.Arg(r.pos))
			}
			target := ref.Target().String()
			if findSubgraph(subs, target) == nil {
				return fmt.Errorf("%snode %s (%s): the %s %s names no subgraph of the program (it has: %s)", where, n.Name(), n.Function(), r.name, target, subgraphNames(subs))
			}
		}
	}
	for _, sg := range subs {
		if sg.Graph == nil {
			return fmt.Errorf("%ssubgraph %s has no graph", where, sg.Name)
		}
		if err := checkSubgraphRefs(sg.Graph, sg.Subgraphs, where+"subgraph "+sg.Name+": "); err != nil {
			return err
		}
	}
	return nil
}

func findSubgraph(subs []Subgraph, name string) *Subgraph {
	for i := range subs {
		if subs[i].Name == name {
			return &subs[i]
		}
	}
	return nil
}

func subgraphNames(subs []Subgraph) string {
	if len(subs) == 0 {
		return "none"
	}
	names := make([]string, len(subs))
	for i, sg := range subs {
		names[i] = sg.Name
	}
	return strings.Join(names, ", ")
}

// runRoot returns the module tree a run interprets the program over: an
// empty root holding the subgraphs as GraphModules under their names (the
// graphs themselves, not copies: a run does not change them), after
// checking that every higher-order operator's graph reference resolves.
func (ep *ExportedProgram) runRoot() (nn.Module, error) {
	root := emptyModule()
	if len(ep.subgraphs) == 0 && !callsHOP(ep.Graph) {
		return root, nil
	}
	if err := checkSubgraphRefs(ep.Graph, ep.subgraphs, ""); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	if err := attachRunSubgraphs(&root.Base, ep.subgraphs); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return root, nil
}

// callsHOP reports whether g calls a higher-order operator.
func callsHOP(g *graph.Graph) bool {
	for n := range g.Nodes() {
		if n.Op() == node.CallFunction {
			if _, ok := hopGraphArgs[n.Function()]; ok {
				return true
			}
		}
	}
	return false
}

func attachRunSubgraphs(b *nn.Base, subs []Subgraph) error {
	for _, sg := range subs {
		r := emptyModule()
		if err := attachRunSubgraphs(&r.Base, sg.Subgraphs); err != nil {
			return err
		}
		gm, err := fx.NewGraphModule(r, sg.Graph)
		if err != nil {
			return fmt.Errorf("subgraph %s: %w", sg.Name, err)
		}
		nn.RegisterModule(b, sg.Name, gm)
	}
	return nil
}
