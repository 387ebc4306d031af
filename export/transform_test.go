package export_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
)

// inputsOf lists a signature's inputs as "name KIND target".
func inputsOf(ep *export.ExportedProgram) []string {
	var out []string
	for _, in := range ep.Signature.Inputs {
		out = append(out, fmt.Sprintf("%s %s %s", in.Name, in.Kind, in.Target))
	}
	return out
}

// TestTransformFoldsConstants: a first pass rewrites x * w of affine
// (x * w + s + c) as (x * (w * 2)) * 0.5, and constant folding computes
// w * 2: the folded tensor is a new lifted constant with a val, w is
// dropped (nothing reads it), the other inputs keep their names, the
// specialized input and the dynamic batch are checked as in ep, and ep is
// unchanged.
func TestTransformFoldsConstants(t *testing.T) {
	ep := exportAffine(t)
	text := ep.String()
	double := export.PassFunc(func(gm *fx.GraphModule) (bool, error) {
		g := gm.Graph
		for n := range g.Nodes() {
			if n.Op() != node.CallFunction || n.Function() != node.Function(aten.MulTensor) {
				continue
			}
			w := n.Arg(1).(*node.Node)
			restore := g.InsertingBefore(n)
			w2, err := g.CallFunction(aten.MulScalar, []node.Arg{w, node.Float(2)}, nil)
			restore()
			if err != nil {
				return false, err
			}
			if err := n.UpdateArg(1, w2); err != nil {
				return false, err
			}
			restore = g.InsertingAfter(n)
			half, err := g.CallFunction(aten.MulScalar, []node.Arg{n, node.Float(0.5)}, nil)
			restore()
			if err != nil {
				return false, err
			}
			if _, err := n.ReplaceAllUsesWith(half, func(u *node.Node) bool { return u != half }, false); err != nil {
				return false, err
			}
			return true, nil
		}
		return false, nil
	})
	out, err := ep.Transform(double, passes.FoldConstants, passes.DCE)
	require.NoError(t, err)
	assert.Equal(t, text, ep.String(), "ep changed")
	assert.Equal(t, []string{
		"b_s BUFFER s",
		"c_lifted_tensor_0 CONSTANT_TENSOR lifted_tensor_0",
		"c__folded_constant_0 CONSTANT_TENSOR _folded_constant_0",
		"x USER_INPUT ", "n USER_INPUT ",
	}, inputsOf(out), "%s", out)
	assert.Equal(t, []float64{2, 4, 6}, out.Constants()["_folded_constant_0"].Float64s())
	assert.Same(t, ep.Constants()["lifted_tensor_0"], out.Constants()["lifted_tensor_0"])
	assert.Equal(t, []string{"s"}, out.StateNames())
	assert.Equal(t, ep.RangeConstraints, out.RangeConstraints)
	ph, ok := out.Graph.Node("c__folded_constant_0")
	require.True(t, ok)
	v, ok := node.Val.Get(&ph.Meta)
	require.True(t, ok, "the new placeholder has no val")
	assert.Equal(t, "f32[3]", v.String())

	want, err := ep.Run(ones(t, 5), 1)
	require.NoError(t, err)
	got, err := out.Run(ones(t, 5), 1)
	require.NoError(t, err)
	assert.Equal(t, want.MustTensor().Float64s(), got.MustTensor().Float64s())
	_, err = out.Run(ones(t, 5), 2)
	assert.ErrorContains(t, err, "input n: the program was exported with the value 1")
	_, err = out.Run(ones(t, 1), 1)
	var ie *export.InputError
	require.True(t, errors.As(err, &ie), "%v", err)
	assert.Equal(t, export.InputError{Input: "x", Dim: 0, Msg: ie.Msg}, *ie)
	assert.Contains(t, ie.Msg, "outside the range")
}

// counter counts its calls in a buffer and scales by a parameter.
type counter struct {
	nn.Base
	Calls *nn.Buffer
	W     *nn.Parameter
}

func (m *counter) Forward(x nn.Value) nn.Value {
	m.Calls.Value().Add_(1.0)
	return x.Mul(m.W.Value()).Relu()
}

func newCounter(t *testing.T) *counter {
	m := &counter{}
	m.Init(m, "Counter")
	zero, err := tensor.New(tensor.Float32)
	require.NoError(t, err)
	w, err := tensor.FromFloat64s(tensor.Float32, []float64{1, -1, 2}, 3)
	require.NoError(t, err)
	m.Calls = m.RegisterBuffer("calls", zero, true)
	m.W = m.RegisterParameter("w", w)
	return m
}

