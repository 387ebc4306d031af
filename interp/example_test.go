package interp_test

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

// NegSigmSwapInterpreter is the interpreter of torch.fx's documentation:
// it runs sigmoid where the graph says neg, and neg where it says sigmoid.
// It also counts the nodes it runs.
type NegSigmSwapInterpreter struct {
	*interp.Interpreter
	Ran int
}

// CallFunction swaps the two operators and runs the default step.
func (s *NegSigmSwapInterpreter) CallFunction(n *node.Node, fn node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	switch fn {
	case aten.Sigmoid:
		fn = aten.Neg
	case aten.Neg:
		fn = aten.Sigmoid
	}
	return s.Interpreter.CallFunction(n, fn, args, kwargs)
}

// CallMethod swaps the two methods.
func (s *NegSigmSwapInterpreter) CallMethod(n *node.Node, name string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	switch name {
	case "sigmoid":
		name = "neg"
	case "neg":
		name = "sigmoid"
	}
	return s.Interpreter.CallMethod(n, name, args, kwargs)
}

// RunNode counts the nodes.
func (s *NegSigmSwapInterpreter) RunNode(n *node.Node) (nn.Value, error) {
	s.Ran++
	return s.Interpreter.RunNode(n)
}

// Override steps of the interpreter, as torch.fx's documentation does by
// subclassing Interpreter: the graph computes neg(sigmoid(x)), the
// interpreter runs sigmoid(neg(x)).
func Example() {
	g, err := graph.Parse(`
%x = placeholder "x"()
%sigmoid = call_function aten.sigmoid.default(%x)
%neg = call_method "neg"(%sigmoid)
%output = output "output"(%neg)`)
	if err != nil {
		panic(err)
	}
	x, _ := tensor.FromFloat64s(tensor.Float32, []float64{-1, 0, 1}, 3)

	plain, err := interp.New(g, nil).Run(nn.Tensor(x))
	fmt.Println(plain, err)

	s := &NegSigmSwapInterpreter{Interpreter: interp.New(g, nil)}
	s.Steps = s // dispatch every step through the overrides
	swapped, err := s.Run(nn.Tensor(x))
	fmt.Println(swapped, err)
	fmt.Println(s.Ran, "nodes")
	// Output:
	// tensor([-0.2689, -0.5000, -0.7311]) <nil>
	// tensor([0.7311, 0.5000, 0.2689]) <nil>
	// 4 nodes
}
