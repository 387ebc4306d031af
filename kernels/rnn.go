package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Recurrent cells, ATen's RNN.cpp: rnn_tanh_cell, rnn_relu_cell, gru_cell
// and lstm_cell, one time step of nn.RNNCell, nn.GRUCell and nn.LSTMCell.
// They compose registered operators (linear, add, sigmoid, tanh, mul) in
// the order ATen's cells apply them, so the values round as PyTorch's do
// and the meta functions come from those operators' meta functions.

// registerRNN registers the kernels of rnn.go.
func registerRNN() {
	registerBoth("aten::rnn_tanh_cell", func(c *ops.Call) ([]any, error) { return simpleCell(c, "aten::tanh") })
	registerBoth("aten::rnn_relu_cell", func(c *ops.Call) ([]any, error) { return simpleCell(c, "aten::relu") })
	registerBoth("aten::gru_cell", gruCell)
	registerBoth("aten::lstm_cell", lstmCell)
}

// linear is at::linear(x, w, b) with an optional bias argument.
func (p *chain) linear(x *tensor.Tensor, w, b string) *tensor.Tensor {
	var bias any
	if !p.c.IsNone(b) {
		bias = p.c.Tensor(b)
	}
	return p.call("aten::linear", x, p.c.Tensor(w), bias)
}

// chunk splits t into n equal parts along dimension 1 (unsafe_chunk).
func (p *chain) chunk(t *tensor.Tensor, n int) []*tensor.Tensor {
	if p.err != nil {
		return nil
	}
	size := t.Size(1)
	if size%n != 0 {
		p.err = p.c.Errorf("w_ih", "the gates have %d columns, which do not split into %d chunks", size, n)
		return nil
	}
	out := make([]*tensor.Tensor, n)
	for i := range out {
		out[i] = tensor.Must(t.Narrow(1, i*size/n, size/n))
	}
	return out
}

// checkCell makes ATen's input checks of a cell (check_rnn_cell_forward_input
// and _hidden): input is [batch, input_size] with input_size w_ih's second
// dimension, and hx is [batch, hidden_size] with hidden_size w_hh's
// second dimension.
func checkCell(c *ops.Call, hx *tensor.Tensor, hxArg string) error {
	input, wih, whh := c.Tensor("input"), c.Tensor("w_ih"), c.Tensor("w_hh")
	if input.Dim() != 2 {
		return c.Errorf("input", "expected a 2-D [batch, input_size] input, got %d-D", input.Dim())
	}
	if wih.Dim() != 2 || whh.Dim() != 2 {
		return c.Errorf("w_ih", "expected 2-D weights, got w_ih of %d-D and w_hh of %d-D", wih.Dim(), whh.Dim())
	}
	if input.Size(1) != wih.Size(1) {
		return c.Errorf("input", "input has inconsistent input_size: got %d expected %d", input.Size(1), wih.Size(1))
	}
	if hx.Dim() != 2 {
		return c.Errorf(hxArg, "expected a 2-D [batch, hidden_size] hidden state, got %d-D", hx.Dim())
	}
	if input.Size(0) != hx.Size(0) {
		return c.Errorf(hxArg, "Input batch size %d doesn't match hidden0 batch size %d", input.Size(0), hx.Size(0))
	}
	if hx.Size(1) != whh.Size(1) {
		return c.Errorf(hxArg, "hidden0 has inconsistent hidden_size: got %d, expected %d", hx.Size(1), whh.Size(1))
	}
	return nil
}

// simpleCell is rnn_tanh_cell and rnn_relu_cell:
// act(linear(hx, w_hh, b_hh) + linear(input, w_ih, b_ih)).
func simpleCell(c *ops.Call, act string) ([]any, error) {
	hx := c.Tensor("hx")
	if err := checkCell(c, hx, "hx"); err != nil {
		return nil, err
	}
	p := &chain{c: c}
	g := p.call("aten::add.Tensor", p.linear(hx, "w_hh", "b_hh"), p.linear(c.Tensor("input"), "w_ih", "b_ih"))
	out := p.call(act, g)
	if p.err != nil {
		return nil, p.err
	}
	return one(out), nil
}

// gruCell is aten::gru_cell: with the gates r, z, n of the input (i) and
// hidden (h) projections, r = σ(h_r + i_r), z = σ(h_z + i_z),
// n = tanh(i_n + h_n*r) and h' = (hx - n)*z + n.
func gruCell(c *ops.Call) ([]any, error) {
	hx := c.Tensor("hx")
	if err := checkCell(c, hx, "hx"); err != nil {
		return nil, err
	}
	p := &chain{c: c}
	ig := p.chunk(p.linear(c.Tensor("input"), "w_ih", "b_ih"), 3)
	hg := p.chunk(p.linear(hx, "w_hh", "b_hh"), 3)
	if p.err != nil {
		return nil, p.err
	}
	r := p.call("aten::sigmoid", p.call("aten::add.Tensor", hg[0], ig[0]))
	z := p.call("aten::sigmoid", p.call("aten::add.Tensor", hg[1], ig[1]))
	n := p.call("aten::tanh", p.call("aten::add.Tensor", ig[2], p.call("aten::mul.Tensor", hg[2], r)))
	h := p.call("aten::add.Tensor", p.call("aten::mul.Tensor", p.call("aten::sub.Tensor", hx, n), z), n)
	if p.err != nil {
		return nil, p.err
	}
	return one(h), nil
}

// lstmCell is aten::lstm_cell: hx is (h, c); the gates
// linear(h, w_hh, b_hh) + linear(input, w_ih, b_ih) split into i, f, g, o;
// c' = σ(f)*c + σ(i)*tanh(g) and h' = σ(o)*tanh(c'). It returns (h', c').
func lstmCell(c *ops.Call) ([]any, error) {
	hx := c.Tensors("hx")
	if len(hx) != 2 {
		return nil, c.Errorf("hx", "lstm_cell expects two hidden states")
	}
	if err := checkCell(c, hx[0], "hx"); err != nil {
		return nil, err
	}
	p := &chain{c: c}
	gates := p.call("aten::add.Tensor", p.linear(hx[0], "w_hh", "b_hh"), p.linear(c.Tensor("input"), "w_ih", "b_ih"))
	g := p.chunk(gates, 4)
	if p.err != nil {
		return nil, p.err
	}
	in := p.call("aten::sigmoid", g[0])
	forget := p.call("aten::sigmoid", g[1])
	cell := p.call("aten::tanh", g[2])
	out := p.call("aten::sigmoid", g[3])
	cy := p.call("aten::add.Tensor", p.call("aten::mul.Tensor", forget, hx[1]), p.call("aten::mul.Tensor", in, cell))
	hy := p.call("aten::mul.Tensor", out, p.call("aten::tanh", cy))
	if p.err != nil {
		return nil, p.err
	}
	return []any{hy, cy}, nil
}
