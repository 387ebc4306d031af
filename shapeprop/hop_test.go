package shapeprop_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// hopData holds the control-flow programs PyTorch 2.6 saved (copies of
// ../shared/pt2 in pt2/testdata/hop).
const hopData = "../pt2/testdata/hop/"

// loadModule loads a .pt2 program as a GraphModule (ExportedProgram.Module:
// state as attributes, subgraphs as submodules) with the fakes of its user
// inputs.
func loadModule(t *testing.T, name string) (*fx.GraphModule, *sym.Env, []any) {
	t.Helper()
	ep, err := pt2.Load(hopData + name + ".pt2")
	require.NoError(t, err)
	gm, err := ep.Module()
	require.NoError(t, err)
	var fakes []any
	for _, ph := range gm.Graph.Placeholders() {
		v, ok := node.Val.Get(&ph.Meta)
		require.True(t, ok, ph.Name())
		fakes = append(fakes, v.(*shapeprop.Fake))
	}
	clearVals(gm)
	return gm, ep.Env, fakes
}

// clearVals deletes the vals the .pt2 file gave the nodes of gm and of
// its subgraphs, so that what a test sees is what propagation recorded.
func clearVals(gm *fx.GraphModule) {
	for _, n := range gm.Graph.NodeList() {
		n.Meta.Delete(node.Val.Name())
	}
	for _, c := range gm.Children() {
		if sg, ok := c.(*fx.GraphModule); ok {
			clearVals(sg)
		}
	}
}

// vals returns the val of each named node of g, spelled as PyTorch's
// ep.txt annotates it.
func valsOf(t *testing.T, gm *fx.GraphModule, names ...string) []string {
	t.Helper()
	var out []string
	for _, name := range names {
		n, ok := gm.Graph.Node(name)
		require.True(t, ok, name)
		v, ok := node.Val.Get(&n.Meta)
		if !ok {
			out = append(out, "<none>")
			continue
		}
		out = append(out, v.String())
	}
	return out
}

func sub(t *testing.T, gm *fx.GraphModule, path string) *fx.GraphModule {
	t.Helper()
	m, err := nn.Submodule(gm, path)
	require.NoError(t, err)
	return m.(*fx.GraphModule)
}

