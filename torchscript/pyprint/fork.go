package pyprint

import "github.com/gofx/gofx/torchscript/ir"

// printFork prints prim::fork as python_print does: its Subgraph as a
// nested function (`def __forked_function():`, whose inputs read as the
// fork's inputs), then `fut = fork(__forked_function)`.
func (p *printer) printFork(n *ir.Node) {
	a, ok := n.Attr("Subgraph")
	g, isGraph := a.Value.(*ir.Graph)
	if !ok || !isGraph || g == nil {
		fail("prim::fork has no Subgraph")
	}
	if len(g.Inputs()) != len(n.Inputs) {
		fail("prim::fork's subgraph takes %d inputs, the node has %d", len(g.Inputs()), len(n.Inputs))
	}
	name := p.genName("__forked_function")
	p.indent()
	p.body.WriteString("def " + name + "():\n")
	for i, in := range g.Inputs() {
		p.exprs[in] = p.useOf(n.Inputs[i])
	}
	p.printBody(g.Block())
	p.printOutputDefinition(n, "fork("+name+")")
}
