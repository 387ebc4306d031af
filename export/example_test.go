package export_test

import (
	"fmt"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// scale is a module with a buffer it updates on every call.
type scale struct {
	nn.Base
	Calls *nn.Buffer
}

func newScale() *scale {
	m := &scale{}
	m.Init(m, "Scale")
	zero, _ := tensor.New(tensor.Float32)
	m.Calls = m.RegisterBuffer("calls", zero, true)
	return m
}

func (m *scale) Forward(x nn.Value) nn.Value {
	m.Calls.Value().Add_(1.0)
	return x.Mul(2).Relu()
}

// Example exports a module with a dynamic batch: the program is core
// ATen, the buffer update is an extra output that Run writes back, and any
// batch in the declared range runs.
func Example() {
	x, _ := tensor.New(tensor.Float32, 4, 3)
	ep, err := export.Export(newScale(), []any{x}, export.Dims{"x": {0: export.Dim("batch", 2, 64)}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(ep.Graph.Code())
	fmt.Println(ep.Signature.BuffersToMutate())
	y, _ := tensor.New(tensor.Float32, 9, 3)
	out, _ := ep.Run(y)
	fmt.Println(out.MustTensor().Shape(), ep.StateDict()["calls"].Float64s())
	_, err = ep.Run(x.Clone(), 1)
	fmt.Println(err)
	// Output:
	// def forward(self, b_calls, x):
	//     add = torch.ops.aten.add.Scalar(b_calls, 1.0);  b_calls = None
	//     mul = torch.ops.aten.mul.Scalar(x, 2);  x = None
	//     relu = torch.ops.aten.relu.default(mul);  mul = None
	//     return (add, relu)
	// map[add:calls]
	// [9 3] [1]
	// export: the program takes 1 inputs (x), got 2
}
