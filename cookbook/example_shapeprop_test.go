// Recipe: shape propagation.
//
// What it teaches: annotating every node with the dtype and shape of the
// value it produces (node.Val metadata). Propagate runs the graph on real
// tensors, as torch.fx's ShapeProp does; FakeProp runs it on fake tensors
// whose sizes may be symbolic (s0 for a dynamic batch), without computing
// anything, and gives shapes valid for every batch size.
//
// torch.fx equivalent:
//
//	from torch.fx.passes.shape_prop import ShapeProp
//	ShapeProp(gm).propagate(x)
//	for node in gm.graph.nodes:
//	    print(node.name, node.meta['tensor_meta'].dtype, node.meta['tensor_meta'].shape)
//
// and, for symbolic shapes, FakeTensorProp under a ShapeEnv.

package cookbook_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// head maps [batch, 4, 8] features to one score per example.
type head struct {
	nn.Base
	Proj *nn.Linear
}

func newHead() *head {
	m := &head{}
	m.Init(m, "Head")
	m.Proj = nn.RegisterModule(&m.Base, "proj", nn.NewLinear(8, 16, true))
	return m
}

func (m *head) Forward(x nn.Value) nn.Value {
	return m.Proj.Call(x).Relu().Flatten(1, -1).Sum(-1)
}

func Example_shapePropagation() {
	gm, err := fx.SymbolicTrace(newHead())
	if err != nil {
		fmt.Println(err)
		return
	}

	// Concrete: run on a [2, 4, 8] tensor and record what each node made.
	x := tensor.Must(tensor.Zeros(tensor.Float32, 2, 4, 8))
	if _, err := shapeprop.Propagate(gm, nn.Tensor(x)); err != nil {
		fmt.Println(err)
		return
	}
	for n := range gm.Graph.Nodes() {
		v, _ := node.Val.Get(&n.Meta)
		fmt.Println(n.Name(), v)
	}

	// Symbolic: the batch is a size symbol s0 >= 2 (example value 2).
	env := sym.NewEnv()
	s0, _ := env.NewSymbol("s0", 2, sym.Range{Lo: 2, Hi: sym.Inf})
	if _, err := shapeprop.FakeProp(gm, env, shapeprop.NewFake(tensor.Float32, s0.Expr(), 4, 8)); err != nil {
		fmt.Println(err)
		return
	}
	for n := range gm.Graph.Nodes() {
		v, _ := node.Val.Get(&n.Meta)
		fmt.Println(n.Name(), v)
	}
	// No guard: the shapes hold for every batch size, not just 2.
	fmt.Println("guards:", env.Guards())
	// Output:
	// x f32[2, 4, 8]
	// proj f32[2, 4, 16]
	// relu f32[2, 4, 16]
	// flatten f32[2, 64]
	// sum_1 f32[2]
	// output f32[2]
	// x f32[s0, 4, 8]
	// proj f32[s0, 4, 16]
	// relu f32[s0, 4, 16]
	// flatten f32[s0, 64]
	// sum_1 f32[s0]
	// output f32[s0]
	// guards: []
}
