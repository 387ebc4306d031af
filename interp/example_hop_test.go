package interp_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// branches holds the two branch graphs of a cond.
type branches struct{ nn.Base }

// A graph with torch.cond as torch.export writes it: the branches are
// submodules read with get_attr, the result a tuple read with getitem.
// Only the branch the predicate picks runs.
func Example_cond() {
	root := &branches{}
	root.Init(root, "Branches")
	for name, op := range map[string]string{"true_graph_0": "aten.sin.default", "false_graph_0": "aten.neg.default"} {
		g, _ := graph.Parse(`
%x = placeholder "x"()
%r = call_function ` + op + `(%x)
%output = output "output"((%r,))`)
		gm, _ := fx.NewGraphModule(nil, g)
		nn.RegisterModule(&root.Base, name, gm)
	}
	g, err := graph.Parse(`
%x = placeholder "x"()
%s = call_function aten.sum.default(%x)
%gt = call_function aten.gt.Scalar(%s, 0)
%true_graph_0 = get_attr "true_graph_0"()
%false_graph_0 = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%gt, %true_graph_0, %false_graph_0, [%x])
%getitem = call_function operator.getitem(%cond, 0)
%output = output "output"(%getitem)`)
	if err != nil {
		fmt.Println(err)
		return
	}
	in := interp.New(g, root)
	for _, data := range [][]float32{{0, 1}, {-1, -2}} {
		x := tensor.Must(tensor.FromSlice(data, 2))
		out, err := in.Run(nn.Tensor(x))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(out)
	}
	// Output:
	// tensor([0.0000, 0.8415])
	// tensor([1., 2.])
}
