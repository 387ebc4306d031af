package ops_test

import (
	"fmt"
	"sync"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// defineScale defines the custom operator of the examples once, however
// often the examples run in one process.
var defineScale = sync.OnceValues(func() (*ops.Operator, error) {
	// The kernel computes on concrete tensors.
	kernel := func(c *ops.Call) ([]any, error) {
		x := c.Tensor("self")
		if !x.DType().IsFloat() {
			return nil, c.Errorf("self", "expected a floating tensor, got %s", x.DType())
		}
		vals := x.Float64s()
		for i := range vals {
			vals[i] *= c.Float("factor")
		}
		out, err := tensor.FromFloat64s(x.DType(), vals, x.Shape()...)
		return []any{out}, err
	}
	// The meta function computes the output's dtype and shape only.
	meta := func(c *ops.Call) ([]any, error) {
		x := c.Tensor("self")
		out, err := tensor.NewMeta(x.DType(), x.Shape()...)
		return []any{out}, err
	}
	return ops.Define("example::scale(Tensor self, float factor=2.0) -> Tensor", kernel, meta, 0)
})

// Define registers a custom operator with its kernel and meta function;
// Call runs the kernel on concrete tensors and the meta function on meta
// tensors, and reports bad calls as errors naming the argument.
func ExampleDefine() {
	op, err := defineScale()
	if err != nil {
		panic(err)
	}
	fmt.Println(op, op.Schema())

	x := tensor.Must(tensor.FromSlice([]float32{1, 2, 3}))
	out, err := op.Call([]any{x}, map[string]any{"factor": 0.5})
	fmt.Println(out[0], err)

	m := tensor.Must(tensor.NewMeta(tensor.Float16, 2, 3))
	out, err = op.Call([]any{m}, nil)
	fmt.Println(out[0], err)

	_, err = op.Call([]any{tensor.Must(tensor.FromSlice([]int64{1}))}, nil)
	fmt.Println(err)
	_, err = op.Call([]any{x}, map[string]any{"factr": 3.0})
	fmt.Println(err)
	// Output:
	// example.scale.default example::scale(Tensor self, float factor=2.0) -> Tensor
	// tensor([0.5000, 1.0000, 1.5000]) <nil>
	// tensor(..., device='meta', size=(2, 3), dtype=torch.float16) <nil>
	// example::scale: argument 'self': expected a floating tensor, got int64
	// example::scale: got an unexpected keyword argument 'factr'
}

// Call1 is a shorthand for operators with one result.
func ExampleOperator_Call1() {
	op, err := defineScale()
	if err != nil {
		panic(err)
	}
	y, err := op.Call1(tensor.Scalar(1.5), 4)
	fmt.Println(y, err)
	// Output:
	// tensor(6., dtype=torch.float64) <nil>
}

// Resolve finds the overload that the arguments bind to, as calling an
// operator packet (torch.ops.aten.add) does.
func ExampleRegistry_Resolve() {
	x := tensor.Must(tensor.FromSlice([]float32{1, 2}))
	for _, args := range [][]any{{x, x}, {x, 2}, {x, 2.5}} {
		op, err := ops.Global().Resolve("aten::add", args, nil)
		fmt.Println(op, err)
	}
	op, err := ops.Global().Resolve("aten::sum", []any{x, []int{0}}, map[string]any{"keepdim": true})
	fmt.Println(op, err)

	_, err = ops.Global().Resolve("aten::transpose", []any{x, "a", 1}, nil)
	fmt.Println(err)
	// Output:
	// aten.add.Tensor <nil>
	// aten.add.Scalar <nil>
	// aten.add.Scalar <nil>
	// aten.sum.dim_IntList <nil>
	// ops: no overload of aten::transpose accepts these arguments:
	//   aten::transpose.Dimname(Tensor(a) self, str dim0, str dim1) -> Tensor(a): argument 'dim1': expected str, got int
	//   aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a): argument 'dim0': expected int, got str
}

// Invoke resolves and calls in one step.
func ExampleInvoke() {
	if _, err := defineScale(); err != nil {
		panic(err)
	}
	out, err := ops.Invoke("example::scale", []any{tensor.Must(tensor.FromSlice([]float64{1, -2}))}, nil)
	fmt.Println(out[0], err)
	// Output:
	// tensor([ 2., -4.], dtype=torch.float64) <nil>
}

// ResultType applies PyTorch's promotion rules to tensors and numbers.
func ExampleResultType() {
	u8 := tensor.Must(tensor.NewMeta(tensor.Uint8, 3))
	i64 := tensor.Must(tensor.NewMeta(tensor.Int64))
	fmt.Println(ops.ResultType(u8, i64))                                      // a 0-d tensor of the same category does not widen
	fmt.Println(ops.ResultType(u8, 2.5))                                      // a float number gives the default dtype
	fmt.Println(ops.ResultType(u8, tensor.Must(tensor.NewMeta(tensor.Int8)))) // same category
	fmt.Println(ops.PromoteTypes(tensor.Uint8, tensor.Int8), ops.PromoteTypes(tensor.Float16, tensor.BFloat16))
	// Output:
	// uint8 <nil>
	// float32 <nil>
	// uint8 <nil>
	// int16 float32
}

// An operator whose schema changed between PyTorch releases keeps every
// version; a call binds to the newest one that accepts it.
func ExampleOperator_Schemas() {
	op, _ := ops.Global().LookupQualified("torch.ops.aten._cdist_backward.default")
	for _, s := range op.Schemas() {
		fmt.Println(s)
	}
	x := tensor.Must(tensor.Zeros(tensor.Float32, 2, 3))
	// A call as PyTorch 2.6 wrote it, with 2.6's argument name.
	c, err := op.Bind(nil, map[string]any{"grad": x, "x1": x, "x2": x, "p": 2.0, "cdist": x})
	fmt.Println(err, c.Schema() == op.Schema(), c.Tensor("grad_output") == x)
	// Output:
	// aten::_cdist_backward(Tensor grad_output, Tensor x1, Tensor x2, float p, Tensor cdist) -> Tensor
	// aten::_cdist_backward(Tensor grad, Tensor x1, Tensor x2, float p, Tensor cdist) -> Tensor
	// <nil> true true
}

// LookupQualified resolves the operator names .pt2 files write.
func ExampleRegistry_LookupQualified() {
	op, err := ops.Global().LookupQualified("torch.ops.aten.scaled_dot_product_attention.default")
	fmt.Println(op, op.Tags(), err)
	_, err = ops.Global().LookupQualified("torch.ops.mylib.fused.default")
	fmt.Println(err)
	// Output:
	// aten.scaled_dot_product_attention.default composite|random <nil>
	// ops: unknown operator torch.ops.mylib.fused.default (a custom operator: register its schema with ops.Define)
}
