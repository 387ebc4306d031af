package nn_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// holder is a module holding the subgraphs of a higher-order operator.
type holder struct{ nn.Base }

func newHolder() *holder {
	h := &holder{}
	h.Init(h, "Holder")
	return h
}

// hopModule is a GraphModule of the program text main over submodules
// named by subs (their graph texts).
func hopModule(t *testing.T, main string, subs map[string]string) *fx.GraphModule {
	t.Helper()
	root := newHolder()
	for name, text := range subs {
		g, err := graph.Parse(text)
		require.NoError(t, err, name)
		gm, err := fx.NewGraphModule(nil, g)
		require.NoError(t, err)
		nn.RegisterModule(&root.Base, name, gm)
	}
	g, err := graph.Parse(main)
	require.NoError(t, err)
	gm, err := fx.NewGraphModule(root, g)
	require.NoError(t, err)
	return gm
}

const (
	sinGraph = `
%x = placeholder "x"()
%sin = call_function aten.sin.default(%x)
%output = output "output"((%sin,))`
	cosGraph = `
%x = placeholder "x"()
%cos = call_function aten.cos.default(%x)
%output = output "output"((%cos,))`
	condMain = `
%p = placeholder "p"()
%x = placeholder "x"()
%t = get_attr "true_graph_0"()
%f = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%p, %t, %f, [%x])
%r = call_function operator.getitem(%cond, 0)
%output = output "output"(%r)`
	// whileMain counts it up to the limit n (an additional input),
	// halving x each time.
	whileMain = `
%it = placeholder "it"()
%x = placeholder "x"()
%n = placeholder "n"()
%c = get_attr "while_loop_cond_graph_0"()
%b = get_attr "while_loop_body_graph_0"()
%w = call_function higher_order.while_loop(%c, %b, (%it, %x), (%n,))
%output = output "output"(%w)`
	whileCond = `
%it = placeholder "it"()
%x = placeholder "x"()
%n = placeholder "n"()
%lt = call_function aten.lt.Tensor(%it, %n)
%output = output "output"(%lt)`
	whileBody = `
%it = placeholder "it"()
%x = placeholder "x"()
%n = placeholder "n"()
%add = call_function aten.add.Tensor(%it, 1)
%mul = call_function aten.mul.Tensor(%x, 0.5)
%output = output "output"((%add, %mul))`
	mapMain = `
%xs = placeholder "xs"()
%ys = placeholder "ys"()
%y = placeholder "y"()
%b = get_attr "body_graph_0"()
%m = call_function higher_order.map_impl(%b, [%xs, %ys], [%y])
%output = output "output"(%m)`
	mapBody = `
%x = placeholder "x"()
%z = placeholder "z"()
%y = placeholder "y"()
%mul = call_function aten.mul.Tensor(%x, %z)
%add = call_function aten.add.Tensor(%mul, %y)
%total = call_function aten.sum.default(%x)
%output = output "output"((%add, %total))`
)

func tens[T tensor.Elem](t *testing.T, shape []int, data []T) *tensor.Tensor {
	t.Helper()
	x, err := tensor.FromSlice(data, shape...)
	require.NoError(t, err)
	return x
}

// apply maps f over float32 data.
func apply(xs []float32, f func(float64) float64) []float32 {
	out := make([]float32, len(xs))
	for i, x := range xs {
		out[i] = float32(f(float64(x)))
	}
	return out
}

// TestCondRunsTakenBranch: cond runs the branch pred picks, for a bool
// and for a 0-d and a one-element bool tensor.
func TestCondRunsTakenBranch(t *testing.T) {
	gm := hopModule(t, condMain, map[string]string{"true_graph_0": sinGraph, "false_graph_0": cosGraph})
	data := []float32{0.1, 0.2, 0.3, 0.4}
	x := tens(t, []int{2, 2}, data)
	sin := tens(t, []int{2, 2}, apply(data, math.Sin))
	cos := tens(t, []int{2, 2}, apply(data, math.Cos))
	for _, tc := range []struct {
		name string
		pred nn.Value
		want *tensor.Tensor
	}{
		{"bool true", nn.Of(true), sin},
		{"bool false", nn.Of(false), cos},
		{"0-d tensor true", nn.Tensor(tensor.Scalar(true)), sin},
		{"0-d tensor false", nn.Tensor(tensor.Scalar(false)), cos},
		{"one-element tensor", nn.Tensor(tens(t, []int{1}, []bool{true})), sin},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := gm.Run(tc.pred, nn.Tensor(x))
			require.NoError(t, err)
			assert.True(t, tensor.AllClose(out.MustTensor(), tc.want, 1e-6, 1e-6, false), "%v", out)
		})
	}
}

