package graph_test

import (
	"fmt"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/interp"
	_ "github.com/gofx/gofx/kernels" // the reference kernels
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// The README's short tour, as written there: build a graph from ops/aten's
// operators, print it in torch.fx's forms, parse its text back, run it,
// then remove every relu with a pass (a loop over nodes comparing targets
// with ==) and run it again.
func Example_tour() {
	g := graph.New()
	x, _ := g.Placeholder("x")
	a, _ := g.CallFunction(aten.AddTensor, []node.Arg{x, node.Float(1)}, nil)
	r, _ := g.CallFunction(aten.Relu, []node.Arg{a}, nil)
	g.Output(r)

	fmt.Println(g)         // torch.fx's format
	fmt.Print(g.Tabular()) // torch.fx's print_tabular
	fmt.Print(g.Code())    // values freed after their last use
	text := g.Text()       // canonical text
	back, err := graph.Parse(text)
	fmt.Println(graph.Equal(g, back), err) // an identical graph

	in := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{-3, -0.5, 2}, 3))
	out, err := interp.New(g, nil).Run(nn.Tensor(in))
	fmt.Println(out, err)

	for n := range g.Nodes() { // a pass is a loop over nodes
		if n.Op() == node.CallFunction && n.Target() == aten.Relu {
			in := n.Arg(0).(*node.Node)
			n.ReplaceAllUsesWith(in, nil, false) // use-def edges stay right
		}
	}
	g.EliminateDeadCode()
	if err := g.Lint(); err != nil { // every invariant, errors name the node
		fmt.Println(err)
	}
	fmt.Print(g.Code())
	out, err = interp.New(g, nil).Run(nn.Tensor(in))
	fmt.Println(out, err)
	// Output:
	// graph():
	//     %x : [num_users=1] = placeholder[target=x]
	//     %add : [num_users=1] = call_function[target=aten.add.Tensor](args = (%x, 1.0), kwargs = {})
	//     %relu : [num_users=1] = call_function[target=aten.relu.default](args = (%add,), kwargs = {})
	//     return relu
	// opcode         name    target             args      kwargs
	// -------------  ------  -----------------  --------  ------
	// placeholder    x       x                  ()        {}
	// call_function  add     aten.add.Tensor    (x, 1.0)  {}
	// call_function  relu    aten.relu.default  (add,)    {}
	// output         output  output             (relu,)   {}
	// def forward(self, x):
	//     add = torch.ops.aten.add.Tensor(x, 1.0);  x = None
	//     relu = torch.ops.aten.relu.default(add);  add = None
	//     return relu
	// <nil> <nil>
	// tensor([0.0000, 0.5000, 3.0000]) <nil>
	// def forward(self, x):
	//     add = torch.ops.aten.add.Tensor(x, 1.0);  x = None
	//     return add
	// tensor([-2.0000,  0.5000,  3.0000]) <nil>
}
