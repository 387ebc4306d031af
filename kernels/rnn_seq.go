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
	registerBoth("aten::lstm.data", func(c *ops.Call) ([]any, error) { return rnnSeq(c, rnnLSTM) })
	registerBoth("aten::gru.data", func(c *ops.Call) ([]any, error) { return rnnSeq(c, rnnGRU) })
	registerBoth("aten::rnn_tanh.data", func(c *ops.Call) ([]any, error) { return rnnSeq(c, rnnTanh) })
	registerBoth("aten::rnn_relu.data", func(c *ops.Call) ([]any, error) { return rnnSeq(c, rnnReLU) })
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
// (and cell) state of every layer and direction. The .data overloads take
// a packed sequence instead: data [sum(batch_sizes), input_size] holds
// the steps one after another, step t with the first batch_sizes[t]
// sequences (batch_sizes non-increasing), as ATen's PackedLayer and
// ReversedPackedLayer run them; the outputs are packed the same way.
func rnnSeq(c *ops.Call, kind rnnKind) ([]any, error) {
	packed := hasArg(c, "batch_sizes")
	var input *tensor.Tensor
	var sizes []int
	if packed {
		input = c.Tensor("data")
		if meta(input, c.Tensor("batch_sizes")) {
			return packedMeta(c, kind, input)
		}
		var err error
		if sizes, err = packedSizes(c, input); err != nil {
			return nil, err
		}
	} else {
		input = c.Tensor("input")
	}
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
	if !packed && input.Dim() != 3 {
		return nil, c.Errorf("input", "expected a 3-D input, got %d-D", input.Dim())
	}
	if layers < 1 {
		return nil, c.Errorf("num_layers", "expected at least one layer, got %d", layers)
	}
	batchFirst := !packed && c.Bool("batch_first")
	if batchFirst {
		input = tensor.Must(input.Transpose(0, 1))
	}
	var batch int
	if packed {
		batch = sizes[0]
	} else {
		batch = input.Size(1)
		if input.Size(0) == 0 {
			return nil, c.Errorf("input", "expected a sequence of at least one step, got 0")
		}
	}
	feat := input.Dim() - 1
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
			if lw.wih.Dim() != 2 || lw.whh.Dim() != 2 || lw.wih.Size(1) != x.Size(feat) || lw.wih.Size(0)%gates != 0 {
				return nil, c.Errorf("params", "layer %d direction %d: w_ih of shape %s does not take an input of size %d", l, d, shapeString(lw.wih.Shape()), x.Size(feat))
			}
			var ci *tensor.Tensor
			if c0 != nil {
				ci = tensor.Must(c0.Select(0, i))
			}
			var out, hy, cy *tensor.Tensor
			if packed {
				out, hy, cy = rnnPackedDirection(p, kind, gates, x, sizes, tensor.Must(h0.Select(0, i)), ci, lw, d == 1)
			} else {
				out, hy, cy = rnnDirection(p, kind, gates, x, tensor.Must(h0.Select(0, i)), ci, lw, d == 1)
			}
			if p.err != nil {
				return nil, p.err
			}
			outs[d] = out
			hys = append(hys, hy)
			cys = append(cys, cy)
		}
		x = outs[0]
		if dirs == 2 {
			x = p.call("aten::cat", outs, int64(feat))
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
		h, cs = rnnStep(p, kind, gates, tensor.Must(ih.Select(0, t)), h, cs, w, bhh)
		outs[t] = h
	}
	if p.err != nil {
		return nil, nil, nil
	}
	return p.call("aten::stack", outs, int64(0)), h, cs
}

