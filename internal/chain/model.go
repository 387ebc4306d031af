package chain

import "github.com/gofx/gofx/nn"

// Block is Block of ../shared/bench/fx_chain.py: relu(add(lin(x), 1.0))
// with lin a Linear(16, 16).
type Block struct {
	nn.Base
	Lin *nn.Linear
}

// NewBlock returns a Block with freshly initialized weights.
func NewBlock() *Block {
	b := &Block{}
	b.Init(b, "Block")
	b.Lin = nn.RegisterModule(&b.Base, "lin", nn.NewLinear(16, 16, true))
	return b
}

// Forward computes relu(lin(x) + 1.0). Traced, a block is a call_module
// (lin), an aten.add.Tensor call_function and a relu call_method.
func (b *Block) Forward(x nn.Value) nn.Value { return b.Lin.Call(x).Add(1.0).Relu() }

// Model is Chain of fx_chain.py: n Blocks in a ModuleList named blocks,
// applied in order. Its input is a [1, 16] float tensor.
type Model struct {
	nn.Base
	Blocks *nn.ModuleList
}

// NewModel returns a Model of n blocks.
func NewModel(n int) *Model {
	m := &Model{}
	m.Init(m, "Chain")
	bs := make([]nn.Module, n)
	for i := range bs {
		bs[i] = NewBlock()
	}
	m.Blocks = nn.RegisterModule(&m.Base, "blocks", nn.NewModuleList(bs...))
	return m
}

// Forward applies the blocks in order.
func (m *Model) Forward(x nn.Value) nn.Value {
	for _, b := range m.Blocks.All() {
		x = nn.Call(b, x)
	}
	return x
}
