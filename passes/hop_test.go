package passes_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
)

// hopCase is a GraphModule with higher-order operators, written as the
// text of its graph and of each subgraph, and what a pass makes of it.
type hopCase struct {
	name  string
	pass  passes.Pass
	main  string            // the program's graph
	subs  map[string]string // subgraph name -> graph (nested: "outer/inner")
	attrs map[string]*tensor.Tensor
	// subAttrs are buffers of subgraphs, by subgraph name.
	subAttrs map[string]map[string]*tensor.Tensor
	want     string            // the program's graph after the pass
	wsubs    map[string]string // subgraphs after the pass ("" : not checked)
}

// buildHOP makes the GraphModule of a hopCase: subgraphs named "a/b" are
// submodules b of subgraph a.
func buildHOP(t *testing.T, c hopCase) *fx.GraphModule {
	t.Helper()
	mods := map[string]nn.Module{}
	// Inner subgraphs first.
	inner := map[string]map[string]nn.Module{}
	for name, text := range c.subs {
		if outer, leaf, ok := cut(name); ok {
			if inner[outer] == nil {
				inner[outer] = map[string]nn.Module{}
			}
			inner[outer][leaf] = newGM(t, text, c.subAttrs[name], nil)
		}
	}
	for name, text := range c.subs {
		if _, _, ok := cut(name); !ok {
			mods[name] = newGM(t, text, c.subAttrs[name], inner[name])
		}
	}
	return newGM(t, c.main, c.attrs, mods)
}

func cut(s string) (string, string, bool) {
	for i := range s {
		if s[i] == '/' {
			return s[:i], s[i+1:], true
		}
	}
	return "", "", false
}

func subText(t *testing.T, gm *fx.GraphModule, path string) string {
	t.Helper()
	m := nn.Module(gm)
	outer, leaf, ok := cut(path)
	if ok {
		var err error
		m, err = nn.Submodule(m, outer)
		require.NoError(t, err)
		path = leaf
	}
	s, err := nn.Submodule(m, path)
	require.NoError(t, err, path)
	return s.(*fx.GraphModule).Graph.Text()
}

const (
	condMain = `%x = placeholder "x"()
%y = placeholder "y"()
%pred = placeholder "pred"()
%true_graph_0 = get_attr "true_graph_0"()
%false_graph_0 = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%pred, %true_graph_0, %false_graph_0, [%x, %y])
%getitem = call_function operator.getitem(%cond, 0)
%output = output "output"((%getitem,))
`
	condTrue = `%x = placeholder "x"()
%y = placeholder "y"()
%sin = call_function aten.sin.default(%x)
%cos = call_function aten.cos.default(%y)
%output = output "output"((%sin, %cos))
`
	// condFalse1 is a false branch with condMain's one result.
	condFalse1 = `%x = placeholder "x"()
%y = placeholder "y"()
%neg = call_function aten.neg.default(%x)
%output = output "output"((%neg,))
`
	condFalse = `%x = placeholder "x"()
%y = placeholder "y"()
%neg = call_function aten.neg.default(%x)
%abs_1 = call_function aten.abs.default(%x)
%output = output "output"((%neg, %abs_1))
`
)

