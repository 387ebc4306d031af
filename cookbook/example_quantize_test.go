// Recipe: a quantization-style rewrite (fake-quantize around linear).
//
// What it teaches: pattern.ReplaceFunc picks the replacement per match, so
// each match can use numbers read from the graph: here every linear(x, w, b)
// becomes linear(fq(x), fq(w), b), where fq rounds to the 256 levels of
// int8 and back (quantize, then dequantize), with w's scale computed from
// that linear's own weight (max |w| / 127) and x's a fixed 1/32 (inputs in [-4, 4)). The
// rewritten model runs in float and shows the error int8 would add;
// constant folding then stores each quantized weight once.
//
// The reference kernels have no quantized tensors (no kernel for
// quantize_per_tensor, dequantize or fake_quantize_per_tensor_affine), so fq
// is written with core operators: clamp(round(v / scale), -128, 127) * scale,
// what fake_quantize_per_tensor_affine computes with zero_point 0.
//
// torch.fx equivalent (the pattern of FX graph mode quantization's
// reference model, written by hand):
//
//	def pattern(x, w, b):
//	    return F.linear(x, w, b)
//	def replacement(x, w, b):
//	    x = torch.fake_quantize_per_tensor_affine(x, 1 / 32, 0, -128, 127)
//	    w = torch.fake_quantize_per_tensor_affine(w, w_scale, 0, -128, 127)
//	    return F.linear(x, w, b)
//	torch.fx.replace_pattern(gm, pattern, replacement)  # one w_scale for all

package cookbook_test

import (
	"fmt"
	"math"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/pattern"
	"github.com/gofx/gofx/tensor"
)

// fakeQuant rounds v to int8 levels of the given scale and back.
func fakeQuant(v nn.Value, scale float64) nn.Value {
	q := nn.CallOp(aten.Clamp, nn.CallOp(aten.Round, v.Div(scale)), -128, 127) // quantize
	return q.Mul(scale)                                                        // dequantize
}

// mlp is fc2(relu(fc1(x))) with fixed weights: [n, 3] -> [n, 2].
type mlp struct {
	nn.Base
	Fc1, Fc2 *nn.Linear
}

func newMLP() *mlp {
	m := &mlp{}
	m.Init(m, "MLP")
	m.Fc1 = nn.RegisterModule(&m.Base, "fc1", nn.NewLinear(3, 2, true))
	m.Fc1.Weight.Set(tensor.Must(tensor.FromSlice([]float32{0.3, -0.71, 0.05, 1.13, 0.42, -0.9}, 2, 3)))
	m.Fc1.Bias.Set(tensor.Must(tensor.FromSlice([]float32{0.1, -0.2}, 2)))
	m.Fc2 = nn.RegisterModule(&m.Base, "fc2", nn.NewLinear(2, 2, true))
	m.Fc2.Weight.Set(tensor.Must(tensor.FromSlice([]float32{0.017, -0.029, 0.011, 0.023}, 2, 2)))
	m.Fc2.Bias.Set(tensor.Must(tensor.FromSlice([]float32{0.5, 0}, 2)))
	return m
}

func (m *mlp) Forward(x nn.Value) nn.Value { return m.Fc2.Call(m.Fc1.Call(x).Relu()) }

func Example_quantizeLinear() {
	m := newMLP()
	x := nn.Tensor(tensor.Must(tensor.FromSlice([]float32{0.7, -1.3, 0.25, 1.9, 0.33, -0.6}, 2, 3)))
	float, _ := nn.Run(m, x)

	// Trace through nn.Linear so that each is aten.linear(x, weight, bias).
	gm, err := (&fx.Tracer{IsLeaf: func(nn.Module, string) bool { return false }}).Trace(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	linear := func(x, w, b nn.Value) nn.Value { return F.Linear(x, w, b) }
	ms, err := pattern.ReplaceFunc(gm, linear, func(mt *pattern.Match) (any, error) {
		w, err := nn.AttrValue(gm, mt.Inputs[1].(*node.Node).Target().String()) // a get_attr
		if err != nil {
			return nil, err
		}
		maxAbs := 0.0
		for _, v := range w.Tensor().Float64s() {
			maxAbs = math.Max(maxAbs, math.Abs(v))
		}
		wScale := maxAbs / 127
		return func(x, w, b nn.Value) nn.Value {
			return F.Linear(fakeQuant(x, 1.0/32), fakeQuant(w, wScale), b)
		}, nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(ms), "linears quantized")
	// The weights' fake quantization depends only on state: compute it once.
	if _, err := passes.FoldConstants.Apply(gm); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(gm.Code())

	quant, err := gm.Run(x)
	if err != nil {
		fmt.Println(err)
		return
	}
	maxErr := 0.0
	for i, q := range quant.Tensor().Float64s() {
		maxErr = math.Max(maxErr, math.Abs(q-float.Tensor().Float64s()[i]))
	}
	fmt.Println(float) // the float model
	fmt.Println(quant) // with int8 rounding
	fmt.Printf("max abs error %.4f\n", maxErr)
	// Output:
	// 2 linears quantized
	// def forward(self, x):
	//     fc1_bias = self.fc1.bias
	//     div = torch.ops.aten.div.Tensor(x, 0.03125);  x = None
	//     round_1 = torch.ops.aten.round.default(div);  div = None
	//     clamp = torch.ops.aten.clamp.default(round_1, -128, 127);  round_1 = None
	//     mul = torch.ops.aten.mul.Tensor(clamp, 0.03125);  clamp = None
	//     _folded_constant_0 = self._folded_constant_0
	//     linear_2 = torch.ops.aten.linear.default(mul, _folded_constant_0, fc1_bias);  mul = _folded_constant_0 = fc1_bias = None
	//     relu = linear_2.relu();  linear_2 = None
	//     fc2_bias = self.fc2.bias
	//     div_2 = torch.ops.aten.div.Tensor(relu, 0.03125);  relu = None
	//     round_3 = torch.ops.aten.round.default(div_2);  div_2 = None
	//     clamp_2 = torch.ops.aten.clamp.default(round_3, -128, 127);  round_3 = None
	//     mul_2 = torch.ops.aten.mul.Tensor(clamp_2, 0.03125);  clamp_2 = None
	//     _folded_constant_1 = self._folded_constant_1
	//     linear_3 = torch.ops.aten.linear.default(mul_2, _folded_constant_1, fc2_bias);  mul_2 = _folded_constant_1 = fc2_bias = None
	//     return linear_3
	// tensor([[0.5212, 0.0137],
	//         [0.4308, 0.0649]])
	// tensor([[0.5211, 0.0137],
	//         [0.4307, 0.0650]])
	// max abs error 0.0001
}
