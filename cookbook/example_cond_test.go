// Recipe: a branch on tensor data, as torch.cond (the seed's M_old/M_new).
//
// What it teaches: a Go `if` on a tensor's value picks one path while the
// program is captured, so export refuses it with an error that points to
// functional.Cond. Written with functional.Cond, both branches are traced
// into graphs of their own (true_graph_0, false_graph_0), the predicate
// stays in the program, and the exported program takes the branch the
// data decides each time it runs.
//
// torch.export equivalent:
//
//	class M_new(torch.nn.Module):
//	    def forward(self, x):
//	        return torch.cond(x.sum() > 0, lambda x: x.sin(), lambda x: x.cos(), (x,))
//	ep = torch.export.export(M_new(), (x,))

package cookbook_test

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
)

// mOld branches with Go's if on the data: it runs eagerly, but the branch
// taken depends on the example input, so export cannot capture it.
type mOld struct{ nn.Base }

func (m *mOld) Forward(x nn.Value) nn.Value {
	if x.Sum().Gt(0).Bool() {
		return x.Method("sin")
	}
	return x.Method("cos")
}

// mNew says the same with functional.Cond: pred, the two branches, and
// the operands the branches take.
type mNew struct{ nn.Base }

func (m *mNew) Forward(x nn.Value) nn.Value {
	return F.Cond(x.Sum().Gt(0),
		func(o ...nn.Value) nn.Value { return o[0].Method("sin") },
		func(o ...nn.Value) nn.Value { return o[0].Method("cos") },
		x)
}

func newModule[M any, P interface {
	*M
	nn.Module
	Init(nn.Module, string)
}](name string) P {
	m := P(new(M))
	m.Init(m, name)
	return m
}

func Example_cond() {
	x := tensor.Must(tensor.FromSlice([]float32{0, 1, 2, 3, 4, 5}, 2, 3))

	_, err := export.Export(newModule[mOld]("M_old"), []any{x}, nil)
	// The error names the Go line of the if, and what to write instead.
	msg := err.Error()
	msg = msg[strings.Index(msg, "example_cond_test.go"):]
	fmt.Println("M_old:", msg)

	ep, err := export.Export(newModule[mNew]("M_new"), []any{x}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(ep)

	// The data decides: a positive sum takes sin, a negative one cos.
	for _, in := range [][]float32{{0, 1, 2, 3, 4, 5}, {0, -1, -2, -3, -4, -5}} {
		out, err := ep.Run(tensor.Must(tensor.FromSlice(in, 2, 3)))
		fmt.Println(out, err)
	}
	// Output:
	// M_old: example_cond_test.go:34: the model needs a bool from a traced tensor: Go control flow on tensor data cannot be exported. Branch with functional.Cond(pred, trueFn, falseFn, operands...) (loop with functional.WhileLoop), which records both branches as subgraphs; or compute both and select with aten::where (F.Where), or keep the decision on Go values (non-tensor inputs are specialized)
	// ExportedProgram:
	//     class GraphModule(torch.nn.Module):
	//         def forward(self, x: "f32[2, 3]"):
	//              # File: example_cond_test.go:45 in (*mNew).Forward, code: return F.Cond(x.Sum().Gt(0),
	//             sum_1: "f32[]" = torch.ops.aten.sum.dim_IntList(x, [])
	//             gt: "b8[]" = torch.ops.aten.gt.Scalar(sum_1, 0);  sum_1 = None
	//             true_graph_0 = self.true_graph_0
	//             false_graph_0 = self.false_graph_0
	//             cond = torch.ops.higher_order.cond(gt, true_graph_0, false_graph_0, [x]);  gt = true_graph_0 = false_graph_0 = x = None
	//             getitem: "f32[2, 3]" = cond[0];  cond = None
	//             return (getitem,)
	//
	//         class true_graph_0(torch.nn.Module):
	//             def forward(self, x: "f32[2, 3]"):
	//                  # File: example_cond_test.go:46 in (*mNew).Forward.func1, code: func(o ...nn.Value) nn.Value { return o[0].Method("sin") },
	//                 sin: "f32[2, 3]" = torch.ops.aten.sin.default(x);  x = None
	//                 return (sin,)
	//
	//         class false_graph_0(torch.nn.Module):
	//             def forward(self, x: "f32[2, 3]"):
	//                  # File: example_cond_test.go:47 in (*mNew).Forward.func2, code: func(o ...nn.Value) nn.Value { return o[0].Method("cos") },
	//                 cos: "f32[2, 3]" = torch.ops.aten.cos.default(x);  x = None
	//                 return (cos,)
	//
	// Graph signature:
	//     # inputs
	//     x: USER_INPUT
	//
	//     # outputs
	//     getitem: USER_OUTPUT
	// Range constraints: {}
	// tensor([[ 0.0000,  0.8415,  0.9093],
	//         [ 0.1411, -0.7568, -0.9589]]) <nil>
	// tensor([[ 1.0000,  0.5403, -0.4161],
	//         [-0.9900, -0.6536,  0.2837]]) <nil>
}
