package export_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// partsProgram builds, by hand, the program of
//
//	def forward(self, batch):                  # batch = {"x": f32[s0], "y": f32[s0]}
//	    self.count.add_(1)
//	    h = batch["x"] + self.w
//	    return {"prod": h * batch["y"], "sum": [h]}
//
// with w = [10, 20, 30] (a parameter) and count (a buffer).
func partsProgram(t *testing.T) (*export.ExportedProgram, *tensor.Tensor) {
	t.Helper()
	env := sym.NewEnv()
	s0, err := env.NewSymbol("s0", 3, sym.Range{Lo: 2, Hi: 8})
	require.NoError(t, err)
	g := graph.New()
	ph := func(name string, f *shapeprop.Fake) *node.Node {
		n, err := g.Placeholder(name)
		require.NoError(t, err)
		node.Val.Set(&n.Meta, f)
		return n
	}
	dyn := &shapeprop.Fake{DType: tensor.Float32, Shape: []sym.Expr{s0.Expr()}}
	w := ph("p_w", &shapeprop.Fake{DType: tensor.Float32, Shape: []sym.Expr{sym.Const(3)}})
	count := ph("b_count", &shapeprop.Fake{DType: tensor.Int64, Shape: []sym.Expr{}})
	x := ph("batch_x", dyn)
	y := ph("batch_y", dyn)
	add1, err := g.CallFunction(aten.AddScalar, []node.Arg{count, node.Int(1)}, nil)
	require.NoError(t, err)
	h, err := g.CallFunction(aten.AddTensor, []node.Arg{x, w}, nil)
	require.NoError(t, err)
	prod, err := g.CallFunction(aten.MulTensor, []node.Arg{h, y}, nil)
	require.NoError(t, err)
	_, err = g.Output(node.Tuple{add1, prod, h})
	require.NoError(t, err)

	wt := tensor.Must(tensor.FromSlice([]float32{10, 20, 30}, 3))
	ct := tensor.Scalar[int64](5)
	ep, err := export.New(export.Parts{
		Graph: g,
		Signature: export.Signature{
			Inputs: []export.InputSpec{
				{Kind: export.Parameter, Name: "p_w", Target: "w"},
				{Kind: export.Buffer, Name: "b_count", Target: "count", Persistent: true},
				{Kind: export.UserInput, Name: "batch_x"},
				{Kind: export.UserInput, Name: "batch_y"},
			},
			Outputs: []export.OutputSpec{
				{Kind: export.BufferMutation, Name: add1.Name(), Target: "count"},
				{Kind: export.UserOutput, Name: prod.Name()},
				{Kind: export.UserOutput, Name: h.Name()},
			},
		},
		State:    map[string]*tensor.Tensor{"w": wt, "count": ct},
		Env:      env,
		InSpec:   export.TupleSpec(export.TupleSpec(export.DictSpec([]string{"x", "y"}, export.Leaf(), export.Leaf())), export.DictSpec(nil)),
		OutSpec:  export.DictSpec([]string{"prod", "sum"}, export.Leaf(), export.ListSpec(export.Leaf())),
		ArgNames: []string{"batch"},
	})
	require.NoError(t, err)
	return ep, ct
}

