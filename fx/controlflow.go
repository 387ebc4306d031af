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
func (p *policy) LiftKey(n *node.Node) (string, bool) {
	if n.Op() != node.GetAttr {
		return "", false
	}
	return "l__self___" + flatName(n.Target().String()), true
}

// PredicateArg records the predicate as its node.
func (p *policy) PredicateArg(r *record.Recorder, pred nn.Value) (node.Arg, error) {
	return r.Arg(pred)
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
