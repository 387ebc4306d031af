package fx

import (
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// Proxy stands for a value computed by the program being traced: model
// code receives Proxies (inside nn.Values) instead of tensors, and every
// operation on them records a node instead of computing.
//
// A Proxy for one element of an operator's tuple result (aten::topk's
// values) is lazy: its operator.getitem node is created only when the
// element is used, and a tuple of all the elements in order is recorded as
// the operator's node itself, as torch.fx records `return torch.topk(x, 3)`.
type Proxy struct {
	rec    *recorder
	n      *node.Node
	parent *Proxy // for a lazy tuple element
	index  int
}

// Tracer returns the recorder the proxy belongs to (ops.Symbolic).
func (p *Proxy) Tracer() ops.Tracer { return p.rec }

// Node returns the node the proxy stands for, creating the getitem node of
// a lazy tuple element.
func (p *Proxy) Node() *node.Node {
	if p.n == nil && p.parent != nil {
		n, err := p.rec.create(node.CallFunction, getItemFn, []node.Arg{p.parent.Node(), node.Int(p.index)}, nil)
		if err != nil {
			panic(err)
		}
		p.n = n
	}
	return p.n
}

// String returns "Proxy(name)".
func (p *Proxy) String() string { return "Proxy(" + p.Node().Name() + ")" }