func TestHigherOrderPasses(t *testing.T) {
	cases := []hopCase{{
		name: "dce inside a branch",
		pass: passes.DCE,
		main: condMain,
		subs: map[string]string{"true_graph_0": `%x = placeholder "x"()
%y = placeholder "y"()
%dead = call_function aten.exp.default(%y)
%sin = call_function aten.sin.default(%x)
%output = output "output"((%sin,))
`, "false_graph_0": condFalse1},
		want: condMain,
		wsubs: map[string]string{"true_graph_0": `%x = placeholder "x"()
%y = placeholder "y"()
%sin = call_function aten.sin.default(%x)
%output = output "output"((%sin,))
`},
	}, {
		name: "cse inside a nested branch",
		pass: passes.CSE,
		main: condMain,
		subs: map[string]string{
			"true_graph_0": `%x = placeholder "x"()
%y = placeholder "y"()
%t = get_attr "true_graph_0"()
%f = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%x, %t, %f, [%x, %y])
%getitem = call_function operator.getitem(%cond, 0)
%output = output "output"((%getitem,))
`,
			"true_graph_0/true_graph_0": `%x = placeholder "x"()
%y = placeholder "y"()
%a = call_function aten.mul.Tensor(%x, %y)
%b = call_function aten.mul.Tensor(%x, %y)
%add = call_function aten.add.Tensor(%a, %b)
%output = output "output"((%add,))
`,
			"true_graph_0/false_graph_0": condFalse1,
			"false_graph_0":              condFalse1,
		},
		want: condMain,
		wsubs: map[string]string{"true_graph_0/true_graph_0": `%x = placeholder "x"()
%y = placeholder "y"()
%a = call_function aten.mul.Tensor(%x, %y)
%add = call_function aten.add.Tensor(%a, %a)
%output = output "output"((%add,))
`},
	}, {
		name: "epilogue fusion inside a branch",
		pass: passes.FuseEpilogues,
		main: condMain,
		subs: map[string]string{"true_graph_0": `%x = placeholder "x"()
%y = placeholder "y"()
%convolution = call_function aten.convolution.default(%x, %y, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1) {stack_trace: "model.go:12\n"}
%relu = call_function aten.relu.default(%convolution) {stack_trace: "model.go:13\n"}
%output = output "output"((%relu,))
`, "false_graph_0": condFalse1},
		want: condMain,
		wsubs: map[string]string{"true_graph_0": `%x = placeholder "x"()
%y = placeholder "y"()
%convolution_relu = call_function gofx.convolution_relu.default(%x, %y, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1) {stack_trace: "model.go:12\n"}
%output = output "output"((%convolution_relu,))
`},
	}, {
		name: "dropout removal inside a branch",
		pass: passes.RemoveDropout,
		main: condMain,
		subs: map[string]string{"true_graph_0": `%x = placeholder "x"()
%y = placeholder "y"()
%dropout = call_function aten.dropout.default(%x, 0.5, False)
%sin = call_function aten.sin.default(%dropout)
%output = output "output"((%sin,))
`, "false_graph_0": condFalse1},
		want: condMain,
		wsubs: map[string]string{"true_graph_0": `%x = placeholder "x"()
%y = placeholder "y"()
%sin = call_function aten.sin.default(%x)
%output = output "output"((%sin,))
`},
	}, {
		name:     "constant folding inside a branch",
		pass:     passes.FoldConstants,
		main:     condMain,
		subAttrs: map[string]map[string]*tensor.Tensor{"true_graph_0": {"c": tensor.Must(tensor.FromSlice([]float32{1, -2}, 2))}},
		subs: map[string]string{"true_graph_0": `%x = placeholder "x"()
%y = placeholder "y"()
%c = get_attr "c"()
%neg = call_function aten.neg.default(%c)
%add = call_function aten.add.Tensor(%x, %neg)
%output = output "output"((%add,))
`, "false_graph_0": condFalse1},
		want: condMain,
		wsubs: map[string]string{"true_graph_0": `%x = placeholder "x"()
%y = placeholder "y"()
%_folded_constant_0 = get_attr "_folded_constant_0"()
%add = call_function aten.add.Tensor(%x, %_folded_constant_0)
%output = output "output"((%add,))
`},
	}, {
		name: "a literal True predicate inlines the true branch",
		pass: passes.InlineConstantCond,
		main: `%x = placeholder "x"()
%y = placeholder "y"()
%true_graph_0 = get_attr "true_graph_0"()
%false_graph_0 = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(True, %true_graph_0, %false_graph_0, [%x, %y])
%getitem = call_function operator.getitem(%cond, 0)
%getitem_1 = call_function operator.getitem(%cond, 1)
%output = output "output"((%getitem, %getitem_1))
`,
		subs: map[string]string{"true_graph_0": condTrue, "false_graph_0": condFalse},
		want: `%x = placeholder "x"()
%y = placeholder "y"()
%sin = call_function aten.sin.default(%x)
%cos = call_function aten.cos.default(%y)
%output = output "output"((%sin, %cos))
`,
	}, {
		name:  "a constant tensor predicate (folded) inlines the false branch",
		pass:  passes.InlineConstantCond,
		attrs: map[string]*tensor.Tensor{"flag": tensor.Scalar(false)},
		main: `%x = placeholder "x"()
%y = placeholder "y"()
%flag = get_attr "flag"()
%true_graph_0 = get_attr "true_graph_0"()
%false_graph_0 = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%flag, %true_graph_0, %false_graph_0, [%x, %y])
%getitem = call_function operator.getitem(%cond, 0)
%output = output "output"((%getitem,))
`,
		subs: map[string]string{"true_graph_0": condTrue, "false_graph_0": condFalse},
		want: `%x = placeholder "x"()
%y = placeholder "y"()
%neg = call_function aten.neg.default(%x)
%output = output "output"((%neg,))
`,
	}, {
		name: "a cond's unused result and operand go from both branches",
		pass: passes.PruneHigherOrder,
		main: condMain,
		subs: map[string]string{"true_graph_0": `%x = placeholder "x"()
%y = placeholder "y"()
%sin = call_function aten.sin.default(%x)
%cos = call_function aten.cos.default(%y)
%output = output "output"((%sin, %cos))
`, "false_graph_0": `%x = placeholder "x"()
%y = placeholder "y"()
%neg = call_function aten.neg.default(%x)
%abs_1 = call_function aten.abs.default(%y)
%output = output "output"((%neg, %abs_1))
`},
		want: `%x = placeholder "x"()
%y = placeholder "y"()
%pred = placeholder "pred"()
%true_graph_0 = get_attr "true_graph_0"()
%false_graph_0 = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%pred, %true_graph_0, %false_graph_0, [%x])
%getitem = call_function operator.getitem(%cond, 0)
%output = output "output"((%getitem,))
`,
		wsubs: map[string]string{"true_graph_0": `%x = placeholder "x"()
%sin = call_function aten.sin.default(%x)
%output = output "output"((%sin,))
`, "false_graph_0": `%x = placeholder "x"()
%neg = call_function aten.neg.default(%x)
%output = output "output"((%neg,))
`},
	}, {
		name: "a cond keeps an operand one branch reads; getitems renumbered",
		pass: passes.PruneHigherOrder,
		main: `%x = placeholder "x"()
%y = placeholder "y"()
%pred = placeholder "pred"()
%true_graph_0 = get_attr "true_graph_0"()
%false_graph_0 = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%pred, %true_graph_0, %false_graph_0, [%x, %y])
%getitem_1 = call_function operator.getitem(%cond, 1)
%output = output "output"((%getitem_1,))
`,
		subs: map[string]string{"true_graph_0": condTrue, "false_graph_0": condFalse},
		want: `%x = placeholder "x"()
%y = placeholder "y"()
%pred = placeholder "pred"()
%true_graph_0 = get_attr "true_graph_0"()
%false_graph_0 = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%pred, %true_graph_0, %false_graph_0, [%x, %y])
%getitem_1 = call_function operator.getitem(%cond, 0)
%output = output "output"((%getitem_1,))
`,
		wsubs: map[string]string{"true_graph_0": `%x = placeholder "x"()
%y = placeholder "y"()
%cos = call_function aten.cos.default(%y)
%output = output "output"((%cos,))
`, "false_graph_0": `%x = placeholder "x"()
%y = placeholder "y"()
%abs_1 = call_function aten.abs.default(%x)
%output = output "output"((%abs_1,))
`},
	}, {
		name: "a while_loop's unused carried value and additional input go",
		pass: passes.PruneHigherOrder,
		main: `%it = placeholder "it"()
%x = placeholder "x"()
%z = placeholder "z"()
%w = placeholder "w"()
%cond_graph = get_attr "while_loop_cond_graph_0"()
%body_graph = get_attr "while_loop_body_graph_0"()
%while_loop = call_function higher_order.while_loop(%cond_graph, %body_graph, (%it, %x, %z), (%w,))
%getitem = call_function operator.getitem(%while_loop, 0)
%getitem_1 = call_function operator.getitem(%while_loop, 1)
%output = output "output"((%getitem, %getitem_1))
`,
		subs: map[string]string{"while_loop_cond_graph_0": `%arg0_1 = placeholder "arg0_1"()
%arg1_1 = placeholder "arg1_1"()
%arg2_1 = placeholder "arg2_1"()
%arg3_1 = placeholder "arg3_1"()
%lt = call_function aten.lt.Scalar(%arg0_1, 5)
%output = output "output"(%lt)
`, "while_loop_body_graph_0": `%arg0_1 = placeholder "arg0_1"()
%arg1_1 = placeholder "arg1_1"()
%arg2_1 = placeholder "arg2_1"()
%arg3_1 = placeholder "arg3_1"()
%add = call_function aten.add.Tensor(%arg0_1, 1)
%sin = call_function aten.sin.default(%arg1_1)
%cos = call_function aten.cos.default(%arg2_1)
%output = output "output"((%add, %sin, %cos))
`},
		want: `%it = placeholder "it"()
%x = placeholder "x"()
%z = placeholder "z"()
%w = placeholder "w"()
%cond_graph = get_attr "while_loop_cond_graph_0"()
%body_graph = get_attr "while_loop_body_graph_0"()
%while_loop = call_function higher_order.while_loop(%cond_graph, %body_graph, (%it, %x), ())
%getitem = call_function operator.getitem(%while_loop, 0)
%getitem_1 = call_function operator.getitem(%while_loop, 1)
%output = output "output"((%getitem, %getitem_1))
`,
		wsubs: map[string]string{"while_loop_cond_graph_0": `%arg0_1 = placeholder "arg0_1"()
%arg1_1 = placeholder "arg1_1"()
%lt = call_function aten.lt.Scalar(%arg0_1, 5)
%output = output "output"(%lt)
`, "while_loop_body_graph_0": `%arg0_1 = placeholder "arg0_1"()
%arg1_1 = placeholder "arg1_1"()
%add = call_function aten.add.Tensor(%arg0_1, 1)
%sin = call_function aten.sin.default(%arg1_1)
%output = output "output"((%add, %sin))
`},
	}, {
		name: "a while_loop keeps a carried value another one reads",
		pass: passes.PruneHigherOrder,
		main: `%it = placeholder "it"()
%x = placeholder "x"()
%cond_graph = get_attr "while_loop_cond_graph_0"()
%body_graph = get_attr "while_loop_body_graph_0"()
%while_loop = call_function higher_order.while_loop(%cond_graph, %body_graph, (%it, %x), ())
%getitem = call_function operator.getitem(%while_loop, 0)
%output = output "output"((%getitem,))
`,
		subs: map[string]string{"while_loop_cond_graph_0": `%arg0_1 = placeholder "arg0_1"()
%arg1_1 = placeholder "arg1_1"()
%lt = call_function aten.lt.Scalar(%arg0_1, 5)
%output = output "output"(%lt)
`, "while_loop_body_graph_0": `%arg0_1 = placeholder "arg0_1"()
%arg1_1 = placeholder "arg1_1"()
%sum_1 = call_function aten.sum.default(%arg1_1)
%add = call_function aten.add.Tensor(%arg0_1, %sum_1)
%sin = call_function aten.sin.default(%arg1_1)
%output = output "output"((%add, %sin))
`},
		want: `%it = placeholder "it"()
%x = placeholder "x"()
%cond_graph = get_attr "while_loop_cond_graph_0"()
%body_graph = get_attr "while_loop_body_graph_0"()
%while_loop = call_function higher_order.while_loop(%cond_graph, %body_graph, (%it, %x), ())
%getitem = call_function operator.getitem(%while_loop, 0)
%output = output "output"((%getitem,))
`,
	}, {
		name: "a map_impl's unused extra argument goes, its mapped input stays",
		pass: passes.PruneHigherOrder,
		main: `%xs = placeholder "xs"()
%y = placeholder "y"()
%w = placeholder "w"()
%body_graph_0 = get_attr "body_graph_0"()
%map_impl = call_function higher_order.map_impl(%body_graph_0, [%xs], [%y, %w])
%getitem = call_function operator.getitem(%map_impl, 0)
%output = output "output"((%getitem,))
`,
		subs: map[string]string{"body_graph_0": `%xs = placeholder "xs"()
%y = placeholder "y"()
%w = placeholder "w"()
%add = call_function aten.add.Tensor(%xs, %y)
%output = output "output"((%add,))
`},
		want: `%xs = placeholder "xs"()
%y = placeholder "y"()
%w = placeholder "w"()
%body_graph_0 = get_attr "body_graph_0"()
%map_impl = call_function higher_order.map_impl(%body_graph_0, [%xs], [%y])
%getitem = call_function operator.getitem(%map_impl, 0)
%output = output "output"((%getitem,))
`,
		wsubs: map[string]string{"body_graph_0": `%xs = placeholder "xs"()
%y = placeholder "y"()
%add = call_function aten.add.Tensor(%xs, %y)
%output = output "output"((%add,))
`},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gm := buildHOP(t, c)
			_, err := c.pass.Apply(gm)
			require.NoError(t, err)
			require.NoError(t, gm.Lint())
			assert.Equal(t, c.want, gm.Graph.Text(), "the program's graph")
			for name, want := range c.wsubs {
				assert.Equal(t, want, subText(t, gm, name), "subgraph %s", name)
			}
		})
	}
}

// TestHigherOrderPassErrors: a cond whose branch argument reads no
// GraphModule is an error naming the pass, the node and the branch, and
// the graph is left as it was.
func TestHigherOrderPassErrors(t *testing.T) {
	gm := newGM(t, `%x = placeholder "x"()
%w = get_attr "w"()
%false_graph_0 = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(True, %w, %false_graph_0, [%x])
%getitem = call_function operator.getitem(%cond, 0)
%output = output "output"((%getitem,))
`, map[string]*tensor.Tensor{"w": tensor.Scalar(float32(1))}, map[string]nn.Module{"false_graph_0": newGM(t, `%x = placeholder "x"()
%neg = call_function aten.neg.default(%x)
%output = output "output"((%neg,))
`, nil, nil)})
	before := gm.Graph.Text()
	_, err := passes.InlineConstantCond.Apply(gm)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `pass "inline_constant_cond": cond cond: its branch w is not a GraphModule`)
	assert.Equal(t, before, gm.Graph.Text(), "the graph is left as it was")
}
