package ir_test

import (
	"fmt"

	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/types"
)

// Build a graph with the builder and print it as PyTorch prints m.graph.
func ExampleGraph_InsertNode() {
	g := ir.NewGraph()
	x, _ := g.AddInput("x.1", types.Tensor)
	n, _ := g.AddInput("n.1", types.Int)
	one, _ := g.Constant(int64(1))
	tru, _ := g.Constant(true)
	loop, _ := g.InsertNode("prim::Loop", []*ir.Value{n, tru, x}, types.Tensor)
	_ = loop.Output().SetDebugName("y")
	body := loop.AddBlock()
	i := body.AddParam(types.Int)
	_ = i.SetDebugName("i")
	acc := body.AddParam(types.Tensor)
	g.SetInsertPoint(body)
	add, _ := g.InsertNode("aten::add", []*ir.Value{acc, one, one}, types.Tensor)
	add.Source = &ir.SourceRange{File: "m.py", Line: 3, Col: 8}
	body.AddOutput(tru)
	body.AddOutput(add.Output())
	g.RegisterOutput(loop.Output())
	fmt.Println(g.Lint())
	fmt.Print(g)
	fmt.Println(add.Op) // the builder resolves nothing: the frontend sets Op
	// Output:
	// <nil>
	// graph(%x.1 : Tensor,
	//       %n.1 : int):
	//   %2 : int = prim::Constant[value=1]()
	//   %3 : bool = prim::Constant[value=1]()
	//   %y : Tensor = prim::Loop(%n.1, %3, %x.1)
	//     block0(%i : int, %6 : Tensor):
	//       %7 : Tensor = aten::add(%6, %2, %2) # m.py:3:8
	//       -> (%3, %7)
	//   return (%y)
	// <nil>
}

// Parse the graph PyTorch printed, look at its nodes, and print it back.
func ExampleParse() {
	g, err := ir.Parse(`graph(%self : __torch__.M,
      %x.1 : Tensor):
  %2 : int = prim::Constant[value=1]()
  %3 : float = prim::Constant[value=0.5]() # m.py:4:20
  %y.1 : Tensor = aten::add(%x.1, %3, %2) # m.py:4:10
  return (%y.1)
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, n := range g.Nodes() {
		fmt.Println(n.Kind, n.Op)
	}
	fmt.Println(g.Inputs()[0].Type.Kind() == types.ClassKind)
	fmt.Print(g)
	// Output:
	// prim::Constant <nil>
	// prim::Constant <nil>
	// aten::add aten.add.Scalar
	// true
	// graph(%self : __torch__.M,
	//       %x.1 : Tensor):
	//   %2 : int = prim::Constant[value=1]()
	//   %3 : float = prim::Constant[value=0.5]() # m.py:4:20
	//   %y.1 : Tensor = aten::add(%x.1, %3, %2) # m.py:4:10
	//   return (%y.1)
}

// Errors name the line and column.
func ExampleParseError() {
	_, err := ir.Parse("graph(%x : Tensor):\n  %y : Tensor = aten::relu(%z)\n  return (%y)\n")
	fmt.Println(err)
	// Output:
	// ir: 2:28: value %z is used before it is defined
}
