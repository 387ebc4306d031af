package convert

import (
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/runtime"
	"github.com/gofx/gofx/torchscript/types"
)

// fork evaluates prim::fork (torch.jit.fork) in place: its subgraph runs
// on the node's inputs as an inlined call, and the node's value is a
// Future holding the result, which aten::wait gives back. The forked
// call's operators are thus recorded where the fork is, in the program's
// order: an ExportedProgram is one sequential graph, and a fork of a pure
// call only changes when its work runs.
func (c *converter) fork(n *ir.Node, e env, in []any) error {
	a, ok := n.Attr("Subgraph")
	g, isGraph := a.Value.(*ir.Graph)
	if !ok || !isGraph || g == nil {
		return c.fail(n, "prim::fork has no Subgraph")
	}
	if len(g.Inputs()) != len(in) {
		return c.fail(n, "the forked graph takes %d inputs, the node has %d", len(g.Inputs()), len(in))
	}
	c.calls = append(c.calls, callFrame{site: n, fn: "__forked_function"})
	out, err := c.run(g, in)
	c.calls = c.calls[:len(c.calls)-1]
	if err != nil {
		return err
	}
	if len(out) != 1 {
		return c.fail(n, "the forked graph returns %d values, not one", len(out))
	}
	ft, _ := n.Outputs[0].Type.(*types.Future)
	return c.set(n, e, []any{&runtime.Future{Type: ft, Value: out[0]}})
}
