package functional_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
)

// signFlip is the seed documents' data-dependent branch: sin of x when
// its sum is positive, cos of it otherwise.
type signFlip struct{ nn.Base }

func (m *signFlip) Forward(x nn.Value) nn.Value {
	return F.Cond(x.Sum().Gt(0),
		func(o ...nn.Value) nn.Value { return o[0].Method("sin") },
		func(o ...nn.Value) nn.Value { return o[0].Method("cos") },
		x)
}

func ExampleCond() {
	m := &signFlip{}
	m.Init(m, "SignFlip")

	// Eagerly, Cond runs the taken branch.
	x := tensor.Must(tensor.FromSlice([]float32{0, -1}, 2))
	out, err := nn.Run(m, nn.Of(x))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)

	// Traced, both branches are subgraphs and the decision stays in the
	// graph.
	gm, err := fx.SymbolicTrace(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(gm.Code())
	tg, _ := gm.Child("true_graph_0")
	fmt.Print(tg.(*fx.GraphModule).Code())

	// The traced module runs the branch the data selects.
	out, err = gm.Run(nn.Of(tensor.Must(tensor.FromSlice([]float32{1, 2}, 2))))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output:
	// tensor([1.0000, 0.5403])
	// def forward(self, x):
	//     sum_1 = x.sum()
	//     gt = torch.ops.aten.gt.Scalar(sum_1, 0);  sum_1 = None
	//     true_graph_0 = self.true_graph_0
	//     false_graph_0 = self.false_graph_0
	//     cond = torch.ops.higher_order.cond(gt, true_graph_0, false_graph_0, [x]);  gt = true_graph_0 = false_graph_0 = x = None
	//     getitem = cond[0];  cond = None
	//     return getitem
	// def forward(self, x):
	//     sin = x.sin();  x = None
	//     return (sin,)
	// tensor([0.8415, 0.9093])
}