// TestWhileLoopTripCount: the loop runs as many times as the data says.
func TestWhileLoopTripCount(t *testing.T) {
	gm := hopModule(t, whileMain, map[string]string{"while_loop_cond_graph_0": whileCond, "while_loop_body_graph_0": whileBody})
	x := tens(t, []int{2}, []float32{8, 16})
	for _, n := range []int64{0, 1, 3} {
		out, err := gm.Run(nn.Tensor(tensor.Scalar(int64(0))), nn.Tensor(x), nn.Tensor(tensor.Scalar(n)))
		require.NoError(t, err)
		vs := out.Tuple()
		require.Len(t, vs, 2)
		it, err := vs[0].MustTensor().Item()
		require.NoError(t, err)
		assert.Equal(t, n, it)
		scale := float32(1) / float32(int(1)<<n)
		want := tens(t, []int{2}, []float32{8 * scale, 16 * scale})
		assert.True(t, tensor.AllClose(vs[1].MustTensor(), want, 0, 0, false), "n=%d: %v", n, vs[1])
	}
}

// TestMapStacks: map_impl runs the body per leading index of every mapped
// tensor and stacks each output along a new leading dim.
func TestMapStacks(t *testing.T) {
	gm := hopModule(t, mapMain, map[string]string{"body_graph_0": mapBody})
	xs := tens(t, []int{3, 2}, []float32{1, 2, 3, 4, 5, 6})
	ys := tens(t, []int{3, 2}, []float32{1, 1, 2, 2, 3, 3})
	y := tens(t, []int{2}, []float32{10, 20})
	out, err := gm.Run(nn.Tensor(xs), nn.Tensor(ys), nn.Tensor(y))
	require.NoError(t, err)
	vs := out.Tuple()
	require.Len(t, vs, 2)
	assert.True(t, tensor.AllClose(vs[0].MustTensor(), tens(t, []int{3, 2}, []float32{11, 22, 16, 28, 25, 38}), 0, 0, false), "%v", vs[0])
	assert.True(t, tensor.AllClose(vs[1].MustTensor(), tens(t, []int{3}, []float32{3, 7, 11}), 0, 0, false), "%v", vs[1])
}

