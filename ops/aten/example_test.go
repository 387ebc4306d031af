package aten_test

import (
	"fmt"

	_ "github.com/gofx/gofx/kernels" // the reference kernels
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// A handle is the registry's operator: it prints as torch prints the
// overload, carries the schema and tags, and calls the kernel.
func Example() {
	fmt.Println(aten.AddTensor)
	fmt.Println(aten.AddTensor.Schema())
	fmt.Println(aten.AddTensor.Has(ops.Core))

	x, err := tensor.FromFloat64s(tensor.Float32, []float64{1, 2, 3}, 3)
	if err != nil {
		panic(err)
	}
	out, err := aten.AddTensor.Call([]any{x, x}, map[string]any{"alpha": 2})
	if err != nil {
		panic(err)
	}
	fmt.Println(out[0].(*tensor.Tensor).Float64s())
	// Output:
	// aten.add.Tensor
	// aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
	// true
	// [3 6 9]
}

// All lists the handles, for instance to find core operators without a
// kernel yet.
func ExampleAll() {
	core, other := 0, 0
	for _, op := range aten.All() {
		if op.Has(ops.Core) {
			core++
		} else {
			other++
		}
	}
	fmt.Println(len(aten.All()), core, other)
	// Output:
	// 221 187 34
}
