package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// The full-sequence recurrent operators of ATen's RNN.cpp: aten::lstm,
// gru, rnn_tanh and rnn_relu (their .input overloads), which exported
// nn.LSTM, nn.GRU and nn.RNN modules call. They run the cells of rnn.go
// over every time step, layer and direction the way ATen's FullLayer and
// FullBidirectionalLayer do on CPU: the input projection of a layer is one
// linear over all its time steps, each step adds the hidden projection to
// it (gates = linear(h, w_hh, b_hh) + ih[t]), LSTM gates split into
// i, f, g, o and GRU gates into r, z, n; the reverse direction runs the
// sequence backwards and its outputs are concatenated after the forward
// ones; dropout (when train and dropout > 0) applies between layers.

// rnnKind is the cell a full-sequence operator runs.
type rnnKind int

const (
	rnnLSTM rnnKind = iota
	rnnGRU
	rnnTanh
	rnnReLU
)

// registerRNNSeq registers the kernels of rnn_seq.go.
func registerRNNSeq() {
	registerBoth("aten::lstm.input", func(c *ops.Call) ([]any, error) { return rnnSeq(c, rnnLSTM) })
	registerBoth("aten::gru.input", func(c *ops.Call) ([]any, error) { return rnnSeq(c, rnnGRU) })
	registerBoth("aten::rnn_tanh.input", func(c *ops.Call) ([]any, error) { return rnnSeq(c, rnnTanh) })
	registerBoth("aten::rnn_relu.input", func(c *ops.Call) ([]any, error) { return rnnSeq(c, rnnReLU) })
}

// rnnLayer holds the weights of one layer and direction.
type rnnLayer struct {
	wih, whh, bih, bhh, whr *tensor.Tensor // bih, bhh, whr may be nil
}

// rnnSeq is the .input overload of lstm, gru, rnn_tanh and rnn_relu:
// input is [seq, batch, input_size] ([batch, seq, input_size] when
// batch_first), hx is [layers*directions, batch, hidden] (for LSTM the
// pair h0, c0, where h0's last dimension is proj_size when the layers
// have a projection w_hr), and params holds, per layer and direction,
// w_ih, w_hh, then b_ih, b_hh when has_biases, then w_hr when projected.
// It returns the last layer's outputs at every step and the final hidden
// (and cell) state of every layer and direction.
func rnnSeq(c *ops.Call, kind rnnKind) ([]any, error) {
	input := c.Tensor("input")
	var h0, c0 *tensor.Tensor
	if kind == rnnLSTM {
		hs := c.Tensors("hx")
		if len(hs) != 2 {
			return nil, c.Errorf("hx", "lstm expects two hidden states (h0, c0), got %d", len(hs))
		}
		h0, c0 = hs[0], hs[1]
	} else {
		h0 = c.Tensor("hx")
	}
	params := c.Tensors("params")
	hasBiases, layers := c.Bool("has_biases"), int(c.Int("num_layers"))
	dropout, train := c.Float("dropout"), c.Bool("train")
	dirs := 1
	if c.Bool("bidirectional") {
		dirs = 2
	}
	if input.Dim() != 3 {
		return nil, c.Errorf("input", "expected a 3-D input, got %d-D", input.Dim())
	}
	if layers < 1 {
		return nil, c.Errorf("num_layers", "expected at least one layer, got %d", layers)
	}
	batchFirst := c.Bool("batch_first")
	if batchFirst {
		input = tensor.Must(input.Transpose(0, 1))
	}
	steps, batch := input.Size(0), input.Size(1)
	if steps == 0 {
		return nil, c.Errorf("input", "expected a sequence of at least one step, got 0")
	}
	if h0.Dim() != 3 || h0.Size(0) != layers*dirs || h0.Size(1) != batch {
		return nil, c.Errorf("hx", "expected hidden state of shape [%d, %d, hidden_size], got %s", layers*dirs, batch, shapeString(h0.Shape()))
	}
	proj := false
	if kind == rnnLSTM {
		if c0.Dim() != 3 || c0.Size(0) != layers*dirs || c0.Size(1) != batch {
			return nil, c.Errorf("hx", "expected cell state of shape [%d, %d, hidden_size], got %s", layers*dirs, batch, shapeString(c0.Shape()))
		}
		proj = h0.Size(2) != c0.Size(2)
	}
	per := 2
	if hasBiases {
		per += 2
	}
	if proj {
		per++
	}
	if len(params) != per*layers*dirs {
		return nil, c.Errorf("params", "expected %d weights (%d per layer and direction), got %d", per*layers*dirs, per, len(params))
	}
	gates := map[rnnKind]int{rnnLSTM: 4, rnnGRU: 3, rnnTanh: 1, rnnReLU: 1}[kind]
	p := &chain{c: c, arg: "params"}
	var hys, cys []*tensor.Tensor
	x := input
	for l := 0; l < layers; l++ {
		outs := make([]*tensor.Tensor, dirs)
		for d := 0; d < dirs; d++ {
			i := l*dirs + d
			w := params[i*per : (i+1)*per]
			lw := rnnLayer{wih: w[0], whh: w[1]}
			if hasBiases {
				lw.bih, lw.bhh = w[2], w[3]
			}
			if proj {
				lw.whr = w[per-1]
			}
			if lw.wih.Dim() != 2 || lw.whh.Dim() != 2 || lw.wih.Size(1) != x.Size(2) || lw.wih.Size(0)%gates != 0 {
				return nil, c.Errorf("params", "layer %d direction %d: w_ih of shape %s does not take an input of size %d", l, d, shapeString(lw.wih.Shape()), x.Size(2))
			}
			var ci *tensor.Tensor
			if c0 != nil {
				ci = tensor.Must(c0.Select(0, i))
			}
			out, hy, cy := rnnDirection(p, kind, gates, x, tensor.Must(h0.Select(0, i)), ci, lw, d == 1)
			if p.err != nil {
				return nil, p.err
			}
			outs[d] = out
			hys = append(hys, hy)
			cys = append(cys, cy)
		}
		x = outs[0]
		if dirs == 2 {
			x = p.call("aten::cat", outs, int64(2))
		}
		if dropout > 0 && train && l < layers-1 {
			x = p.call("aten::dropout", x, dropout, true)
		}
	}
	hy := p.call("aten::stack", hys, int64(0))
	if p.err != nil {
		return nil, p.err
	}
	if batchFirst {
		x = tensor.Must(x.Transpose(0, 1))
	}
	if kind != rnnLSTM {
		return []any{x, hy}, nil
	}
	cy := p.call("aten::stack", cys, int64(0))
	if p.err != nil {
		return nil, p.err
	}
	return []any{x, hy, cy}, nil
}

