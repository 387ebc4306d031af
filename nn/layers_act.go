package nn

import "fmt"

var (
	opHardtanh  = Op("aten::hardtanh")
	opGelu      = Op("aten::gelu")
	opSilu      = Op("aten::silu")
	opSigmoid   = Op("aten::sigmoid")
	opTanh      = Op("aten::tanh")
	opLeakyRelu = Op("aten::leaky_relu")
	opHardswish = Op("aten::hardswish")
)

// ReLU6 is torch.nn.ReLU6: min(max(x, 0), 6). As in PyTorch, where ReLU6
// is a Hardtanh, it computes aten::hardtanh(x, 0, 6).
type ReLU6 struct{ Base }

// NewReLU6 returns a ReLU6 layer.
func NewReLU6() *ReLU6 {
	l := &ReLU6{}
	l.Init(l, "ReLU6")
	return l
}

// Forward computes aten::hardtanh(x, 0.0, 6.0).
func (l *ReLU6) Forward(x Value) Value { return CallOp(opHardtanh, x, 0.0, 6.0) }

// Call is Call(l, x).
func (l *ReLU6) Call(x Value) Value { return Call(l, x) }

// Hardtanh is torch.nn.Hardtanh: x clamped to [MinVal, MaxVal].
type Hardtanh struct {
	Base
	MinVal, MaxVal float64
}

// NewHardtanh returns a Hardtanh layer clamping to [min, max] (PyTorch's
// defaults are -1 and 1); max ≤ min is a construction error.
func NewHardtanh(min, max float64) *Hardtanh {
	l := &Hardtanh{MinVal: min, MaxVal: max}
	l.Init(l, "Hardtanh")
	if !(max > min) {
		l.Fail(fmt.Errorf("Hardtanh: max_val (%s) must be greater than min_val (%s)", pyFloat(max), pyFloat(min)))
	}
	return l
}

// Forward computes aten::hardtanh(x, min_val, max_val).
func (l *Hardtanh) Forward(x Value) Value { return CallOp(opHardtanh, x, l.MinVal, l.MaxVal) }

// Call is Call(l, x).
func (l *Hardtanh) Call(x Value) Value { return Call(l, x) }

// ExtraRepr is what PyTorch prints between the parentheses:
// `min_val=-1.0, max_val=1.0`.
func (l *Hardtanh) ExtraRepr() string {
	return fmt.Sprintf("min_val=%s, max_val=%s", pyFloat(l.MinVal), pyFloat(l.MaxVal))
}

// GELU is torch.nn.GELU: x·Φ(x), exactly ("none") or with the tanh
// approximation ("tanh").
type GELU struct {
	Base
	Approximate string
}

// NewGELU returns a GELU layer; approximate is "none" (or "", the
// default) or "tanh", anything else a construction error.
func NewGELU(approximate string) *GELU {
	if approximate == "" {
		approximate = "none"
	}
	l := &GELU{Approximate: approximate}
	l.Init(l, "GELU")
	if approximate != "none" && approximate != "tanh" {
		l.Fail(fmt.Errorf("GELU: approximate must be 'none' or 'tanh', got '%s'", approximate))
	}
	return l
}

// Forward computes aten::gelu(x, approximate=...).
func (l *GELU) Forward(x Value) Value {
	return CallOpKw(opGelu, []any{x}, map[string]any{"approximate": l.Approximate})
}

// Call is Call(l, x).
func (l *GELU) Call(x Value) Value { return Call(l, x) }

// ExtraRepr is what PyTorch prints between the parentheses:
// `approximate='none'`.
func (l *GELU) ExtraRepr() string { return fmt.Sprintf("approximate='%s'", l.Approximate) }

// SiLU is torch.nn.SiLU: x·sigmoid(x).
type SiLU struct{ Base }

// NewSiLU returns a SiLU layer.
func NewSiLU() *SiLU {
	l := &SiLU{}
	l.Init(l, "SiLU")
	return l
}

// Forward computes aten::silu(x).
func (l *SiLU) Forward(x Value) Value { return CallOp(opSilu, x) }

// Call is Call(l, x).
func (l *SiLU) Call(x Value) Value { return Call(l, x) }

// Sigmoid is torch.nn.Sigmoid.
type Sigmoid struct{ Base }

// NewSigmoid returns a Sigmoid layer.
func NewSigmoid() *Sigmoid {
	l := &Sigmoid{}
	l.Init(l, "Sigmoid")
	return l
}

// Forward computes aten::sigmoid(x).
func (l *Sigmoid) Forward(x Value) Value { return CallOp(opSigmoid, x) }

// Call is Call(l, x).
func (l *Sigmoid) Call(x Value) Value { return Call(l, x) }

// Tanh is torch.nn.Tanh.
type Tanh struct{ Base }

// NewTanh returns a Tanh layer.
func NewTanh() *Tanh {
	l := &Tanh{}
	l.Init(l, "Tanh")
	return l
}

// Forward computes aten::tanh(x).
func (l *Tanh) Forward(x Value) Value { return CallOp(opTanh, x) }

// Call is Call(l, x).
func (l *Tanh) Call(x Value) Value { return Call(l, x) }

// LeakyReLU is torch.nn.LeakyReLU: x for x ≥ 0, NegativeSlope·x below.
type LeakyReLU struct {
	Base
	NegativeSlope float64
}

// NewLeakyReLU returns a LeakyReLU layer (PyTorch's default slope is
// 0.01).
func NewLeakyReLU(negativeSlope float64) *LeakyReLU {
	l := &LeakyReLU{NegativeSlope: negativeSlope}
	l.Init(l, "LeakyReLU")
	return l
}

// Forward computes aten::leaky_relu(x, negative_slope).
func (l *LeakyReLU) Forward(x Value) Value { return CallOp(opLeakyRelu, x, l.NegativeSlope) }

// Call is Call(l, x).
func (l *LeakyReLU) Call(x Value) Value { return Call(l, x) }

// ExtraRepr is what PyTorch prints between the parentheses:
// `negative_slope=0.01`.
func (l *LeakyReLU) ExtraRepr() string { return "negative_slope=" + pyFloat(l.NegativeSlope) }

// Hardswish is torch.nn.Hardswish: x·relu6(x+3)/6.
type Hardswish struct{ Base }

// NewHardswish returns a Hardswish layer.
func NewHardswish() *Hardswish {
	l := &Hardswish{}
	l.Init(l, "Hardswish")
	return l
}

// Forward computes aten::hardswish(x).
func (l *Hardswish) Forward(x Value) Value { return CallOp(opHardswish, x) }

// Call is Call(l, x).
func (l *Hardswish) Call(x Value) Value { return Call(l, x) }

// Softmax is torch.nn.Softmax over dimension Dim (negative counts from
// the end). PyTorch's implicit dim (dim=None, deprecated) is not
// supported.
type Softmax struct {
	Base
	Dim int
}

// NewSoftmax returns a Softmax layer over dimension dim.
func NewSoftmax(dim int) *Softmax {
	l := &Softmax{Dim: dim}
	l.Init(l, "Softmax")
	return l
}

// Forward computes aten::softmax.int(x, dim).
func (l *Softmax) Forward(x Value) Value { return CallOp(opSoftmax, x, l.Dim) }

// Call is Call(l, x).
func (l *Softmax) Call(x Value) Value { return Call(l, x) }

// ExtraRepr is what PyTorch prints between the parentheses: `dim=1`.
func (l *Softmax) ExtraRepr() string { return fmt.Sprintf("dim=%d", l.Dim) }
