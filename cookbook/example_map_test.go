// Recipe: one function over each row, as torch's map (map_impl).
//
// What it teaches: functional.Map(fn, xs, args...) applies fn to every
// slice of xs along its leading dimension, with the same extra arguments,
// and stacks the results. Traced, it is one map_impl node whose body is a
// graph of its own (body_graph_0) taking one row and the extras; a
// parameter the body reads is lifted into those extras.
//
// torch.export equivalent:
//
//	from functorch.experimental.control_flow import map
//	class Rows(torch.nn.Module):
//	    def forward(self, xs, b):
//	        return map(lambda x, w, b: (x @ w + b).tanh(), xs, self.w, b)
//	ep = torch.export.export(Rows(), (xs, b))

package cookbook_test

import (
	"fmt"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
)

// rows computes tanh(x @ w + b) for every row x of xs.
type rows struct {
	nn.Base
	W *nn.Parameter
}

func newRows() *rows {
	m := newModule[rows]("Rows")
	m.W = m.RegisterParameter("w", tensor.Must(tensor.FromSlice([]float32{1, 0, 0, -1, 0.5, 0.5}, 3, 2)))
	return m
}

func (m *rows) ArgNames() []string { return []string{"xs", "b"} }

func (m *rows) Forward(xs, b nn.Value) nn.Value {
	return F.Map(func(x nn.Value, a ...nn.Value) nn.Value { return x.Matmul(a[0]).Add(a[1]).Tanh() },
		xs, m.W.Value(), b)
}

func Example_map() {
	xs := tensor.Must(tensor.FromSlice([]float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1}, 4, 3))
	b := tensor.Must(tensor.FromSlice([]float32{0, 0.5}, 2))
	ep, err := export.Export(newRows(), []any{xs, b}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(ep)

	out, err := ep.Run(xs, b)
	fmt.Println(out, err)
	// The same rows computed at once: tanh(xs @ w + b).
	m := newRows()
	fmt.Println(nn.Tensor(xs).Matmul(m.W.Value()).Add(nn.Tensor(b)).Tanh())
	// Output:
	// ExportedProgram:
	//     class GraphModule(torch.nn.Module):
	//         def forward(self, p_w: "f32[3, 2]", xs: "f32[4, 3]", b: "f32[2]"):
	//              # File: example_map_test.go:43 in (*rows).Forward, code: return F.Map(func(x nn.Value, a ...nn.Value) nn.Value { return x.Matmul(a[0]).Add(a[1]).Tanh() },
	//             body_graph_0 = self.body_graph_0
	//             map_impl = torch.ops.higher_order.map_impl(body_graph_0, [xs], [p_w, b]);  body_graph_0 = xs = p_w = b = None
	//             getitem: "f32[4, 2]" = map_impl[0];  map_impl = None
	//             return (getitem,)
	//
	//         class body_graph_0(torch.nn.Module):
	//             def forward(self, xs: "f32[3]", p_w: "f32[3, 2]", b: "f32[2]"):
	//                  # File: example_map_test.go:43 in (*rows).Forward.func1, code: return F.Map(func(x nn.Value, a ...nn.Value) nn.Value { return x.Matmul(a[0]).Add(a[1]).Tanh() },
	//                 unsqueeze: "f32[1, 3]" = torch.ops.aten.unsqueeze.default(xs, 0);  xs = None
	//                 mm: "f32[1, 2]" = torch.ops.aten.mm.default(unsqueeze, p_w);  unsqueeze = p_w = None
	//                 squeeze: "f32[2]" = torch.ops.aten.squeeze.dims(mm, [0]);  mm = None
	//                 add: "f32[2]" = torch.ops.aten.add.Tensor(squeeze, b);  squeeze = b = None
	//                 tanh: "f32[2]" = torch.ops.aten.tanh.default(add);  add = None
	//                 return (tanh,)
	//
	// Graph signature:
	//     # inputs
	//     p_w: PARAMETER target='w'
	//     xs: USER_INPUT
	//     b: USER_INPUT
	//
	//     # outputs
	//     getitem: USER_OUTPUT
	// Range constraints: {}
	// tensor([[ 0.7616,  0.4621],
	//         [ 0.0000, -0.4621],
	//         [ 0.4621,  0.7616],
	//         [ 0.9051,  0.0000]]) <nil>
	// tensor([[ 0.7616,  0.4621],
	//         [ 0.0000, -0.4621],
	//         [ 0.4621,  0.7616],
	//         [ 0.9051,  0.0000]])
}
