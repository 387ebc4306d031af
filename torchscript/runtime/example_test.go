package runtime_test

import (
	"fmt"
	"log"

	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/runtime"
	"github.com/gofx/gofx/torchscript/types"
)

// Run a graph built with the IR builder: n // 2 + len(xs) on an int and a
// list, with TorchScript's int operators.
func ExampleInterpreter_Run() {
	g := ir.NewGraph()
	n, _ := g.AddInput("n", types.Int)
	xs, _ := g.AddInput("xs", &types.List{Elem: types.Str})
	two, _ := g.Constant(int64(2))
	half, _ := g.InsertNode("aten::floordiv", []*ir.Value{n, two}, types.Int)
	l, _ := g.InsertNode("aten::len", []*ir.Value{xs}, types.Int)
	sum, _ := g.InsertNode("aten::add", []*ir.Value{half.Output(), l.Output()}, types.Int)
	g.RegisterOutput(sum.Output())

	in := runtime.NewInterpreter(nil)
	out, err := in.Run(&runtime.Function{Name: "f", Graph: g}, int64(-7), runtime.NewList(types.Str, "a", "b"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(runtime.Str(out[0]))
	// Output: -2
}
