package export_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
)

// affine computes (x * w + s + c) repeated n times, with w a parameter, s
// a buffer, c a tensor made in Forward (a lifted constant) and n an int
// input (specialized).
type affine struct {
	nn.Base
	W *nn.Parameter
	S *nn.Buffer
	c *tensor.Tensor
}

func newAffine(t *testing.T) *affine {
	m := &affine{}
	m.Init(m, "Affine")
	w, err := tensor.FromFloat64s(tensor.Float32, []float64{1, 2, 3}, 3)
	require.NoError(t, err)
	s, err := tensor.FromFloat64s(tensor.Float32, []float64{10, 20, 30}, 3)
	require.NoError(t, err)
	m.c, err = tensor.FromFloat64s(tensor.Float32, []float64{100, 200, 300}, 3)
	require.NoError(t, err)
	m.W = m.RegisterParameter("w", w)
	m.S = m.RegisterBuffer("s", s, true)
	return m
}

func (m *affine) ArgNames() []string { return []string{"x", "n"} }

func (m *affine) Forward(x, n nn.Value) nn.Value {
	y := x
	for i := int64(0); i < n.Int(); i++ {
		y = y.Mul(m.W.Value()).Add(m.S.Value()).Add(nn.Tensor(m.c))
	}
	return y
}

// exportAffine exports affine with a dynamic batch and n = 1.
func exportAffine(t *testing.T) *export.ExportedProgram {
	t.Helper()
	x, err := tensor.New(tensor.Float32, 4, 3)
	require.NoError(t, err)
	ep, err := export.Export(newAffine(t), []any{x, 1}, export.Dims{"x": {0: export.Dim("batch", 2, 64)}})
	require.NoError(t, err)
	require.Len(t, ep.Constants(), 1, "the test needs a lifted constant:\n%s", ep)
	return ep
}

// ones returns a [b, 3] tensor of ones.
func ones(t *testing.T, b int) *tensor.Tensor {
	t.Helper()
	x, err := tensor.Full(tensor.Float32, 1, b, 3)
	require.NoError(t, err)
	return x
}

// TestWithStateEdit replaces the parameter w of an exported program by a
// new parameter w2 under a new placeholder: the result runs with the new
// state, keeps the constraints, the constant and the specialized input,
// and ep is unchanged.
func TestWithStateEdit(t *testing.T) {
	ep := exportAffine(t)
	text := ep.String()

	g, _, err := ep.Graph.Clone()
	require.NoError(t, err)
	sig := ep.Signature
	old, ok := g.Node(sig.Inputs[0].Name)
	require.True(t, ok)
	require.Equal(t, export.Parameter, sig.Inputs[0].Kind)
	restore := g.InsertingBefore(old)
	ph, err := g.CreateNode(node.Placeholder, node.Path("p_w2"), nil, nil, "p_w2")
	restore()
	require.NoError(t, err)
	_, err = old.ReplaceAllUsesWith(ph, nil, false)
	require.NoError(t, err)
	require.NoError(t, g.EraseNode(old))
	sig.Inputs = append([]export.InputSpec{{Kind: export.Parameter, Name: "p_w2", Target: "w2"}}, sig.Inputs[1:]...)
	w2, err := tensor.FromFloat64s(tensor.Float32, []float64{-1, 0, 1}, 3)
	require.NoError(t, err)
	state := ep.StateDict()
	delete(state, "w")
	state["w2"] = w2

	out, err := ep.WithState(g, sig, state)
	require.NoError(t, err)
	assert.Equal(t, text, ep.String(), "ep changed")
	assert.Equal(t, []string{"w2", "s"}, out.StateNames())
	assert.Same(t, w2, out.StateDict()["w2"])
	assert.Equal(t, ep.Constants(), out.Constants())
	assert.Equal(t, ep.RangeConstraints, out.RangeConstraints)
	assert.Equal(t, ep.EqualityConstraints, out.EqualityConstraints)
	assert.Equal(t, ep.ModuleCallGraph, out.ModuleCallGraph)
	assert.Same(t, ep.Env, out.Env)
	assert.Contains(t, out.String(), "p_w2: PARAMETER target='w2'")
	for n := range ep.Graph.Nodes() {
		if n.Name() != "p_w" {
			_, ok := out.Graph.Node(n.Name())
			assert.True(t, ok, "node %s lost", n.Name())
		}
	}

	// The batch stays dynamic and n stays specialized.
	res, err := out.Run(ones(t, 5), 1)
	require.NoError(t, err)
	got := res.MustTensor()
	assert.Equal(t, []int{5, 3}, got.Shape())
	assert.Equal(t, []float64{109, 220, 331}, got.Float64s()[:3])
	_, err = out.Run(ones(t, 5), 2)
	assert.ErrorContains(t, err, "input n: the program was exported with the value 1")
	_, err = out.Run(ones(t, 65), 1)
	assert.ErrorContains(t, err, "outside the range")
	// ep still computes with w.
	res, err = ep.Run(ones(t, 2), 1)
	require.NoError(t, err)
	assert.Equal(t, []float64{111, 222, 333}, res.MustTensor().Float64s()[:3])

	// Editing the copy's fields leaves ep's alone.
	out.ModuleCallGraph[0].FQN = "edited"
	out.RangeConstraints["edited"] = out.RangeConstraints["s0"]
	assert.Equal(t, "", ep.ModuleCallGraph[0].FQN)
	assert.NotContains(t, ep.RangeConstraints, "edited")
}