// rnnDirection runs one layer in one direction over x [seq, batch, in]
// from the hidden state h (and for LSTM the cell state cs), backwards when
// reverse. It returns the outputs [seq, batch, hidden] in time order and
// the last hidden and cell states.
func rnnDirection(p *chain, kind rnnKind, gates int, x, h, cs *tensor.Tensor, w rnnLayer, reverse bool) (out, hy, cy *tensor.Tensor) {
	var bih, bhh any
	if w.bih != nil {
		bih, bhh = w.bih, w.bhh
	}
	ih := p.call("aten::linear", x, w.wih, bih)
	steps := x.Size(0)
	outs := make([]*tensor.Tensor, steps)
	for s := 0; s < steps && p.err == nil; s++ {
		t := s
		if reverse {
			t = steps - 1 - s
		}
		xi := tensor.Must(ih.Select(0, t))
		hh := p.call("aten::linear", h, w.whh, bhh)
		if p.err != nil {
			break
		}
		switch kind {
		case rnnLSTM:
			g := p.chunk(p.call("aten::add.Tensor", hh, xi), gates)
			if p.err != nil {
				break
			}
			in := p.call("aten::sigmoid", g[0])
			forget := p.call("aten::sigmoid", g[1])
			cell := p.call("aten::tanh", g[2])
			og := p.call("aten::sigmoid", g[3])
			cs = p.call("aten::add.Tensor", p.call("aten::mul.Tensor", forget, cs), p.call("aten::mul.Tensor", in, cell))
			h = p.call("aten::mul.Tensor", og, p.call("aten::tanh", cs))
			if w.whr != nil && p.err == nil {
				h = p.call("aten::matmul", h, tensor.Must(w.whr.T()))
			}
		case rnnGRU:
			ig, hg := p.chunk(xi, gates), p.chunk(hh, gates)
			if p.err != nil {
				break
			}
			r := p.call("aten::sigmoid", p.call("aten::add.Tensor", hg[0], ig[0]))
			z := p.call("aten::sigmoid", p.call("aten::add.Tensor", hg[1], ig[1]))
			n := p.call("aten::tanh", p.call("aten::add.Tensor", ig[2], p.call("aten::mul.Tensor", hg[2], r)))
			h = p.call("aten::add.Tensor", p.call("aten::mul.Tensor", p.call("aten::sub.Tensor", h, n), z), n)
		case rnnTanh:
			h = p.call("aten::tanh", p.call("aten::add.Tensor", hh, xi))
		case rnnReLU:
			h = p.call("aten::relu", p.call("aten::add.Tensor", hh, xi))
		}
		outs[t] = h
	}
	if p.err != nil {
		return nil, nil, nil
	}
	return p.call("aten::stack", outs, int64(0)), h, cs
}