// rnnStep is one cell step from the precomputed input projection xi:
// gates = linear(h, w_hh, b_hh) + xi, then the cell of kind. It returns
// the new hidden (and, for LSTM, cell) state.
func rnnStep(p *chain, kind rnnKind, gates int, xi, h, cs *tensor.Tensor, w rnnLayer, bhh any) (*tensor.Tensor, *tensor.Tensor) {
	hh := p.call("aten::linear", h, w.whh, bhh)
	if p.err != nil {
		return nil, nil
	}
	switch kind {
	case rnnLSTM:
		g := p.chunk(p.call("aten::add.Tensor", hh, xi), gates)
		if p.err != nil {
			return nil, nil
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
			return nil, nil
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
	return h, cs
}

// packedSizes reads the batch_sizes of a packed sequence: a 1-D int64
// tensor of positive, non-increasing sizes summing to data's length.
func packedSizes(c *ops.Call, data *tensor.Tensor) ([]int, error) {
	bs := c.Tensor("batch_sizes")
	if data.Dim() != 2 {
		return nil, c.Errorf("data", "expected 2-D packed data [sum(batch_sizes), input_size], got %d-D", data.Dim())
	}
	if bs.Dim() != 1 || bs.DType() != tensor.Int64 || bs.Numel() == 0 {
		return nil, c.Errorf("batch_sizes", "expected a non-empty 1-D int64 batch_sizes, got %s of %s", scalarTypeName(bs.DType()), shapeString(bs.Shape()))
	}
	if bs.IsMeta() {
		return nil, c.Errorf("batch_sizes", "batch_sizes is data (the length of every step): it cannot be a meta tensor")
	}
	var sizes []int
	total := 0
	for i, v := range bs.Int64s() {
		if v <= 0 || i > 0 && int(v) > sizes[i-1] {
			return nil, c.Errorf("batch_sizes", "batch_sizes must be positive and non-increasing, got %v", bs.Int64s())
		}
		sizes = append(sizes, int(v))
		total += int(v)
	}
	if total != data.Size(0) {
		return nil, c.Errorf("batch_sizes", "batch_sizes sum to %d, but data has %d rows", total, data.Size(0))
	}
	return sizes, nil
}

// rnnPackedDirection is ATen's PackedLayer (and ReversedPackedLayer when
// reverse) over packed data x with the step sizes sizes: the hidden rows
// of sequences that end are set aside as their final states, and in
// reverse the rows of sequences that start are taken from h0.
func rnnPackedDirection(p *chain, kind rnnKind, gates int, x *tensor.Tensor, sizes []int, h0, c0 *tensor.Tensor, w rnnLayer, reverse bool) (out, hy, cy *tensor.Tensor) {
	var bih, bhh any
	if w.bih != nil {
		bih, bhh = w.bih, w.bhh
	}
	ih := p.call("aten::linear", x, w.wih, bih)
	if p.err != nil {
		return nil, nil, nil
	}
	rows := func(t *tensor.Tensor, a, b int) *tensor.Tensor {
		if t == nil {
			return nil
		}
		return tensor.Must(t.Narrow(0, a, b-a))
	}
	cat := func(ts []*tensor.Tensor) *tensor.Tensor {
		if len(ts) == 1 {
			return ts[0]
		}
		return p.call("aten::cat", ts, int64(0))
	}
	steps := len(sizes)
	outs := make([]*tensor.Tensor, steps)
	if !reverse {
		var hs, cs []*tensor.Tensor
		h, cc := h0, c0
		last, off := sizes[0], 0
		for t := 0; t < steps && p.err == nil; t++ {
			b := sizes[t]
			if b < last {
				hs = append(hs, rows(h, b, last))
				cs = append(cs, rows(cc, b, last))
				h, cc = rows(h, 0, b), rows(cc, 0, b)
			}
			last = b
			h, cc = rnnStep(p, kind, gates, rows(ih, off, off+b), h, cc, w, bhh)
			off += b
			outs[t] = h
		}
		if p.err != nil {
			return nil, nil, nil
		}
		hs, cs = append(hs, h), append(cs, cc)
		for i, j := 0, len(hs)-1; i < j; i, j = i+1, j-1 {
			hs[i], hs[j] = hs[j], hs[i]
			cs[i], cs[j] = cs[j], cs[i]
		}
		hy = cat(hs)
		if c0 != nil {
			cy = cat(cs)
		}
		return cat(outs), hy, cy
	}
	off := x.Size(0)
	last := sizes[steps-1]
	h, cc := rows(h0, 0, last), rows(c0, 0, last)
	for t := steps - 1; t >= 0 && p.err == nil; t-- {
		b := sizes[t]
		if b > last {
			h = cat([]*tensor.Tensor{h, rows(h0, last, b)})
			if c0 != nil {
				cc = cat([]*tensor.Tensor{cc, rows(c0, last, b)})
			}
		}
		last = b
		h, cc = rnnStep(p, kind, gates, rows(ih, off-b, off), h, cc, w, bhh)
		off -= b
		outs[t] = h
	}
	if p.err != nil {
		return nil, nil, nil
	}
	return cat(outs), h, cc
}

// packedMeta is the meta function of the .data overloads: the packed
// output [len(data), directions*hidden] and the final states of hx's
// shapes (the step sizes do not change them).
func packedMeta(c *ops.Call, kind rnnKind, data *tensor.Tensor) ([]any, error) {
	if data.Dim() != 2 {
		return nil, c.Errorf("data", "expected 2-D packed data [sum(batch_sizes), input_size], got %d-D", data.Dim())
	}
	var hx []*tensor.Tensor
	if kind == rnnLSTM {
		hx = c.Tensors("hx")
		if len(hx) != 2 {
			return nil, c.Errorf("hx", "lstm expects two hidden states (h0, c0), got %d", len(hx))
		}
	} else {
		hx = []*tensor.Tensor{c.Tensor("hx")}
	}
	if hx[0].Dim() != 3 {
		return nil, c.Errorf("hx", "expected a 3-D hidden state, got %d-D", hx[0].Dim())
	}
	dirs := 1
	if c.Bool("bidirectional") {
		dirs = 2
	}
	out := []any{tensor.Must(tensor.NewMeta(data.DType(), data.Size(0), dirs*hx[0].Size(2)))}
	for _, h := range hx {
		out = append(out, tensor.Must(tensor.NewMeta(h.DType(), h.Shape()...)))
	}
	return out, nil
}