// TestWithStateDropsConstant replaces the lifted constant's placeholder by
// a parameter: the constant leaves the program.
func TestWithStateDropsConstant(t *testing.T) {
	ep := exportAffine(t)
	g, _, err := ep.Graph.Clone()
	require.NoError(t, err)
	sig := ep.Signature
	var ci int
	for i, in := range sig.Inputs {
		if in.Kind == export.ConstantTensor {
			ci = i
		}
	}
	c, ok := g.Node(sig.Inputs[ci].Name)
	require.True(t, ok)
	restore := g.InsertingBefore(g.Placeholders()[1])
	ph, err := g.CreateNode(node.Placeholder, node.Path("p_c"), nil, nil, "p_c")
	restore()
	require.NoError(t, err)
	_, err = c.ReplaceAllUsesWith(ph, nil, false)
	require.NoError(t, err)
	require.NoError(t, g.EraseNode(c))
	var ins []export.InputSpec
	for i, in := range sig.Inputs {
		if i == 1 {
			ins = append(ins, export.InputSpec{Kind: export.Parameter, Name: "p_c", Target: "c"})
		}
		if i != ci {
			ins = append(ins, in)
		}
	}
	sig.Inputs = ins
	state := ep.StateDict()
	cval, err := tensor.FromFloat64s(tensor.Float32, []float64{0, 0, 0}, 3)
	require.NoError(t, err)
	state["c"] = cval
	out, err := ep.WithState(g, sig, state)
	require.NoError(t, err)
	assert.Empty(t, out.Constants())
	assert.Len(t, ep.Constants(), 1)
	res, err := out.Run(ones(t, 2), 1)
	require.NoError(t, err)
	assert.Equal(t, []float64{11, 22, 33}, res.MustTensor().Float64s()[:3])
}

