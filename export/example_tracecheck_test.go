package export_test

import (
	"errors"
	"fmt"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// loopModel is the seed's loop_in_traced_fn in Go:
//
//	def loop_in_traced_fn(x):
//	    result = x[0]
//	    for i in range(x.size(0)):
//	        result = result * x[i]
//	    return result
type loopModel struct{ nn.Base }

func (m *loopModel) Forward(x nn.Value) nn.Value {
	result := x.Index(0)
	for i := range x.Size(0).Int() {
		result = result.Mul(x.Index(i))
	}
	return result
}

// ExampleCheckInputs is the seed's "Automatic Trace Checking": the Go
// loop over x.Size(0) of a static dimension is unrolled by the trace, so
// the check input of another size traces a different graph. The error
// gives the diff of the two graphs, the first diverging node, and the
// first output of the trace's graph that differs from the Go Forward's on
// the check input.
func ExampleCheckInputs() {
	m := &loopModel{}
	m.Init(m, "LoopModel")
	ones := func(shape ...int) *tensor.Tensor {
		t, _ := tensor.Full(tensor.Float32, 1.5, shape...)
		return t
	}
	inputs := []any{ones(3, 4, 5)}
	_, err := export.Export(m, inputs, nil, export.CheckInputs([]any{ones(4, 5, 6)}, []any{ones(2, 3, 4)}))
	var e *export.TraceCheckError
	if !errors.As(err, &e) {
		fmt.Println("no trace check error:", err)
		return
	}
	fmt.Println(e.Kind, "on check input", e.Check, "("+e.Inputs+")")
	fmt.Println("ERROR: Graphs differed across invocations!")
	fmt.Println(e.GraphDiff)
	fmt.Println("First diverging operator:")
	fmt.Println("- " + e.Diverging.Trace)
	fmt.Println("+ " + e.Diverging.Check)
	fmt.Printf("Output nr %d. differs from the Go function's: greatest absolute difference %.4f\n", e.Output.Index+1, e.Output.MaxAbsDiff)
	// Output:
	// graphs differed on check input 0 (x: float32[4, 5, 6])
	// ERROR: Graphs differed across invocations!
	//   graph():
	//       %x = placeholder[target=x]
	//       %select = call_function[target=aten.select.int](args = (%x, 0, 0), kwargs = {})
	//       %select_1 = call_function[target=aten.select.int](args = (%x, 0, 0), kwargs = {})
	//       %mul = call_function[target=aten.mul.Tensor](args = (%select, %select_1), kwargs = {})
	//       %select_2 = call_function[target=aten.select.int](args = (%x, 0, 1), kwargs = {})
	//       %mul_1 = call_function[target=aten.mul.Tensor](args = (%mul, %select_2), kwargs = {})
	//       %select_3 = call_function[target=aten.select.int](args = (%x, 0, 2), kwargs = {})
	//       %mul_2 = call_function[target=aten.mul.Tensor](args = (%mul_1, %select_3), kwargs = {})
	// +     %select_4 = call_function[target=aten.select.int](args = (%x, 0, 3), kwargs = {})
	// +     %mul_3 = call_function[target=aten.mul.Tensor](args = (%mul_2, %select_4), kwargs = {})
	// -     return (mul_2,)
	// ?                 ^
	// +     return (mul_3,)
	// ?                 ^
	// First diverging operator:
	// - return (mul_2,)
	// + %select_4 = call_function[target=aten.select.int](args = (%x, 0, 3), kwargs = {})
	// Output nr 1. differs from the Go function's: greatest absolute difference 2.5312
}