// TestTransformKeepsMutations: a program that updates a buffer and its
// input keeps both write-backs through a pass, with the buffer's and the
// input's placeholders, and Run writes them back.
func TestTransformKeepsMutations(t *testing.T) {
	x, err := tensor.FromFloat64s(tensor.Float32, []float64{1, 2, 3}, 3)
	require.NoError(t, err)
	ep, err := export.Export(newCounter(t), []any{x.Clone()}, nil)
	require.NoError(t, err)
	// relu(y) → relu(relu(y)): a change that keeps the results.
	twice := export.PassFunc(func(gm *fx.GraphModule) (bool, error) {
		r := gm.Graph.FindNodes(node.CallFunction, node.Function(aten.Relu))
		require.Len(t, r, 1)
		restore := gm.Graph.InsertingAfter(r[0])
		defer restore()
		r2, err := gm.Graph.CallFunction(aten.Relu, []node.Arg{r[0]}, nil)
		if err != nil {
			return false, err
		}
		_, err = r[0].ReplaceAllUsesWith(r2, func(u *node.Node) bool { return u != r2 }, false)
		return true, err
	})
	out, err := ep.Transform(twice, passes.CSE, passes.DCE)
	require.NoError(t, err)
	assert.Equal(t, inputsOf(ep), inputsOf(out))
	require.Len(t, out.Signature.Outputs, 2)
	assert.Equal(t, export.BufferMutation, out.Signature.Outputs[0].Kind)
	assert.Equal(t, ep.Signature.Outputs[0], out.Signature.Outputs[0])
	assert.Equal(t, "relu_1", out.Signature.Outputs[1].Name)
	for i := 1; i <= 2; i++ {
		y, err := out.Run(x.Clone())
		require.NoError(t, err)
		assert.Equal(t, []float64{1, 0, 6}, y.MustTensor().Float64s())
		assert.Equal(t, []float64{float64(i)}, out.StateDict()["calls"].Float64s())
	}

	m := &inputMutation{}
	m.Init(m, "InputMutation")
	in, err := tensor.FromFloat64s(tensor.Float32, []float64{-1, 3}, 2)
	require.NoError(t, err)
	ep, err = export.Export(m, []any{in.Clone()}, nil)
	require.NoError(t, err)
	out, err = ep.Transform(twice)
	require.NoError(t, err)
	assert.Equal(t, ep.Signature.Outputs[0], out.Signature.Outputs[0])
	y, err := out.Run(in)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 6}, y.MustTensor().Float64s())
	assert.Equal(t, []float64{-2, 6}, in.Float64s(), "the input is written back")

	// A pass that drops a write-back is refused.
	drop := export.PassFunc(func(gm *fx.GraphModule) (bool, error) {
		for n := range gm.Graph.Nodes() {
			if n.Op() == node.CallFunction && n.Function().String() == "aten.copy_.default" {
				return true, gm.Graph.EraseNode(n)
			}
		}
		return false, nil
	})
	_, err = ep.Transform(drop)
	assert.ErrorContains(t, err, "export: Transform: the graph no longer writes x back (USER_INPUT_MUTATION output")
}

// TestTransformUnchanged: passes that change nothing return ep itself.
func TestTransformUnchanged(t *testing.T) {
	ep := exportAffine(t)
	out, err := ep.Transform()
	require.NoError(t, err)
	assert.Same(t, ep, out)
	out, err = ep.Transform(passes.CSE, passes.FoldConvBN)
	require.NoError(t, err)
	assert.Same(t, ep, out)
}

// TestTransformErrors: the errors name the pass by position and name.
func TestTransformErrors(t *testing.T) {
	ep := exportAffine(t)
	_, err := (*export.ExportedProgram)(nil).Transform(passes.DCE)
	assert.ErrorContains(t, err, "export: Transform: nil program")
	fail := passes.Pass{Name: "fail", Run: func(*fx.GraphModule) (bool, error) { return false, errors.New("boom") }}
	_, err = ep.Transform(passes.DCE, fail)
	assert.EqualError(t, err, `export: Transform: pass 1 (fail): passes: pass "fail": boom`)
	_, err = ep.Transform(export.PassFunc(func(*fx.GraphModule) (bool, error) { panic("oops") }))
	assert.ErrorContains(t, err, "export: Transform: pass 0 (export.PassFunc): panic: oops")
	_, err = ep.Transform(nil)
	assert.ErrorContains(t, err, "pass 0")
	// A pass that leaves a get_attr of a submodule cannot be lifted.
	bad := export.PassFunc(func(gm *fx.GraphModule) (bool, error) {
		restore := gm.Graph.InsertingBefore(gm.Graph.OutputNode())
		defer restore()
		_, err := gm.Graph.GetAttr("nope")
		return true, err
	})
	_, err = ep.Transform(bad)
	assert.ErrorContains(t, err, "export: Transform: get_attr nope")
}

// TestTransformManager: a passes.Manager is a pass, with its checks.
func TestTransformManager(t *testing.T) {
	ep := exportAffine(t)
	m := passes.NewManager(passes.FoldConstants, passes.CSE, passes.DCE)
	out, err := ep.Transform(m)
	require.NoError(t, err)
	assert.Same(t, ep, out, "nothing to fold in x * w + s + c")
	m = passes.NewManager(passes.Pass{Name: "needs", Requires: []string{"cse"}, Run: passes.DCE.Run})
	_, err = ep.Transform(m)
	assert.ErrorContains(t, err, `pass 0 (pipeline[needs]): passes: pass "needs" requires "cse"`)
}
