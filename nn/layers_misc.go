package nn

import (
	"fmt"

	"github.com/gofx/gofx/tensor"
)

var (
	opEmbedding = Op("aten::embedding")
	opDropout   = Op("aten::dropout")
)

// Embedding is torch.nn.Embedding: a lookup table of NumEmbeddings rows of
// EmbeddingDim values (parameter "weight"), indexed by an integer tensor.
// PyTorch's max_norm, scale_grad_by_freq and sparse are not supported.
type Embedding struct {
	Base
	NumEmbeddings, EmbeddingDim int
	PaddingIdx                  int  // meaningful when HasPaddingIdx; normalized to 0 ≤ i < NumEmbeddings
	HasPaddingIdx               bool // PyTorch's padding_idx is not None
	Weight                      *Parameter
}

// NewEmbedding returns an Embedding of num rows of dim values, drawn from
// N(0, 1) as PyTorch initializes it (the PaddingIdx row zero):
//
//	nn.NewEmbedding(1000, 64, nn.PaddingIdx(0))
func NewEmbedding(num, dim int, opts ...EmbeddingOption) *Embedding {
	l := &Embedding{NumEmbeddings: num, EmbeddingDim: dim}
	l.Init(l, "Embedding")
	c := configure(&l.Base, []string{"padding_idx"}, opts)
	if num < 0 || dim < 0 {
		l.Fail(fmt.Errorf("Embedding: num_embeddings and embedding_dim must be non-negative, got %d and %d", num, dim))
		num, dim = max(num, 0), max(dim, 0)
	}
	if c.paddingIdxGiven {
		i := c.paddingIdx
		switch {
		case i >= num:
			l.Fail(fmt.Errorf("Embedding: Padding_idx must be within num_embeddings"))
		case i < -num:
			l.Fail(fmt.Errorf("Embedding: Padding_idx must be within num_embeddings"))
		case i < 0:
			i += num
		}
		l.PaddingIdx, l.HasPaddingIdx = i, true
	}
	w, err := Normal(num, dim)
	l.Fail(err)
	if err == nil && l.HasPaddingIdx && l.PaddingIdx >= 0 && l.PaddingIdx < num {
		vals := w.Float64s()
		clear(vals[l.PaddingIdx*dim : (l.PaddingIdx+1)*dim])
		w, err = tensor.FromFloat64s(tensor.Float32, vals, num, dim)
		l.Fail(err)
	}
	l.Weight = l.RegisterParameter("weight", w)
	return l
}

// Forward computes aten::embedding(weight, indices, padding_idx).
func (l *Embedding) Forward(indices Value) Value {
	pad := -1
	if l.HasPaddingIdx {
		pad = l.PaddingIdx
	}
	return CallOp(opEmbedding, l.Weight.Value(), indices, pad)
}

// Call is Call(l, indices).
func (l *Embedding) Call(indices Value) Value { return Call(l, indices) }

// ArgNames names Forward's input as PyTorch does ("input").
func (l *Embedding) ArgNames() []string { return []string{"input"} }

// ExtraRepr is what PyTorch prints between the parentheses:
// `10, 3, padding_idx=0`.
func (l *Embedding) ExtraRepr() string {
	s := fmt.Sprintf("%d, %d", l.NumEmbeddings, l.EmbeddingDim)
	if l.HasPaddingIdx {
		s += fmt.Sprintf(", padding_idx=%d", l.PaddingIdx)
	}
	return s
}

// Dropout is torch.nn.Dropout: in training mode it zeroes each element
// with probability P and scales the others by 1/(1-P) (aten::dropout with
// train=True); in evaluation mode it returns its input.
type Dropout struct {
	Base
	P float64
}

// NewDropout returns a Dropout layer; p outside [0, 1] is a construction
// error.
func NewDropout(p float64) *Dropout {
	l := &Dropout{P: p}
	l.Init(l, "Dropout")
	if !(p >= 0 && p <= 1) {
		l.Fail(fmt.Errorf("Dropout: dropout probability has to be between 0 and 1, but got %s", pyFloat(p)))
	}
	return l
}

// Forward computes aten::dropout(x, p, True) in training mode and returns
// x in evaluation mode.
func (l *Dropout) Forward(x Value) Value {
	if !l.Training() {
		return x
	}
	return CallOp(opDropout, x, l.P, true)
}

// Call is Call(l, x).
func (l *Dropout) Call(x Value) Value { return Call(l, x) }

// ExtraRepr is what PyTorch prints between the parentheses:
// `p=0.5, inplace=False`.
func (l *Dropout) ExtraRepr() string { return fmt.Sprintf("p=%s, inplace=False", pyFloat(l.P)) }

// Flatten is torch.nn.Flatten: dimensions StartDim to EndDim (negative
// counting from the end) merged into one.
type Flatten struct {
	Base
	StartDim, EndDim int
}

// NewFlatten returns a Flatten layer over dimensions start to end
// (PyTorch's defaults are 1 and -1).
func NewFlatten(start, end int) *Flatten {
	l := &Flatten{StartDim: start, EndDim: end}
	l.Init(l, "Flatten")
	return l
}

// Forward computes aten::flatten.using_ints(x, start_dim, end_dim).
func (l *Flatten) Forward(x Value) Value { return CallOp(opFlatten, x, l.StartDim, l.EndDim) }

// Call is Call(l, x).
func (l *Flatten) Call(x Value) Value { return Call(l, x) }

// ExtraRepr is what PyTorch prints between the parentheses:
// `start_dim=1, end_dim=-1`.
func (l *Flatten) ExtraRepr() string {
	return fmt.Sprintf("start_dim=%d, end_dim=%d", l.StartDim, l.EndDim)
}

// Identity is torch.nn.Identity: it returns its input.
type Identity struct{ Base }

// NewIdentity returns an Identity layer.
func NewIdentity() *Identity {
	l := &Identity{}
	l.Init(l, "Identity")
	return l
}

// Forward returns x.
func (l *Identity) Forward(x Value) Value { return x }

// Call is Call(l, x).
func (l *Identity) Call(x Value) Value { return Call(l, x) }
