// Recipe: a loop whose trip count the data decides, as while_loop.
//
// What it teaches: a Go for loop over tensor values cannot be captured
// (its trip count would be the example's). functional.WhileLoop takes a
// condition, a body and the carried values; traced, it is one while_loop
// node whose condition and body are graphs (while_loop_cond_graph_0,
// while_loop_body_graph_0). The body returns as many values as are
// carried, with the same dtypes and shapes, and the exported program loops
// as many times as its input needs.
//
// torch.export equivalent:
//
//	from torch._higher_order_ops.while_loop import while_loop
//	class Halve(torch.nn.Module):
//	    def forward(self, n, x):
//	        return while_loop(lambda n, x: x.abs().sum() > 1,
//	                          lambda n, x: (n + 1, x / 2), (n, x))
//	ep = torch.export.export(Halve(), (n, x))

package cookbook_test

import (
	"fmt"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
)

// halve halves x until its absolute values sum to at most 1, counting
// the halvings in n.
type halve struct{ nn.Base }

func (m *halve) ArgNames() []string { return []string{"n", "x"} }

func (m *halve) Forward(n, x nn.Value) nn.Value {
	out := F.WhileLoop(
		func(v ...nn.Value) nn.Value { return v[1].Method("abs").Sum().Gt(1) },
		func(v ...nn.Value) []nn.Value { return []nn.Value{v[0].Add(1), v[1].Div(2)} },
		[]nn.Value{n, x}, nil)
	return nn.Tuple(out...)
}

func Example_whileLoop() {
	n := tensor.Scalar(int64(0))
	x := tensor.Must(tensor.FromSlice([]float32{1, -2, 3}, 3))
	ep, err := export.Export(newModule[halve]("Halve"), []any{n, x}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(ep)

	// The trip count follows the data, not the example input.
	for _, in := range [][]float32{{1, -2, 3}, {0.25, 0.25, 0}, {100, 0, 0}} {
		out, err := ep.Run(n, tensor.Must(tensor.FromSlice(in, 3)))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("halvings:", out.Tuple()[0], "x:", out.Tuple()[1])
	}
	// Output:
	// ExportedProgram:
	//     class GraphModule(torch.nn.Module):
	//         def forward(self, n: "i64[]", x: "f32[3]"):
	//              # File: example_while_loop_test.go:38 in (*halve).Forward, code: out := F.WhileLoop(
	//             while_loop_cond_graph_0 = self.while_loop_cond_graph_0
	//             while_loop_body_graph_0 = self.while_loop_body_graph_0
	//             while_loop = torch.ops.higher_order.while_loop(while_loop_cond_graph_0, while_loop_body_graph_0, (n, x), ());  while_loop_cond_graph_0 = while_loop_body_graph_0 = n = x = None
	//             getitem: "i64[]" = while_loop[0]
	//             getitem_1: "f32[3]" = while_loop[1];  while_loop = None
	//             return (getitem, getitem_1)
	//
	//         class while_loop_cond_graph_0(torch.nn.Module):
	//             def forward(self, arg0_1: "i64[]", arg1_1: "f32[3]"):
	//                  # File: example_while_loop_test.go:39 in (*halve).Forward.func1, code: func(v ...nn.Value) nn.Value { return v[1].Method("abs").Sum().Gt(1) },
	//                 abs_1: "f32[3]" = torch.ops.aten.abs.default(arg1_1);  arg1_1 = None
	//                 sum_1: "f32[]" = torch.ops.aten.sum.dim_IntList(abs_1, []);  abs_1 = None
	//                 gt: "b8[]" = torch.ops.aten.gt.Scalar(sum_1, 1);  sum_1 = None
	//                 return gt
	//
	//         class while_loop_body_graph_0(torch.nn.Module):
	//             def forward(self, arg0_1: "i64[]", arg1_1: "f32[3]"):
	//                  # File: example_while_loop_test.go:40 in (*halve).Forward.func2, code: func(v ...nn.Value) []nn.Value { return []nn.Value{v[0].Add(1), v[1].Div(2)} },
	//                 add: "i64[]" = torch.ops.aten.add.Tensor(arg0_1, 1);  arg0_1 = None
	//                 div: "f32[3]" = torch.ops.aten.div.Tensor(arg1_1, 2);  arg1_1 = None
	//                 return (add, div)
	//
	// Graph signature:
	//     # inputs
	//     n: USER_INPUT
	//     x: USER_INPUT
	//
	//     # outputs
	//     getitem: USER_OUTPUT
	//     getitem_1: USER_OUTPUT
	// Range constraints: {}
	// halvings: tensor(3) x: tensor([ 0.1250, -0.2500,  0.3750])
	// halvings: tensor(0) x: tensor([0.2500, 0.2500, 0.0000])
	// halvings: tensor(7) x: tensor([0.7812, 0.0000, 0.0000])
}