// TestFakePropHOP: FakeProp goes through cond (both branches, symbolic
// predicate included), while_loop (cond_fn and body once, carried shapes
// invariant) and map_impl (the body on one slice, the leading dim added),
// recording every subgraph node's val; the expected spellings are those of
// PyTorch 2.6's ep.txt for the same programs.
func TestFakePropHOP(t *testing.T) {
	type check struct {
		graph string // "" for the program, else the subgraph's path
		nodes []string
		want  []string
	}
	tests := []struct {
		name   string
		checks []check
	}{
		{"cond_data", []check{
			{"", []string{"gt", "cond", "getitem"}, []string{"b8[]", "(f32[3, 4],)", "f32[3, 4]"}},
			{"true_graph_0", []string{"sin"}, []string{"f32[3, 4]"}},
			{"false_graph_0", []string{"cos"}, []string{"f32[3, 4]"}},
		}},
		{"cond_shape", []check{
			{"", []string{"gt", "getitem"}, []string{"s0 > 4", "f32[s0, 3]"}},
			{"true_graph_0", []string{"cos", "add"}, []string{"f32[s0, 3]", "f32[s0, 3]"}},
			{"false_graph_0", []string{"sin", "sub"}, []string{"f32[s0, 3]", "f32[s0, 3]"}},
		}},
		{"cond_params", []check{
			{"", []string{"getitem"}, []string{"f32[s0, 8]"}},
			{"true_graph_0", []string{"linear", "relu", "mul"}, []string{"f32[s0, 8]", "f32[s0, 8]", "f32[s0, 8]"}},
			{"false_graph_0", []string{"linear", "sigmoid"}, []string{"f32[s0, 8]", "f32[s0, 8]"}},
		}},
		{"cond_nested", []check{
			{"", []string{"getitem", "getitem_1"}, []string{"f32[4, 5]", "f32[4, 5]"}},
			{"true_graph_0", []string{"mean", "gt", "getitem", "getitem_1"}, []string{"f32[]", "b8[]", "f32[4, 5]", "f32[4, 5]"}},
			{"true_graph_0.true_graph_0", []string{"add", "mul"}, []string{"f32[4, 5]", "f32[4, 5]"}},
			{"true_graph_0.false_graph_0", []string{"sub", "abs_1", "add", "div"}, []string{"f32[4, 5]", "f32[4, 5]", "f32[4, 5]", "f32[4, 5]"}},
			{"false_graph_0", []string{"relu", "relu_1"}, []string{"f32[4, 5]", "f32[4, 5]"}},
		}},
		{"map_rows", []check{
			{"", []string{"getitem"}, []string{"f32[6, 4]"}},
			{"body_graph_0", []string{"matmul", "add", "tanh"}, []string{"f32[4]", "f32[4]", "f32[4]"}},
		}},
		{"while_count", []check{
			{"", []string{"getitem", "getitem_1"}, []string{"i64[]", "f32[3, 2]"}},
			{"while_loop_cond_graph_0", []string{"lt"}, []string{"b8[]"}},
			{"while_loop_body_graph_0", []string{"add", "mul", "sin", "add_1"}, []string{"i64[]", "f32[3, 2]", "f32[3, 2]", "f32[3, 2]"}},
		}},
		{"while_converge", []check{
			{"", []string{"getitem", "getitem_1"}, []string{"f32[4]", "f32[4]"}},
			{"while_loop_cond_graph_0", []string{"abs_1", "max_1", "gt"}, []string{"f32[4]", "f32[]", "b8[]"}},
			{"while_loop_body_graph_0", []string{"clone", "div", "add", "mul"}, []string{"f32[4]", "f32[4]", "f32[4]", "f32[4]"}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gm, env, fakes := loadModule(t, tc.name)
			_, err := shapeprop.FakeProp(gm, env, fakes...)
			require.NoError(t, err)
			for _, g := range env.Guards() {
				// a symbolic predicate is not guarded on: both branches stay
				assert.NotContains(t, g.Cond.String(), "4", "guard %v at %s", g.Cond, g.Where)
			}
			for _, c := range tc.checks {
				g := gm
				if c.graph != "" {
					g = sub(t, gm, c.graph)
				}
				assert.Equal(t, c.want, valsOf(t, g, c.nodes...), c.graph)
			}
		})
	}
}

// TestPropagateHOP: Propagate records the metadata of the nodes the run
// reaches inside the branch cond takes (and not the other's), of a loop
// body and of a map body.
func TestPropagateHOP(t *testing.T) {
	ep, err := pt2.Load(hopData + "cond_data.pt2")
	require.NoError(t, err)
	io, err := pt2.ReadIO(hopData + "cond_data.io.json")
	require.NoError(t, err)
	for _, c := range io.Cases {
		gm, err := ep.Module()
		require.NoError(t, err)
		x := c.Inputs[0].Tensor()
		sum := 0.0
		for _, v := range x.Float64s() {
			sum += v
		}
		taken, other := "true_graph_0", "false_graph_0"
		if sum <= 0 {
			taken, other = other, taken
		}
		clearVals(gm)
		out, err := shapeprop.Propagate(gm, nn.Tensor(x))
		require.NoError(t, err)
		assert.True(t, tensor.AllClose(out.MustTensor(), c.Outputs[0].Tensor(), 1e-5, 1e-5, false))
		for _, n := range sub(t, gm, taken).Graph.NodeList() {
			if n.Op() == node.CallFunction {
				_, ok := shapeprop.MetaOf(n)
				assert.True(t, ok, "%s.%s", taken, n.Name())
			}
		}
		for _, n := range sub(t, gm, other).Graph.NodeList() {
			if n.Op() == node.CallFunction {
				_, ok := shapeprop.MetaOf(n)
				assert.False(t, ok, "%s.%s", other, n.Name())
			}
		}
	}
	gm, _, _ := loadModule(t, "while_count")
	io, err = pt2.ReadIO(hopData + "while_count.io.json")
	require.NoError(t, err)
	_, err = shapeprop.Propagate(gm, io.Cases[0].Inputs...)
	require.NoError(t, err)
	assert.Equal(t, []string{"i64[]", "f32[3, 2]"}, metaStrings(t, sub(t, gm, "while_loop_body_graph_0"), "add", "add_1"))
	gm, _, _ = loadModule(t, "map_rows")
	io, err = pt2.ReadIO(hopData + "map_rows.io.json")
	require.NoError(t, err)
	_, err = shapeprop.Propagate(gm, io.Cases[0].Inputs...)
	require.NoError(t, err)
	assert.Equal(t, []string{"f32[4]"}, metaStrings(t, sub(t, gm, "body_graph_0"), "tanh"))
}

func metaStrings(t *testing.T, gm *fx.GraphModule, names ...string) []string {
	t.Helper()
	var out []string
	for _, name := range names {
		n, ok := gm.Graph.Node(name)
		require.True(t, ok, name)
		m, ok := shapeprop.MetaOf(n)
		require.True(t, ok, name)
		out = append(out, m.String())
	}
	return out
}

// holder holds a higher-order operator's subgraphs.
type holder struct{ nn.Base }

// hopModule is a GraphModule of the program text main over GraphModules
// of the subgraph texts subs.
func hopModule(t *testing.T, main string, subs map[string]string) *fx.GraphModule {
	t.Helper()
	root := &holder{}
	root.Init(root, "Holder")
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

// TestFakePropHOPBadInput: FakeProp's errors name the operator, the
// branch or body, and what differs.
func TestFakePropHOPBadInput(t *testing.T) {
	condMain := `
%x = placeholder "x"()
%n = call_function aten.sym_size.int(%x, 0)
%p = call_function operator.gt(%n, 4)
%t = get_attr "true_graph_0"()
%f = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%p, %t, %f, [%x])
%output = output "output"(%cond)`
	tensorPred := strings.Replace(condMain, "%p = call_function operator.gt(%n, 4)", "%p = call_function aten.sum.default(%x)", 1)
	same := `
%x = placeholder "x"()
%c = call_function aten.cos.default(%x)
%output = output "output"((%c,))`
	narrower := `
%x = placeholder "x"()
%s = call_function aten.slice.Tensor(%x, 1, 0, 1)
%output = output "output"((%s,))`
	reduced := `
%x = placeholder "x"()
%s = call_function aten.sum.dim_IntList(%x, [1])
%output = output "output"((%s,))`
	whileMain := `
%x = placeholder "x"()
%c = get_attr "while_loop_cond_graph_0"()
%b = get_attr "while_loop_body_graph_0"()
%w = call_function higher_order.while_loop(%c, %b, (%x,), ())
%output = output "output"(%w)`
	whileCond := `
%x = placeholder "x"()
%s = call_function aten.sum.default(%x)
%lt = call_function aten.lt.Scalar(%s, 10)
%output = output "output"(%lt)`
	mapMain := `
%xs = placeholder "xs"()
%ys = placeholder "ys"()
%b = get_attr "body_graph_0"()
%m = call_function higher_order.map_impl(%b, [%xs, %ys], [])
%output = output "output"(%m)`
	mapBody := `
%x = placeholder "x"()
%y = placeholder "y"()
%a = call_function aten.add.Tensor(%x, %y)
%output = output "output"((%a,))`

	env := sym.NewEnv()
	s0, err := env.NewSymbol("s0", 5, sym.Range{Lo: 2, Hi: 16})
	require.NoError(t, err)
	x := shapeprop.NewFake(tensor.Float32, s0, 3)
	tests := []struct {
		name string
		gm   *fx.GraphModule
		in   []any
		msg  string
	}{
		{"branches' ranks differ", hopModule(t, condMain, map[string]string{"true_graph_0": same, "false_graph_0": reduced}), []any{x},
			"torch.ops.higher_order.cond: output 0 differs between the branches: true branch true_graph_0 (f32[s0, 3]) vs false branch false_graph_0 (f32[s0]): rank 2 (shape f32[s0, 3]) vs 1 (shape f32[s0])"},
		{"non-bool predicate", hopModule(t, tensorPred, map[string]string{"true_graph_0": same, "false_graph_0": same}), []any{x},
			"torch.ops.higher_order.cond: pred must be a bool or a one-element bool tensor, got a float32 tensor f32[]"},
		{"body changes a carried shape", hopModule(t, whileMain, map[string]string{"while_loop_cond_graph_0": whileCond, "while_loop_body_graph_0": narrower}), []any{x},
			"torch.ops.higher_order.while_loop: body_fn while_loop_body_graph_0 changes carried value 0: f32[s0, 3] became f32[s0, 1] (carried values must keep their dtype and shape)"},
		{"map over different leading sizes", hopModule(t, mapMain, map[string]string{"body_graph_0": mapBody}), []any{x, shapeprop.NewFake(tensor.Float32, 4, 3)},
			"torch.ops.higher_order.map_impl: the mapped tensors' leading sizes differ: xs[0] has s0, xs[1] has 4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := shapeprop.FakeProp(tc.gm, env, tc.in...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// TestFakePropCondMergesSizes: a cond under a symbolic predicate whose
// branches give different sizes has a fresh unbacked size there, as
// PyTorch's cond merges them (2.14's exports of the same branches:
// export/testdata/unbackedhop/cond_diff*.2.14.ep.json: x[:2] vs x[:3] is u0 in [2, 3];
// x.sin() vs x[1:].cos() with x's first size s77 is u0 in [0, int_oo]
// once a size, [-int_oo, int_oo] before).
func TestFakePropCondMergesSizes(t *testing.T) {
	condMain := `
%x = placeholder "x"()
%n = call_function aten.sym_size.int(%x, 0)
%p = call_function operator.gt(%n, 4)
%t = get_attr "true_graph_0"()
%f = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%p, %t, %f, [%x])
%output = output "output"(%cond)`
	branch := func(body string) string {
		return "\n%x = placeholder \"x\"()\n" + body + "\n%output = output \"output\"((%r,))"
	}
	cases := []struct {
		name      string
		t, f      string
		wantShape string
		wantRange sym.Range
	}{
		{"constant sizes", branch(`%s = call_function aten.slice.Tensor(%x, 0, 0, 2)
%r = call_function aten.clone.default(%s)`), branch(`%s = call_function aten.slice.Tensor(%x, 0, 0, 3)
%r = call_function aten.clone.default(%s)`), "f32[u0, 3]", sym.Range{Lo: 2, Hi: 3}},
		{"symbolic sizes", branch(`%r = call_function aten.sin.default(%x)`), branch(`%s = call_function aten.slice.Tensor(%x, 0, 1, 9223372036854775807)
%r = call_function aten.cos.default(%s)`), "f32[u0, 3]", sym.Full},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := sym.NewEnv()
			s0, err := env.NewSymbol("s0", 6, sym.Range{Lo: 4, Hi: 100})
			require.NoError(t, err)
			gm := hopModule(t, condMain, map[string]string{"true_graph_0": c.t, "false_graph_0": c.f})
			out, err := shapeprop.FakeProp(gm, env, shapeprop.NewFake(tensor.Float32, s0, 3))
			require.NoError(t, err)
			require.Len(t, out, 1)
			f, ok := out[0].(*shapeprop.Fake)
			require.True(t, ok, "%T", out[0])
			assert.Equal(t, c.wantShape, f.String())
			u, ok := env.Lookup("u0")
			require.True(t, ok)
			assert.False(t, u.Backed())
			assert.Equal(t, c.wantRange, env.RangeOf(u))
		})
	}
}
