package decomp_test

import (
	"fmt"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// Decompose aten::linear on a 3-d input into core ATen, as PyTorch 1.13's
// Linear.cpp computes it: the input viewed as a matrix, addmm with the
// transposed weight, the result viewed back.
func ExampleDecompose() {
	g := graph.New()
	x, _ := g.Placeholder("x")
	node.Val.Set(&x.Meta, node.TensorMeta{DType: node.Float32, Shape: node.Dims(2, 5, 8)})
	w, _ := g.Placeholder("w")
	node.Val.Set(&w.Meta, node.TensorMeta{DType: node.Float32, Shape: node.Dims(4, 8)})
	b, _ := g.Placeholder("b")
	node.Val.Set(&b.Meta, node.TensorMeta{DType: node.Float32, Shape: node.Dims(4)})
	lin, _ := g.CallFunction(aten.Linear, []node.Arg{x, w, b}, nil)
	g.Output(lin)
	gm, _ := fx.NewGraphModule(nil, g)

	fmt.Println(decomp.Verify(g))
	if _, err := decomp.Decompose(gm, decomp.Core()); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(g.Code())
	fmt.Println("verify:", decomp.Verify(g))
	// Output:
	// decomp: the graph is not core ATen: 1 offending node(s)
	//   %linear (aten.linear.default): aten.linear.default is not a core ATen operator: decompose it (decomp.Core() has a rule for it)
	// def forward(self, x, w, b):
	//     permute = torch.ops.aten.permute.default(w, [1, 0]);  w = None
	//     view = torch.ops.aten.view.default(x, [10, 8]);  x = None
	//     addmm = torch.ops.aten.addmm.default(b, view, permute);  b = view = permute = None
	//     view_1 = torch.ops.aten.view.default(addmm, [2, 5, 4]);  addmm = None
	//     return view_1
	// verify: <nil>
}

// Call runs a rule eagerly on tensors: the decomposition computes what the
// operator computes.
func ExampleCall() {
	x, _ := tensor.FromSlice([]float32{-2, 1, 7}, 3)
	out, ok, err := decomp.Call(decomp.Core(), aten.Relu6, []any{x}, nil)
	fmt.Println(ok, err)
	fmt.Println(out[0])
	// Output:
	// true <nil>
	// tensor([0., 1., 6.])
}
