package export_test

import (
	"fmt"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/passes"
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
	//     add = torch.ops.aten.add.Tensor(b_calls, 1.0);  b_calls = None
	//     mul = torch.ops.aten.mul.Tensor(x, 2);  x = None
	//     relu = torch.ops.aten.relu.default(mul);  mul = None
	//     return (add, relu)
	// map[add:calls]
	// [9 3] [1]
	// export: the program takes 1 inputs (x), got 2
}

// convBN is a convolution followed by a batch norm.
type convBN struct {
	nn.Base
	Conv *nn.Conv2d
	BN   *nn.BatchNorm2d
}

func (m *convBN) Forward(x nn.Value) nn.Value { return nn.Call(m.BN, nn.Call(m.Conv, x)) }

// ExampleExportedProgram_Transform folds the batch norm of an exported
// program into its convolution: the pass runs on the program's
// GraphModule, and Transform lifts the folded weights back into
// parameters. The new program still checks its inputs.
func ExampleExportedProgram_Transform() {
	m := &convBN{}
	m.Init(m, "ConvBN")
	m.Conv = nn.RegisterModule(&m.Base, "conv", nn.NewConv2d(3, 4, 3))
	m.BN = nn.RegisterModule(&m.Base, "bn", nn.NewBatchNorm2d(4))
	nn.Eval(m)
	x, _ := tensor.New(tensor.Float32, 2, 3, 8, 8)
	ep, err := export.Export(m, []any{x}, export.Dims{"x": {0: export.Dim("batch", 1, 16)}})
	if err != nil {
		fmt.Println(err)
		return
	}
	folded, err := ep.Transform(passes.FoldConvBN)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(folded.Graph.Code())
	fmt.Print(folded.Signature.String())
	_, err = folded.Run(x, 3)
	fmt.Println(err)
	y, _ := tensor.New(tensor.Float32, 2, 3, 8, 9)
	_, err = folded.Run(y)
	fmt.Println(err)
	// Output:
	// def forward(self, p_conv_weight, p_conv_bias, x):
	//     convolution = torch.ops.aten.convolution.default(x, p_conv_weight, p_conv_bias, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  x = p_conv_weight = p_conv_bias = None
	//     return (convolution,)
	//     # inputs
	//     p_conv_weight: PARAMETER target='conv.weight'
	//     p_conv_bias: PARAMETER target='conv.bias'
	//     x: USER_INPUT
	//
	//     # outputs
	//     convolution: USER_OUTPUT
	// export: the program takes 1 inputs (x), got 2
	// export: input x dim 3: expected size 8 (static), got 9
}

// pooled takes a dict input, as a PyTorch model's forward(batch) with
// batch = {"ids": ..., "mask": ...}.
type pooled struct{ nn.Base }

func (m *pooled) ArgNames() []string { return []string{"batch"} }

func (m *pooled) Forward(batch nn.Value) nn.Value {
	h := batch.Get("x").Mul(batch.Get("mask"))
	return nn.Dict([]string{"sum", "mean"}, h.Sum(1), h.Mean(1))
}

// Example_dictInput exports a model taking a dict: each tensor of the dict
// is a user input named as torch.export names it (batch_x, batch_mask),
// dynamic dims are declared by those names, and Call takes and returns
// dicts.
func Example_dictInput() {
	m := &pooled{}
	m.Init(m, "Pooled")
	x, _ := tensor.FromFloat64s(tensor.Float32, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	mask, _ := tensor.FromFloat64s(tensor.Float32, []float64{1, 1, 0, 1, 0, 1}, 2, 3)
	t := export.Dim("t", 2, 16)
	ep, err := export.Export(m, []any{map[string]any{"x": x, "mask": mask}},
		export.Dims{"batch_x": {1: t}, "batch_mask": {1: t}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ep.Signature.UserInputs())
	fmt.Println(ep.InSpec())
	out, err := ep.Call([]any{map[string]any{"x": x, "mask": mask}}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.(map[string]any)["sum"].(*tensor.Tensor).Float64s())
	_, err = ep.Call([]any{map[string]any{"x": x}}, nil)
	fmt.Println(err)
	// Output:
	// [batch_mask batch_x]
	// TreeSpec(tuple, None, [TreeSpec(tuple, None, [TreeSpec(dict, ['mask', 'x'], [*, *])]), TreeSpec(dict, [], [])])
	// [3 10]
	// export: inputs[0][0]: missing key "mask" (expected ["mask" "x"])
}

// Batch is a model input struct, as a Python dataclass registered with
// torch.export.register_dataclass.
type Batch struct {
	Ids  nn.Value `pytree:"ids"`
	Mask nn.Value `pytree:"mask"`
}

// masked reads a *Batch input.
type masked struct{ nn.Base }

func (m *masked) ArgNames() []string { return []string{"batch"} }

func (m *masked) Forward(x nn.Value) nn.Value {
	b := x.Any().(*Batch)
	return b.Ids.Mul(b.Mask)
}

// ExampleRegister registers a struct type as a pytree node: its nn.Value
// fields become inputs, and the in spec names the type and its fields, as
// PyTorch writes a registered dataclass's.
func ExampleRegister() {
	if err := export.Register[Batch]("mymodel.Batch"); err != nil {
		fmt.Println(err)
		return
	}
	m := &masked{}
	m.Init(m, "Masked")
	ids, _ := tensor.FromFloat64s(tensor.Float32, []float64{1, 2, 3}, 3)
	mask, _ := tensor.FromFloat64s(tensor.Float32, []float64{1, 0, 1}, 3)
	ep, err := export.Export(m, []any{&Batch{Ids: nn.Tensor(ids), Mask: nn.Tensor(mask)}}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ep.Signature.UserInputs())
	fmt.Println(ep.InSpec().Children[0])
	js, _ := ep.InSpec().Children[0].Children[0].MarshalPyTorch()
	fmt.Println(js)
	out, _ := ep.Call([]any{&Batch{Ids: nn.Tensor(ids), Mask: nn.Tensor(ids)}}, nil)
	fmt.Println(out.(*tensor.Tensor).Float64s())
	// Output:
	// [batch_ids batch_mask]
	// TreeSpec(tuple, None, [TreeSpec(Batch, [['ids', 'mask'], []], [*, *])])
	// [1, {"type": "mymodel.Batch", "context": "[[\"ids\", \"mask\"], []]", "children_spec": [{"type": null, "context": null, "children_spec": []}, {"type": null, "context": null, "children_spec": []}]}]
	// [1 4 9]
}
