// Recipe: check a trace with other inputs (torch.jit.trace's
// check_inputs), the seed's "Automatic Trace Checking".
//
// What it teaches: a trace is specialized to what the example input made
// the Go code do. A Go loop over x.Size(0) of a static dimension is
// unrolled: the program computes the example's three-step product for any
// input. export.CheckInputs traces again on each check input and reports
// the difference as PyTorch does: the diff of the two graphs (the check
// input of size 4 unrolls one step more), the first diverging node with
// its Go line, and the first output of the trace that differs from the Go
// Forward's on the check input. Declaring the dimension dynamic gives the
// same answer at export time: the loop specializes it, and Export refuses
// with the guard and the Go line.
//
// torch.jit equivalent:
//
//	def loop_in_traced_fn(x):
//	    result = x[0]
//	    for i in range(x.size(0)):
//	        result = result * x[i]
//	    return result
//
//	inputs = (torch.rand(3, 4, 5),)
//	check_inputs = [(torch.rand(4, 5, 6),), (torch.rand(2, 3, 4),)]
//	traced = torch.jit.trace(loop_in_traced_fn, inputs, check_inputs=check_inputs)
//	# torch.jit.TracingCheckError: Tracing failed sanity checks!
//	# ERROR: Graphs differed across invocations!

package cookbook_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// loopInTracedFn is the seed's loop_in_traced_fn.
type loopInTracedFn struct{ nn.Base }

func (m *loopInTracedFn) Forward(x nn.Value) nn.Value {
	result := x.Index(0)
	for i := range x.Size(0).Int() {
		result = result.Mul(x.Index(i))
	}
	return result
}

func Example_traceCheck() {
	m := &loopInTracedFn{}
	m.Init(m, "LoopInTracedFn")
	full := func(shape ...int) *tensor.Tensor {
		t, _ := tensor.Full(tensor.Float32, 1.5, shape...)
		return t
	}

	// The example input has 3 rows; the check inputs 4 and 2.
	_, err := export.Export(m, []any{full(3, 4, 5)}, nil,
		export.CheckInputs([]any{full(4, 5, 6)}, []any{full(2, 3, 4)}))
	var e *export.TraceCheckError
	if errors.As(err, &e) {
		fmt.Printf("check input %d: %s\n", e.Check, e.Kind)
		for _, l := range strings.Split(e.GraphDiff, "\n") {
			if !strings.HasPrefix(l, "  ") { // the changed lines
				fmt.Println(l)
			}
		}
		fmt.Println("first diverging node:", e.Diverging.Check)
		fmt.Printf("output %d differs from the Go function's\n", e.Output.Index)
	}

	// With the dimension declared dynamic, Export itself says so.
	_, err = export.Export(m, []any{full(3, 4, 5)}, export.Dims{"x": {0: export.Dim("n", 2, 16)}})
	for _, l := range strings.Split(err.Error(), "\n") {
		if i := strings.Index(l, " (guard"); i >= 0 {
			fmt.Println(strings.TrimSpace(l[:i]))
		}
	}
	// Output:
	// check input 0: graphs differed
	// +     %select_4 = call_function[target=aten.select.int](args = (%x, 0, 3), kwargs = {})
	// +     %mul_3 = call_function[target=aten.mul.Tensor](args = (%mul_2, %select_4), kwargs = {})
	// -     return (mul_2,)
	// ?                 ^
	// +     return (mul_3,)
	// ?                 ^
	// first diverging node: %select_4 = call_function[target=aten.select.int](args = (%x, 0, 3), kwargs = {})
	// output 0 differs from the Go function's
	// - dimension n (s0) was specialized to 3: the model only works for that size, so it cannot be dynamic (remove it from the spec)
}
