// Recipe: conv/batch-norm fusion.
//
// What it teaches: in evaluation mode a batch norm is an affine map per
// channel, so it folds into the weights and bias of the convolution that
// feeds it, and one layer disappears. passes.FuseConvBN does it on a traced
// GraphModule (call_module nodes: the bn node and submodule go away);
// ep.Transform(passes.FoldConvBN) does it on an exported program, in core ATen
// (the batch-norm operator goes away and the folded weights become the
// convolution's parameters in the program's state). Neither touches the
// model itself.
//
// torch.fx equivalent (FX level):
//
//	from torch.fx.experimental.optimization import fuse
//	fused = fuse(model.eval())  # a GraphModule without the bn call
//
// torch.export has no public pass for the core-ATen level.

package cookbook_test

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
)

// convBN is relu(bn(conv(x))): Conv2d(1, 2, 2) and BatchNorm2d(2) with
// fixed weights and running statistics.
type convBN struct {
	nn.Base
	Conv *nn.Conv2d
	BN   *nn.BatchNorm2d
}

func newConvBN() *convBN {
	m := &convBN{}
	m.Init(m, "ConvBN")
	m.Conv = nn.RegisterModule(&m.Base, "conv", nn.NewConv2d(1, 2, 2))
	m.Conv.Weight.Set(tensor.Must(tensor.FromSlice([]float32{1, -1, 0.5, 2, -0.5, 1, 1, -2}, 2, 1, 2, 2)))
	m.Conv.Bias.Set(tensor.Must(tensor.FromSlice([]float32{0.25, -1}, 2)))
	m.BN = nn.RegisterModule(&m.Base, "bn", nn.NewBatchNorm2d(2))
	m.BN.Weight.Set(tensor.Must(tensor.FromSlice([]float32{2, 0.5}, 2)))
	m.BN.Bias.Set(tensor.Must(tensor.FromSlice([]float32{-1, 1}, 2)))
	m.BN.RunningMean.Set(tensor.Must(tensor.FromSlice([]float32{0.5, -2}, 2)))
	m.BN.RunningVar.Set(tensor.Must(tensor.FromSlice([]float32{4, 0.25}, 2)))
	return nn.Eval(m) // batch norms fold only in evaluation mode
}

func (m *convBN) Forward(x nn.Value) nn.Value { return m.BN.Call(m.Conv.Call(x)).Relu() }

// batchNorms counts the nodes of ep that call a batch-norm operator.
func batchNorms(ep *export.ExportedProgram) int {
	n := 0
	for key, count := range passes.CountOps(ep.Graph) {
		if strings.Contains(key, "batch_norm") {
			n += count
		}
	}
	return n
}

func Example_fuseConvBN() {
	m := newConvBN()
	x := tensor.Must(tensor.FromSlice([]float32{1, 2, 0, -1, 3, 1, 2, 0, -2}, 1, 1, 3, 3))
	eager, _ := nn.Run(m, nn.Tensor(x))

	// FX level: trace, fuse, and the bn call is gone.
	gm, err := fx.SymbolicTrace(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	changed, err := passes.FuseConvBN.Apply(gm)
	fmt.Println("fused:", changed, err)
	fmt.Print(gm.Code())
	out, err := gm.Run(nn.Tensor(x))
	fmt.Println(out, err)
	fmt.Println("within 1e-6 of eager:", tensor.AllClose(out.Tensor(), eager.Tensor(), 0, 1e-6, false))

	// Core-ATen level: export, then fold into the program's state.
	ep, err := export.Export(m, []any{x}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	folded, err := ep.Transform(passes.FoldConvBN)
	fmt.Println("folded:", folded != ep, err)
	fmt.Println("batch-norm ops:", batchNorms(ep), "->", batchNorms(folded))
	fmt.Print(folded)
	res, err := folded.Run(x)
	fmt.Println("within 1e-6 of eager:", err == nil && tensor.AllClose(res.Tensor(), eager.Tensor(), 0, 1e-6, false))
	// Output:
	// fused: true <nil>
	// def forward(self, x):
	//     conv = self.conv(x);  x = None
	//     relu = conv.relu();  conv = None
	//     return relu
	// tensor([[[[3.2500, 4.2500],
	//           [0.0000, 0.0000]],
	//
	//          [[0.0000, 2.0000],
	//           [7.4999, 5.4999]]]]) <nil>
	// within 1e-6 of eager: true
	// folded: true <nil>
	// batch-norm ops: 1 -> 0
	// ExportedProgram:
	//     class GraphModule(torch.nn.Module):
	//         def forward(self, p_conv_weight: "f32[2, 1, 2, 2]", p_conv_bias: "f32[2]", x: "f32[1, 1, 3, 3]"):
	//              # File: example_fuse_conv_bn_test.go:54 in (*convBN).Forward, code: func (m *convBN) Forward(x nn.Value) nn.Value { return m.BN.Call(m.Conv.Call(x)).Relu() }
	//             convolution: "f32[1, 2, 2, 2]" = torch.ops.aten.convolution.default(x, p_conv_weight, p_conv_bias, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  x = p_conv_weight = p_conv_bias = None
	//             relu: "f32[1, 2, 2, 2]" = torch.ops.aten.relu.default(convolution);  convolution = None
	//             return (relu,)
	//
	// Graph signature:
	//     # inputs
	//     p_conv_weight: PARAMETER target='conv.weight'
	//     p_conv_bias: PARAMETER target='conv.bias'
	//     x: USER_INPUT
	//
	//     # outputs
	//     relu: USER_OUTPUT
	// Range constraints: {}
	// within 1e-6 of eager: true
}
