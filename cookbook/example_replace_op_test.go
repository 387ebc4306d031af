// Recipe: replace one op.
//
// What it teaches: a traced graph is an ordered list of nodes that you can
// edit in place. Loop over the nodes, find the call_function nodes that call
// aten add.Tensor, point them at aten mul.Tensor with SetTarget, lint, run.
//
// torch.fx equivalent (the "Graph Manipulation" section of the docs):
//
//	graph = tracer_class().trace(m)
//	for node in graph.nodes:
//	    if node.op == 'call_function' and node.target == torch.add:
//	        node.target = torch.mul
//	graph.lint()
//	return fx.GraphModule(m, graph)

package cookbook_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// addModule is the docs' sample module M: forward(x, y) = torch.add(x, y).
type addModule struct{ nn.Base }

func newAddModule() *addModule {
	m := &addModule{}
	m.Init(m, "M")
	return m
}

func (m *addModule) ArgNames() []string             { return []string{"x", "y"} }
func (m *addModule) Forward(x, y nn.Value) nn.Value { return x.Add(y) }

// addToMul traces m and turns every aten add.Tensor into mul.Tensor.
func addToMul(m nn.Module) (*fx.GraphModule, error) {
	gm, err := (&fx.Tracer{}).Trace(m)
	if err != nil {
		return nil, err
	}
	for n := range gm.Graph.Nodes() {
		// Check the opcode, then what the node calls.
		if n.Op() == node.CallFunction && n.Function() == aten.AddTensor {
			if err := n.SetTarget(aten.MulTensor); err != nil {
				return nil, err
			}
		}
	}
	// Lint checks the edited graph is still well formed.
	return gm, gm.Lint()
}

func Example_replaceOneOp() {
	gm, err := addToMul(newAddModule())
	if err != nil {
		fmt.Println(err)
		return
	}
	// The node keeps its name (add), as in torch.fx: only its target changed.
	fmt.Print(gm.Code())

	x := tensor.Must(tensor.FromSlice([]float32{1, 2, 3}, 3))
	y := tensor.Must(tensor.FromSlice([]float32{4, 5, 6}, 3))
	out, err := gm.Run(nn.Tensor(x), nn.Tensor(y))
	fmt.Println(out, err)

	// Shortcut: FindNodes reads the graph's (opcode, target) index, so
	// finding the nodes to edit costs the number of matches, not the
	// graph's size.
	fmt.Println(len(gm.Graph.FindNodes(node.CallFunction, aten.AddTensor)),
		len(gm.Graph.FindNodes(node.CallFunction, aten.MulTensor)))
	// Output:
	// def forward(self, x, y):
	//     add = torch.ops.aten.mul.Tensor(x, y);  x = y = None
	//     return add
	// tensor([ 4., 10., 18.]) <nil>
	// 0 1
}
