// Recipe: insert a node and reroute its uses.
//
// What it teaches: adding nodes at an insertion point and rewiring uses.
// After every aten add.Tensor, insert a relu of its result, then make every
// user of the add read the relu instead (ReplaceAllUsesWith).
//
// torch.fx equivalent (the docs' second graph-manipulation snippet):
//
//	with traced.graph.inserting_after(node):
//	    new_node = traced.graph.call_function(torch.relu, args=(node,))
//	    node.replace_all_uses_with(new_node)
//
// One difference: gofx's ReplaceAllUsesWith never rewires the replacement
// itself, so the new relu keeps reading the add (torch.fx needs
// delete_user_cb=lambda user: user is not new_node for that).

package cookbook_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

func Example_insertNode() {
	gm, err := fx.SymbolicTraceFunc(func(x, y nn.Value) nn.Value { return x.Add(y).Mul(2) }, "x", "y")
	if err != nil {
		fmt.Println(err)
		return
	}
	g := gm.Graph
	for _, add := range g.FindNodes(node.CallFunction, aten.AddTensor) {
		restore := g.InsertingAfter(add) // new nodes go right after add
		relu, err := g.CallFunction(aten.Relu, []node.Arg{add}, nil)
		restore()
		if err != nil {
			fmt.Println(err)
			return
		}
		if _, err := add.ReplaceAllUsesWith(relu, nil, false); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := gm.Lint(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(gm.Code())

	x := tensor.Must(tensor.FromSlice([]float32{1, -2, 3}, 3))
	y := tensor.Must(tensor.FromSlice([]float32{-4, 1, 0}, 3))
	out, err := gm.Run(nn.Tensor(x), nn.Tensor(y))
	fmt.Println(out, err)
	// Output:
	// def forward(self, x, y):
	//     add = torch.ops.aten.add.Tensor(x, y);  x = y = None
	//     relu = torch.ops.aten.relu.default(add);  add = None
	//     mul = torch.ops.aten.mul.Tensor(relu, 2);  relu = None
	//     return mul
	// tensor([0., 0., 6.]) <nil>
}
