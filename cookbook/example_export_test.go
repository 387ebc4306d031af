// Recipe: export with a dynamic dimension, then run the program.
//
// What it teaches: export.Export captures a module as an ExportedProgram:
// a functional graph of core ATen operators whose parameters are lifted to
// inputs, with the batch declared dynamic (a named Dim with a range) instead
// of baked in. The program then runs on any batch in the range, and refuses
// inputs outside it with an error naming the input and the dimension.
//
// torch.export equivalent:
//
//	batch = Dim("batch", min=2, max=64)
//	ep = torch.export.export(model, (x,), dynamic_shapes={"x": {0: batch}})
//	print(ep)
//	ep.module()(torch.ones(5, 3))

package cookbook_test

import (
	"fmt"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// scorer is sigmoid(linear(x)) with fixed weights: [batch, 3] -> [batch, 1].
type scorer struct {
	nn.Base
	Fc *nn.Linear
}

func newScorer() *scorer {
	m := &scorer{}
	m.Init(m, "Scorer")
	m.Fc = nn.RegisterModule(&m.Base, "fc", nn.NewLinear(3, 1, true))
	m.Fc.Weight.Set(tensor.Must(tensor.FromSlice([]float32{0.5, -1, 2}, 1, 3)))
	m.Fc.Bias.Set(tensor.Must(tensor.FromSlice([]float32{-1}, 1)))
	return m
}

func (m *scorer) Forward(x nn.Value) nn.Value { return m.Fc.Call(x).Sigmoid() }

func Example_exportDynamicBatch() {
	x := tensor.Must(tensor.Ones(tensor.Float32, 4, 3)) // the example input
	ep, err := export.Export(newScorer(), []any{x}, export.Dims{"x": {0: export.Dim("batch", 2, 64)}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(ep)

	// Any batch in [2, 64] runs, with the inputs checked first.
	y := tensor.Must(tensor.FromSlice([]float32{1, 1, 1, 0, 0, 0, 2, 0, 1}, 3, 3))
	out, err := ep.Run(y)
	fmt.Println(out, err)
	_, err = ep.Run(tensor.Must(tensor.Ones(tensor.Float32, 1, 3)))
	fmt.Println(err)

	// Module() turns the program back into a GraphModule, parameters as get_attr.
	gm, err := ep.Module()
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err = gm.Run(nn.Tensor(y))
	fmt.Println(out, err)
	// Output:
	// ExportedProgram:
	//     class GraphModule(torch.nn.Module):
	//         def forward(self, p_fc_weight: "f32[1, 3]", p_fc_bias: "f32[1]", x: "f32[s0, 3]"):
	//              # File: example_export_test.go:41 in (*scorer).Forward, code: func (m *scorer) Forward(x nn.Value) nn.Value { return m.Fc.Call(x).Sigmoid() }
	//             permute: "f32[3, 1]" = torch.ops.aten.permute.default(p_fc_weight, [1, 0]);  p_fc_weight = None
	//             addmm: "f32[s0, 1]" = torch.ops.aten.addmm.default(p_fc_bias, x, permute);  p_fc_bias = x = permute = None
	//             sigmoid: "f32[s0, 1]" = torch.ops.aten.sigmoid.default(addmm);  addmm = None
	//             return (sigmoid,)
	//
	// Graph signature:
	//     # inputs
	//     p_fc_weight: PARAMETER target='fc.weight'
	//     p_fc_bias: PARAMETER target='fc.bias'
	//     x: USER_INPUT
	//
	//     # outputs
	//     sigmoid: USER_OUTPUT
	// Range constraints: {s0: VR[2, 64]}
	// tensor([[0.6225],
	//         [0.2689],
	//         [0.8808]]) <nil>
	// export: input x dim 0: size 1 is outside the range [2, 64] of dimension batch (s0)
	// tensor([[0.6225],
	//         [0.2689],
	//         [0.8808]]) <nil>
}
