package record

import (
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// Proxy stands for a value computed by the code being recorded: model
// code receives Proxies (inside nn.Values) instead of tensors, and every
// operation on them records a node instead of computing. It is the one
// proxy type of gofx's tracers (fx.Proxy is this type).
//
// A Proxy for one element of an operator's tuple result (aten::topk's
// values) is lazy: its operator.getitem node is created only when the
// element is used, and a tuple of all the elements in order is recorded as
// the operator's node itself, as torch.fx records `return torch.topk(x, 3)`.
type Proxy struct {
	rec    *Recorder
	n      *node.Node
	parent *Proxy // for a lazy tuple element
	index  int
	// data is what the recorder's policy keeps about the value (export's
	// fake tensor, decomp's meta tensor); nil for fx.
	data any
}

// Data returns what p's recorder's policy keeps about the value (for a
// lazy tuple element, once its node is created). It is a function, not a
// method, so that fx.Proxy does not show it.
func Data(p *Proxy) any {
	p.Node()
	return p.data
}

// Tracer returns the recorder the proxy belongs to (ops.Symbolic).
func (p *Proxy) Tracer() ops.Tracer { return p.rec }

// Node returns the node the proxy stands for, creating the getitem node of
// a lazy tuple element (with the data and val its recorder's policy gives
// it).
func (p *Proxy) Node() *node.Node {
	if p.n == nil && p.parent != nil {
		parent := p.parent.Node()
		data, val := p.rec.policy.Element(p.parent, p.index)
		n, err := p.rec.GetItem(parent, p.index, val)
		if err != nil {
			panic(err)
		}
		p.n, p.data = n, data
	}
	return p.n
}

// Rebind makes p stand for n from now on, with data: an in-place
// operator's proxy takes the node of its functional result.
func Rebind(p *Proxy, n *node.Node, data any) { p.n, p.data = n, data }

// RecorderOf returns the recorder p belongs to.
func RecorderOf(p *Proxy) *Recorder { return p.rec }

// String returns "Proxy(name)".
func (p *Proxy) String() string { return "Proxy(" + p.Node().Name() + ")" }
