// Recipe: an Interpreter that observes every value.
//
// What it teaches: running a graph node by node with your own code around
// each step. Embed *interp.Interpreter, override RunNode, call the default
// and look at the value: here the shape and the range [min, max] of every
// tensor, as a quantization observer records during calibration (and as the
// docs' hand-written ShapeProp records shapes).
//
// torch.fx equivalent:
//
//	class Observer(torch.fx.Interpreter):
//	    def run_node(self, n):
//	        result = super().run_node(n)
//	        if isinstance(result, torch.Tensor):
//	            self.ranges[n.name] = (list(result.shape), result.min().item(), result.max().item())
//	        return result
//	Observer(gm).run(x)

package cookbook_test

import (
	"fmt"
	"slices"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
)

// observer records each tensor node's shape and range, in run order.
type observer struct {
	*interp.Interpreter
	seen []string
}

func (o *observer) RunNode(n *node.Node) (nn.Value, error) {
	v, err := o.Interpreter.RunNode(n) // the default step
	if err == nil && v.IsTensor() {
		vals := v.Tensor().Float64s()
		o.seen = append(o.seen, fmt.Sprintf("%-8s %v [%.2f, %.2f]", n.Name(), v.Tensor().Shape(), slices.Min(vals), slices.Max(vals)))
	}
	return v, err
}

func Example_interpreter() {
	gm, err := fx.SymbolicTraceFunc(func(x nn.Value) nn.Value { return x.Mul(2).Sub(1).Relu().Sum(1) })
	if err != nil {
		fmt.Println(err)
		return
	}
	o := &observer{Interpreter: interp.New(gm.Graph, gm)}
	o.Steps = o // dispatch every step through the override
	x := tensor.Must(tensor.FromSlice([]float32{0, 0.25, 0.5, 0.75, 1, 1.5}, 2, 3))
	out, err := o.Run(nn.Tensor(x))
	fmt.Println(out, err)
	for _, line := range o.seen {
		fmt.Println(line)
	}
	// Output:
	// tensor([0.0000, 3.5000]) <nil>
	// x        [2 3] [0.00, 1.50]
	// mul      [2 3] [0.00, 3.00]
	// sub      [2 3] [-1.00, 2.00]
	// relu     [2 3] [0.00, 2.00]
	// sum_1    [2] [0.00, 3.50]
	// output   [2] [0.00, 3.50]
}