// TestWithStateErrors checks that each inconsistency between the graph,
// the signature and the state is refused with an error naming it.
func TestWithStateErrors(t *testing.T) {
	ep := exportAffine(t)
	w := ep.StateDict()["w"]
	// The exported placeholders: p_w, b_s, the constant, x, n (an int).
	require.Equal(t, []export.InputKind{export.Parameter, export.Buffer, export.ConstantTensor, export.UserInput, export.UserInput},
		kindsOf(ep.Signature.Inputs))
	cname := ep.Signature.Inputs[2].Name
	for _, tc := range []struct {
		name string
		edit func(g *graph.Graph, sig *export.Signature, state map[string]*tensor.Tensor)
		want string
	}{
		{"placeholder renamed", func(g *graph.Graph, sig *export.Signature, state map[string]*tensor.Tensor) {
			sig.Inputs[0].Name = "p_v"
		}, "placeholder 0 is p_w, but input 0 of the signature is p_v"},
		{"input missing", func(g *graph.Graph, sig *export.Signature, state map[string]*tensor.Tensor) {
			sig.Inputs = sig.Inputs[1:]
		}, "the graph has 5 placeholders ([p_w b_s " + cname + " x n]), the signature 4 inputs ([b_s " + cname + " x n])"},
		{"order swapped", func(g *graph.Graph, sig *export.Signature, state map[string]*tensor.Tensor) {
			sig.Inputs[0].Kind, sig.Inputs[1].Kind = export.Buffer, export.Parameter
		}, "input b_s (PARAMETER) comes after a BUFFER input"},
		{"no state", func(g *graph.Graph, sig *export.Signature, state map[string]*tensor.Tensor) {
			delete(state, "s")
		}, "BUFFER input b_s: no state for its target s"},
		{"nil state", func(g *graph.Graph, sig *export.Signature, state map[string]*tensor.Tensor) {
			state["w"] = nil
		}, "PARAMETER input p_w: the state of w is a nil tensor"},
		{"extra state", func(g *graph.Graph, sig *export.Signature, state map[string]*tensor.Tensor) {
			state["ghost"] = w
		}, "state entry ghost is no PARAMETER or BUFFER input of the signature"},
		{"unknown constant", func(g *graph.Graph, sig *export.Signature, state map[string]*tensor.Tensor) {
			sig.Inputs[2].Target = "_tensor_constant9"
		}, "constant input " + cname + ": the program has no constant _tensor_constant9"},
		{"duplicate target", func(g *graph.Graph, sig *export.Signature, state map[string]*tensor.Tensor) {
			sig.Inputs[1].Target = "w"
		}, "inputs p_w and b_s have the same target w"},
		{"no target", func(g *graph.Graph, sig *export.Signature, state map[string]*tensor.Tensor) {
			sig.Inputs[0].Target = ""
			delete(state, "w")
		}, "PARAMETER input p_w has no target"},
		{"user input renamed", func(g *graph.Graph, sig *export.Signature, state map[string]*tensor.Tensor) {
			x, _ := g.Node("x")
			_, err := g.Rename(x, "y")
			require.NoError(t, err)
			sig.Inputs[3].Name = "y"
		}, "the user inputs are [y n], the program's are [x n]"},
		{"output arity", func(g *graph.Graph, sig *export.Signature, state map[string]*tensor.Tensor) {
			sig.Outputs = append(sig.Outputs, sig.Outputs[0])
		}, "returns 1 values, the signature has 2 outputs"},
		{"output renamed", func(g *graph.Graph, sig *export.Signature, state map[string]*tensor.Tensor) {
			sig.Outputs[0].Name = "z"
		}, "output 0 is node add_1, but the signature names it z"},
		{"mutation of a parameter", func(g *graph.Graph, sig *export.Signature, state map[string]*tensor.Tensor) {
			sig.Outputs[0] = export.OutputSpec{Kind: export.BufferMutation, Name: sig.Outputs[0].Name, Target: "w"}
		}, `output add_1 mutates "w", which is no BUFFER input's target`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, _, err := ep.Graph.Clone()
			require.NoError(t, err)
			sig := export.Signature{Inputs: slices.Clone(ep.Signature.Inputs), Outputs: slices.Clone(ep.Signature.Outputs)}
			state := ep.StateDict()
			tc.edit(g, &sig, state)
			_, err = ep.WithState(g, sig, state)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "export: WithState: ")
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	var nilEP *export.ExportedProgram
	_, err := nilEP.WithState(ep.Graph, ep.Signature, nil)
	assert.EqualError(t, err, "export: WithState: nil program")
	_, err = ep.WithState(nil, ep.Signature, nil)
	assert.EqualError(t, err, "export: WithState: nil graph")
}

func kindsOf(ins []export.InputSpec) []export.InputKind {
	out := make([]export.InputKind, len(ins))
	for i, in := range ins {
		out[i] = in.Kind
	}
	return out
}

// ExampleExportedProgram_WithState gives an exported program new weights:
// the graph and the signature are the program's own (a clone), the state
// replaces w.
func ExampleExportedProgram_WithState() {
	m := &affine{}
	m.Init(m, "Affine")
	w, _ := tensor.FromFloat64s(tensor.Float32, []float64{1, 2, 3}, 3)
	s, _ := tensor.FromFloat64s(tensor.Float32, []float64{0, 0, 0}, 3)
	m.c, _ = tensor.FromFloat64s(tensor.Float32, []float64{0, 0, 0}, 3)
	m.W = m.RegisterParameter("w", w)
	m.S = m.RegisterBuffer("s", s, true)
	x, _ := tensor.Full(tensor.Float32, 1, 2, 3)
	ep, err := export.Export(m, []any{x, 1}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	g, _, _ := ep.Graph.Clone()
	state := ep.StateDict()
	state["w"], _ = tensor.FromFloat64s(tensor.Float32, []float64{10, 20, 30}, 3)
	out, err := ep.WithState(g, ep.Signature, state)
	if err != nil {
		fmt.Println(err)
		return
	}
	before, _ := ep.Run(x, 1)
	after, _ := out.Run(x, 1)
	fmt.Println(before.MustTensor().Float64s()[:3], after.MustTensor().Float64s()[:3])
	// Output:
	// [1 2 3] [10 20 30]
}
