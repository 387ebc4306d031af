package models

import (
	"math"

	"github.com/gofx/gofx/export"

	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
)

func init() {
	register(&Spec{Name: "attention", New: func() nn.Module { return NewAttention() },
		Dynamic: func() export.Dims {
			return export.Dims{"x": {0: export.Dim("batch", 2, export.Inf), 1: export.Dim("seq", 2, export.Inf)}}
		}})
}

// Attention is the zoo's pre-norm transformer block: 4 heads of 8, plain
// operators.
type Attention struct {
	nn.Base
	LN1, LN2  *nn.LayerNorm
	QKV, Proj *nn.Linear
	FC1, FC2  *nn.Linear
}

// NewAttention returns the block with fresh weights.
func NewAttention() *Attention {
	m := &Attention{}
	m.Init(m, "Attention")
	m.LN1 = nn.RegisterModule(&m.Base, "ln1", nn.NewLayerNorm(32))
	m.QKV = nn.RegisterModule(&m.Base, "qkv", nn.NewLinear(32, 96, true))
	m.Proj = nn.RegisterModule(&m.Base, "proj", nn.NewLinear(32, 32, true))
	m.LN2 = nn.RegisterModule(&m.Base, "ln2", nn.NewLayerNorm(32))
	m.FC1 = nn.RegisterModule(&m.Base, "fc1", nn.NewLinear(32, 64, true))
	m.FC2 = nn.RegisterModule(&m.Base, "fc2", nn.NewLinear(64, 32, true))
	return m
}

// Forward is the Python forward line by line: the batch and sequence sizes
// come from x.shape (symbolic while tracing), so the traced graph accepts
// other sizes.
func (m *Attention) Forward(x nn.Value) nn.Value {
	b, t := x.Shape().Index(0), x.Shape().Index(1)
	h := m.LN1.Call(x)
	qkv := m.QKV.Call(h).Split(32, -1)
	q, k, v := qkv.Index(0), qkv.Index(1), qkv.Index(2)
	q = q.Reshape(b, t, 4, 8).Transpose(1, 2)
	k = k.Reshape(b, t, 4, 8).Transpose(1, 2)
	v = v.Reshape(b, t, 4, 8).Transpose(1, 2)
	att := F.Softmax(q.Matmul(k.Transpose(-2, -1)).Div(math.Sqrt(8)), -1)
	y := att.Matmul(v).Transpose(1, 2).Reshape(b, t, 32)
	x = x.Add(m.Proj.Call(y))
	x = x.Add(m.FC2.Call(F.GELU(m.FC1.Call(m.LN2.Call(x)), "none")))
	return x
}