func TestNewRunsNested(t *testing.T) {
	ep, count := partsProgram(t)
	x := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4}, 4))
	y := tensor.Must(tensor.FromSlice([]float32{2, 2, 2, 2}, 4))
	_, err := ep.Call([]any{map[string]any{"x": x, "y": y}}, nil)
	// w has 3 elements: adding an x of 4 fails in the kernel.
	require.Error(t, err)

	x = tensor.Must(tensor.FromSlice([]float32{1, 2, 3}, 3))
	y = tensor.Must(tensor.FromSlice([]float32{2, 0.5, -1}, 3))
	out, err := ep.Call([]any{map[string]any{"x": x, "y": y}}, nil)
	require.NoError(t, err)
	m, ok := out.(map[string]any)
	require.True(t, ok, "%T", out)
	assert.Equal(t, []float64{22, 11, -33}, m["prod"].(*tensor.Tensor).Float64s())
	sum := m["sum"].([]any)
	assert.Equal(t, []float64{11, 22, 33}, sum[0].(*tensor.Tensor).Float64s())
	assert.Equal(t, []float64{6}, count.Float64s(), "the buffer mutation is written back")

	// Run returns the dict as an nn.Dict, in the out spec's key order.
	res, err := ep.Run(map[string]any{"x": x, "y": y})
	require.NoError(t, err)
	assert.Equal(t, []string{"prod", "sum"}, res.Keys())
	assert.Equal(t, []float64{11, 22, 33}, res.Get("sum").Tuple()[0].MustTensor().Float64s())
	_, err = ep.Run(map[string]any{"x": x})
	assert.EqualError(t, err, `export: input batch: missing key "y" (expected ["x" "y"])`)
	_, err = ep.Run(x, y)
	assert.EqualError(t, err, "export: the program takes 1 inputs (batch), got 2")
	outs, err := ep.RunFlat(x, y)
	require.NoError(t, err)
	assert.Len(t, outs, 2)
	_, err = ep.RunFlat(x, tensor.Must(tensor.FromSlice([]float32{1, 2}, 2)))
	assert.EqualError(t, err, "export: input batch_y dim 0: size 2 differs from batch_x.shape[0] = 3, which shares dimension s0")
	big := tensor.Must(tensor.Zeros(tensor.Float32, 9))
	_, err = ep.RunFlat(big, big)
	assert.EqualError(t, err, "export: input batch_x dim 0: size 9 is outside the range [2, 8] of dimension s0")

	assert.Equal(t, "TreeSpec(dict, ['prod', 'sum'], [*, TreeSpec(list, None, [*])])", ep.OutSpec().String())
	assert.Contains(t, ep.String(), "def forward(self, p_w: \"f32[3]\", b_count: \"i64[]\", batch_x: \"f32[s0]\", batch_y: \"f32[s0]\"):")

	// The GraphModule returns the dict.
	gm, err := ep.Module()
	require.NoError(t, err)
	assert.Contains(t, gm.Graph.String(), "return {'prod': mul, 'sum': [add_1]}")
}

func TestNewErrors(t *testing.T) {
	g := graph.New()
	x, err := g.Placeholder("x")
	require.NoError(t, err)
	node.Val.Set(&x.Meta, &shapeprop.Fake{DType: tensor.Float32, Shape: []sym.Expr{sym.Const(2)}})
	_, err = g.Output(node.Tuple{x})
	require.NoError(t, err)
	for _, c := range []struct {
		p   export.Parts
		msg string
	}{
		{export.Parts{}, "nil graph"},
		{export.Parts{Graph: g}, "the graph has 1 placeholders (x), the signature 0 inputs ()"},
		{export.Parts{Graph: g, Signature: export.Signature{Inputs: []export.InputSpec{{Kind: export.UserInput, Name: "y"}}}}, "placeholder 0 is x, but input 0 of the signature is y"},
		{export.Parts{Graph: g, Signature: export.Signature{Inputs: []export.InputSpec{{Kind: export.Parameter, Name: "x", Target: "w"}}}}, `PARAMETER input x: no tensor for its target "w" in the state`},
		{export.Parts{Graph: g, Signature: export.Signature{Inputs: []export.InputSpec{{Kind: export.UserInput, Name: "x"}}}}, "the signature has 0 outputs"},
		{export.Parts{Graph: g, Signature: export.Signature{Inputs: []export.InputSpec{{Kind: export.UserInput, Name: "x"}}, Outputs: []export.OutputSpec{{Kind: export.UserOutput, Name: "x"}}}, OutSpec: export.TupleSpec()}, "the out spec has 0 leaves, the signature 1 user outputs"},
		{export.Parts{Graph: g, Signature: export.Signature{Inputs: []export.InputSpec{{Kind: export.UserInput, Name: "x"}}, Outputs: []export.OutputSpec{{Kind: export.UserOutput, Name: "x"}}}, InSpec: export.TupleSpec()}, "the in spec must be a tuple of (args tuple, kwargs dict)"},
	} {
		_, err := export.New(c.p)
		if assert.Error(t, err) {
			assert.Contains(t, err.Error(), c.msg)
		}
	}
}
