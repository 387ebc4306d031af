package frontend

import (
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/syntax"
	"github.com/gofx/gofx/torchscript/types"
)

// fork compiles `fork(closure)`, the form python_print writes for
// torch.jit.fork: a prim::fork node whose Subgraph attribute is the lifted
// closure, whose inputs are the values the closure captures and whose
// output is a Future of the closure's result (what PyTorch's
// inlineForkedClosures leaves of prim::forkClosure). torch.wait(fut) is
// then the registered operator aten::wait(Future(t) self) -> t.
func (e *emitter) fork(c *syntax.Call) (sugared, error) {
	if len(c.Args) != 1 || len(c.Keywords) > 0 {
		return nil, e.f.errorf(c, "fork takes one closure (the serialized form of torch.jit.fork: a nested def, then fork(name))")
	}
	fun, err := e.expr(c.Args[0], nil)
	if err != nil {
		return nil, err
	}
	cl, ok := fun.(closureValue)
	if !ok {
		return nil, e.f.errorf(c.Args[0], "fork of %s: only a closure (a nested def) can be forked here", describe(fun))
	}
	// each fork gets its own copy of the subgraph, as each
	// inlineForkedClosure copies the closure's
	g, err := cl.graph.Copy()
	if err != nil {
		return nil, e.f.errorf(c, "fork of %s: %v", cl.name, err)
	}
	n := e.insert("prim::fork", cl.captures, &types.Future{Elem: cl.ret})
	n.SetAttr(ir.Attr{Name: "Subgraph", Kind: ir.AttrGraph, Value: g})
	e.setSource(n, c)
	return n.Output(), nil
}
