package fx

import (
	"github.com/gofx/gofx/internal/record"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
)

// Structured control flow while tracing (functional.Cond, WhileLoop,
// Map): fx's answers to the recorder's record.Subgraphs. Branch values
// are plain proxies; parameters, buffers and constants a branch reads are
// get_attr nodes of the root graph, lifted into the branch's operands.

var _ record.Subgraphs = (*policy)(nil)

// SubgraphInput returns the proxy of a branch's placeholder.
func (p *policy) SubgraphInput(r *record.Recorder, n, _ *node.Node, _ bool) (nn.Value, error) {
	return nn.Of(r.NewProxy(n, nil)), nil
}

// SubgraphResult returns the proxy of a higher-order node's result.
func (p *policy) SubgraphResult(r *record.Recorder, n, _, _ *node.Node) (nn.Value, error) {
	return nn.Of(r.NewProxy(n, nil)), nil
}

// SameValue accepts any pair: symbolic tracing knows no dtypes or shapes.
func (p *policy) SameValue(_, _ *node.Node) error { return nil }

// EnterSubgraph has nothing to save: get_attr nodes are the root's.
func (p *policy) EnterSubgraph(*record.Recorder) func() { return func() {} }

// LiftKey lets get_attr nodes of the root graph (parameters, buffers,
// constants) be lifted into branches, keyed by Dynamo's names.
//
// A number of the enclosing graph computed from sizes (n := x.Size(0),
// x.shape[1], their Python arithmetic, an item()) that a branch or body
// closes over is lifted as an operand too, as torch.export 2.14 lifts an
// outer symbolic size (before a cond's operands; appended to while_loop's
// additional inputs and map's extra inputs): the traced module then
// computes it from each call's inputs instead of baking in a constant.
// A tensor of the enclosing graph stays an error.
func (p *policy) LiftKey(n *node.Node) (string, bool) {
	if isNumberNode(n, 0) {
		return "\x00" + n.Name(), true
	}
	if n.Op() != node.GetAttr {
		return "", false
	}
	return "l__self___" + flatName(n.Target().String()), true
}

// PredicateArg records the predicate as its node.
func (p *policy) PredicateArg(r *record.Recorder, pred nn.Value) (node.Arg, error) {
	return r.Arg(pred)
}

// numberOps are the Python operators on numbers fx records (n + 1, n * m).
var numberOps = map[node.Function]bool{
	nn.OperatorAdd: true, nn.OperatorSub: true, nn.OperatorMul: true, nn.OperatorFloorDiv: true,
	nn.OperatorMod: true, nn.OperatorNeg: true, nn.OperatorTrueDiv: true, nn.OperatorPow: true,
}

// isNumberNode reports whether n computes a number from sizes or data:
// x.size(d), x.dim(), x.numel(), x.item(), x.shape[d] (getitem of
// getattr shape), and Python arithmetic on such numbers and constants.
func isNumberNode(n *node.Node, depth int) bool {
	if depth > 64 {
		return false
	}
	switch n.Op() {
	case node.CallMethod:
		switch n.Target().String() {
		case "size":
			return n.NumArgs() == 2 || len(n.Kwargs()) == 1
		case "dim", "numel", "item":
			return true
		}
	case node.CallFunction:
		fn, _ := n.Target().(node.Function)
		if fn == node.Function(nn.GetItem) && n.NumArgs() == 2 {
			shape, ok := n.Arg(0).(*node.Node)
			if !ok {
				return false
			}
			if shape.Op() == node.CallMethod && shape.Target().String() == "size" && shape.NumArgs() == 1 {
				return true
			}
			if f, _ := shape.Target().(node.Function); shape.Op() == node.CallFunction && f == node.Function(nn.GetAttr) && shape.NumArgs() == 2 {
				name, _ := shape.Arg(1).(node.Str)
				return name == "shape"
			}
			return false
		}
		if !numberOps[fn] {
			return false
		}
		numbers := 0
		for _, a := range n.Args() {
			switch x := a.(type) {
			case *node.Node:
				if !isNumberNode(x, depth+1) {
					return false
				}
				numbers++
			case node.Int, node.Float, node.Bool:
			default:
				return false
			}
		}
		return numbers > 0
	}
	return false
}

func flatName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '.' {
			b[i] = '_'
		}
	}
	return string(b)
}

// attachSubgraphs registers the subgraphs a trace recorded as GraphModules
// of gm under their names (true_graph_0, ...), as torch.export's module
// holds them. Each shares root's submodules, which the call_module leaves
// recorded inside a branch call (parameters and buffers a branch reads
// are lifted into its operands instead).
func attachSubgraphs(gm *GraphModule, root nn.Module, subs []record.Sub) error {
	for _, s := range subs {
		sub, err := newGraphModule(nil, s.Graph, nil)
		if err != nil {
			return err
		}
		if root != nil {
			for name, c := range root.ModuleBase().Children() {
				sub.AddModule(name, c)
			}
		}
		if err := attachSubgraphs(sub, root, s.Subs); err != nil {
			return err
		}
		gm.AddModule(s.Name, sub)
	}
	return nil
}
