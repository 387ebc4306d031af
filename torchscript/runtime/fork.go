package runtime

import (
	"fmt"

	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/types"
)

// Future is the value of torch.jit.fork (prim::fork): the forked call's
// result. The interpreter runs a forked call at once, on the forking
// goroutine, so its result is known when the fork returns and wait gives
// it back: deterministic, and what PyTorch computes (a fork only changes
// when its work runs).
type Future struct {
	// Type is the future's type (Future[T]), nil when unknown.
	Type *types.Future
	// Value is the forked call's result.
	Value any
}

// fork runs prim::fork: the node's Subgraph on its inputs, its result
// wrapped in a Future.
func (fr *frame) fork(n *ir.Node) error {
	a, ok := n.Attr("Subgraph")
	g, isGraph := a.Value.(*ir.Graph)
	if !ok || a.Kind != ir.AttrGraph || !isGraph || g == nil {
		return fmt.Errorf("prim::fork has no Subgraph")
	}
	if len(g.Inputs()) != len(n.Inputs) {
		return fmt.Errorf("prim::fork's subgraph takes %d inputs, the node has %d", len(g.Inputs()), len(n.Inputs))
	}
	out, err := fr.in.run(&Function{Name: "prim::fork", Graph: g}, fr.inputs(n), fr.depth+1)
	if err != nil {
		return err
	}
	if len(out) != 1 {
		return fmt.Errorf("prim::fork's subgraph returns %d values, not one", len(out))
	}
	ft, _ := n.Outputs[0].Type.(*types.Future)
	return fr.setOutput(n, &Future{Type: ft, Value: out[0]})
}

// wait runs aten::wait: the future's value.
func (fr *frame) wait(n *ir.Node) error {
	in := fr.inputs(n)
	f, ok := in[0].(*Future)
	if len(in) != 1 || !ok {
		return fmt.Errorf("aten::wait expects a Future, got %s", TypeName(in[0]))
	}
	return fr.setOutput(n, f.Value)
}