// TestHigherOrderBadInput: each bad input is an error naming the
// operator, the argument or graph, and what differs.
func TestHigherOrderBadInput(t *testing.T) {
	cond := hopModule(t, condMain, map[string]string{"true_graph_0": sinGraph, "false_graph_0": cosGraph})
	x := nn.Tensor(tens(t, []int{2}, []float32{1, 2}))
	i0 := nn.Tensor(tensor.Scalar(int64(0)))
	lim := nn.Tensor(tensor.Scalar(int64(2)))

	shapeBody := `
%it = placeholder "it"()
%x = placeholder "x"()
%n = placeholder "n"()
%add = call_function aten.add.Tensor(%it, 1)
%s = call_function aten.sum.default(%x)
%output = output "output"((%add, %s))`
	dtypeBody := `
%it = placeholder "it"()
%x = placeholder "x"()
%n = placeholder "n"()
%add = call_function aten.add.Tensor(%it, 1)
%g = call_function aten.gt.Scalar(%x, 0)
%output = output "output"((%add, %g))`
	countBody := `
%it = placeholder "it"()
%x = placeholder "x"()
%n = placeholder "n"()
%output = output "output"((%it,))`
	intCond := `
%it = placeholder "it"()
%x = placeholder "x"()
%n = placeholder "n"()
%output = output "output"(%it)`
	failBody := `
%it = placeholder "it"()
%x = placeholder "x"()
%n = placeholder "n"()
%mm = call_function aten.mm.default(%x, %x)
%output = output "output"((%it, %mm))`
	loop := func(cond, body string) *fx.GraphModule {
		return hopModule(t, whileMain, map[string]string{"while_loop_cond_graph_0": cond, "while_loop_body_graph_0": body})
	}
	mapper := hopModule(t, mapMain, map[string]string{"body_graph_0": mapBody})
	notModule := hopModule(t, `
%p = placeholder "p"()
%x = placeholder "x"()
%f = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%p, %x, %f, [%x])
%output = output "output"(%cond)`, map[string]string{"false_graph_0": cosGraph})
	notTuple := hopModule(t, `
%p = placeholder "p"()
%x = placeholder "x"()
%t = get_attr "true_graph_0"()
%f = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%p, %t, %f, %x)
%output = output "output"(%cond)`, map[string]string{"true_graph_0": sinGraph, "false_graph_0": cosGraph})

	for _, tc := range []struct {
		name string
		gm   *fx.GraphModule
		in   []nn.Value
		msg  []string
	}{
		{"float pred", cond, []nn.Value{nn.Tensor(tensor.Scalar(float32(1))), x},
			[]string{"torch.ops.higher_order.cond: pred must be a bool or a one-element bool tensor, got a float32 tensor of shape []"}},
		{"int pred", cond, []nn.Value{nn.Of(1), x},
			[]string{"torch.ops.higher_order.cond: pred must be a bool or a one-element bool tensor, got int"}},
		{"non-scalar pred", cond, []nn.Value{nn.Tensor(tens(t, []int{2}, []bool{true, false})), x},
			[]string{"pred must be a bool or a one-element bool tensor, got a bool tensor of shape [2] (2 elements)"}},
		{"branch not a graph", notModule, []nn.Value{nn.Of(true), x},
			[]string{"torch.ops.higher_order.cond: true branch must be a graph (a get_attr of a submodule), got Tensor"}},
		{"operands not a tuple", notTuple, []nn.Value{nn.Of(true), x},
			[]string{"torch.ops.higher_order.cond: operands must be a tuple or list, got Tensor"}},
		{"branch fails", cond, []nn.Value{nn.Of(true), nn.Of("x")},
			[]string{"torch.ops.higher_order.cond: true branch true_graph_0: ", "%sin"}},
		{"body changes a shape", loop(whileCond, shapeBody), []nn.Value{i0, x, lim},
			[]string{"torch.ops.higher_order.while_loop: body_fn while_loop_body_graph_0 changed carried value 1 at iteration 0: shape [2] became [] (carried values must keep their dtype and shape)"}},
		{"body changes a dtype", loop(whileCond, dtypeBody), []nn.Value{i0, x, lim},
			[]string{"body_fn while_loop_body_graph_0 changed carried value 1 at iteration 0: dtype float32 became bool"}},
		{"body returns too few", loop(whileCond, countBody), []nn.Value{i0, x, lim},
			[]string{"body_fn while_loop_body_graph_0 returned 1 values at iteration 0, expected the 2 carried values"}},
		{"cond_fn returns an int tensor", loop(intCond, whileBody), []nn.Value{i0, x, lim},
			[]string{"torch.ops.higher_order.while_loop: cond_fn while_loop_cond_graph_0's result must be a bool or a one-element bool tensor, got a int64 tensor of shape []"}},
		{"body fails", loop(whileCond, failBody), []nn.Value{i0, x, lim},
			[]string{"torch.ops.higher_order.while_loop: body_fn while_loop_body_graph_0: ", "%mm"}},
		{"map over different leading sizes", mapper, []nn.Value{
			nn.Tensor(tens(t, []int{3, 2}, make([]float32, 6))),
			nn.Tensor(tens(t, []int{2, 2}, make([]float32, 4))), x},
			[]string{"torch.ops.higher_order.map_impl: the mapped tensors' leading sizes differ: xs[0] has 3, xs[1] has 2 (shape [2 2])"}},
		{"map over a 0-d tensor", mapper, []nn.Value{nn.Tensor(tensor.Scalar(float32(1))), x, x},
			[]string{"torch.ops.higher_order.map_impl: xs[0] is a 0-d tensor, which has no leading dim to map over"}},
		{"map over a leading size 0", mapper, []nn.Value{
			nn.Tensor(tens(t, []int{0, 2}, []float32{})),
			nn.Tensor(tens(t, []int{0, 2}, []float32{})), x},
			[]string{"torch.ops.higher_order.map_impl: the mapped tensors' leading size is 0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.gm.Run(tc.in...)
			require.Error(t, err)
			for _, m := range tc.msg {
				assert.Contains(t, err.Error(), m)
			}
		})
	}
}

// TestHigherOrderArgs: the operators bind keyword arguments by PyTorch's
// parameter names and refuse wrong ones.
func TestHigherOrderArgs(t *testing.T) {
	impl, ok := nn.LookupFunctionImpl(nn.CondOp)
	require.True(t, ok)
	_, err := impl(nil, nil)
	assert.EqualError(t, err, `torch.ops.higher_order.cond missing required argument "pred"`)
	_, err = impl([]nn.Value{nn.Of(true)}, map[string]nn.Value{"pred": nn.Of(true)})
	assert.EqualError(t, err, `torch.ops.higher_order.cond got multiple values for argument "pred"`)
	_, err = impl(nil, map[string]nn.Value{"predicate": nn.Of(true)})
	assert.EqualError(t, err, `torch.ops.higher_order.cond got an unexpected keyword argument "predicate"`)
	_, err = impl(make([]nn.Value, 5), nil)
	assert.ErrorContains(t, err, "takes 4 arguments")
	sin, err := graph.Parse(sinGraph)
	require.NoError(t, err)
	gm, err := fx.NewGraphModule(nil, sin)
	require.NoError(t, err)
	x := nn.Tensor(tensor.Scalar(float32(0)))
	out, err := impl(nil, map[string]nn.Value{"pred": nn.Of(true), "true_fn": nn.ModuleValue(gm), "false_fn": nn.None, "operands": nn.Tuple(x)})
	require.NoError(t, err)
	assert.Equal(t, "(tensor(0.),)", out.String())
}
