package nn

import "fmt"

var opLinear = Op("aten::linear")

// Linear is torch.nn.Linear: y = x Wᵀ + b, with weight [out, in] and
// bias [out] (parameters "weight" and "bias").
type Linear struct {
	Base
	InFeatures, OutFeatures int
	Weight                  *Parameter
	Bias                    *Parameter // nil when built without bias
}

// NewLinear returns a Linear layer initialized as PyTorch initializes it
// (uniform in ±1/sqrt(in), see ManualSeed).
func NewLinear(in, out int, bias bool) *Linear {
	l := &Linear{InFeatures: in, OutFeatures: out}
	l.Init(l, "Linear")
	if in < 0 || out < 0 {
		l.Fail(fmt.Errorf("Linear: in_features and out_features must be non-negative, got %d and %d", in, out))
		in, out = max(in, 0), max(out, 0)
	}
	bound := KaimingBound(in)
	w, err := Uniform(bound, out, in)
	l.Fail(err)
	l.Weight = l.RegisterParameter("weight", w)
	if bias {
		b, err := Uniform(bound, out)
		l.Fail(err)
		l.Bias = l.RegisterParameter("bias", b)
	}
	return l
}

// Forward computes aten::linear(x, weight, bias).
func (l *Linear) Forward(x Value) Value {
	return CallOp(opLinear, x, l.Weight.Value(), optParam(l.Bias))
}

// Call is Call(l, x).
func (l *Linear) Call(x Value) Value { return Call(l, x) }

// ExtraRepr is what PyTorch prints between the parentheses.
func (l *Linear) ExtraRepr() string {
	return fmt.Sprintf("in_features=%d, out_features=%d, bias=%s", l.InFeatures, l.OutFeatures, pyBool(l.Bias != nil))
}

// optParam returns p's Value, or None for a nil parameter.
func optParam(p *Parameter) Value {
	if p == nil {
		return None
	}
	return p.Value()
}

// optBuffer returns b's Value, or None for a nil buffer.
func optBuffer(b *Buffer) Value {
	if b == nil {
		return None
	}
	return b.Value()
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

var opRelu = Op("aten::relu")

// ReLU is torch.nn.ReLU. Inplace is accepted for parity with PyTorch's
// constructor and printed, but the result is computed out of place
// (values are the same).
type ReLU struct {
	Base
	Inplace bool
}

// NewReLU returns a ReLU layer.
func NewReLU() *ReLU {
	r := &ReLU{}
	r.Init(r, "ReLU")
	return r
}

// Forward computes aten::relu(x).
func (r *ReLU) Forward(x Value) Value { return CallOp(opRelu, x) }

// Call is Call(r, x).
func (r *ReLU) Call(x Value) Value { return Call(r, x) }

// ExtraRepr prints inplace=True when set.
func (r *ReLU) ExtraRepr() string {
	if r.Inplace {
		return "inplace=True"
	}
	return ""
}
