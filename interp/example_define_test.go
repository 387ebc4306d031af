package interp_test

import (
	"fmt"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/tensor"
)

// An operator defined by a graph: PyTorch's custom_op example,
// softplus(x * beta) / beta, registered under its schema and called like
// any operator. PyTorch's F.softplus(x, beta=2) prints tensor([ 0.0635,
// 0.3466, 30.0000]) for this x.
func ExampleDefine() {
	g, err := graph.Parse(`
%x = placeholder "x"()
%beta = placeholder "beta"()
%mul = call_function aten.mul.Tensor(%x, %beta)
%softplus = call_function aten.softplus.default(%mul)
%div = call_function aten.div.Tensor(%softplus, %beta)
%output = output "output"(%div)
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	op, err := interp.Define("example::scaled_softplus(Tensor x, float beta) -> Tensor", g)
	if err != nil {
		fmt.Println(err)
		return
	}
	x := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{-1, 0, 30}, 3))
	y, err := op.Call1(x, 2.0)
	fmt.Println(y, err)
	// Output:
	// tensor([ 0.0635,  0.3466, 30.0000]) <nil>
}
