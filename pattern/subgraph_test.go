package pattern_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/pattern"
)

type hopRoot struct{ nn.Base }

// hopModule is a GraphModule whose graph calls a cond with the given
// branches.
func hopModule(t *testing.T, main, trueG, falseG string) *fx.GraphModule {
	t.Helper()
	sub := func(text string) *fx.GraphModule {
		r := &hopRoot{}
		r.Init(r, "Module")
		gm, err := fx.NewGraphModule(r, parse(t, text))
		require.NoError(t, err)
		return gm
	}
	r := &hopRoot{}
	r.Init(r, "Module")
	r.AddModule("true_graph_0", sub(trueG))
	r.AddModule("false_graph_0", sub(falseG))
	gm, err := fx.NewGraphModule(r, parse(t, main))
	require.NoError(t, err)
	return gm
}

// TestReplaceInsideSubgraphs: a pattern matches inside a branch graph,
// and never across the boundary between a graph and its branch (sin in
// the program feeding cos in a branch through the cond's operand).
func TestReplaceInsideSubgraphs(t *testing.T) {
	pat := parse(t, `%x = placeholder "x"()
%sin = call_function aten.sin.default(%x)
%cos = call_function aten.cos.default(%sin)
%output = output "output"(%cos)
`)
	repl := parse(t, `%x = placeholder "x"()
%tanh = call_function aten.tanh.default(%x)
%output = output "output"(%tanh)
`)
	main := `%x = placeholder "x"()
%pred = placeholder "pred"()
%sin = call_function aten.sin.default(%x)
%true_graph_0 = get_attr "true_graph_0"()
%false_graph_0 = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%pred, %true_graph_0, %false_graph_0, [%sin])
%getitem = call_function operator.getitem(%cond, 0)
%output = output "output"((%getitem,))
`
	for _, tc := range []struct {
		name          string
		trueG, falseG string
		matches       [][]string
		wantT, wantF  string
	}{{
		name: "across the boundary: no match",
		trueG: `%a = placeholder "a"()
%cos = call_function aten.cos.default(%a)
%output = output "output"((%cos,))
`,
		falseG: `%a = placeholder "a"()
%neg = call_function aten.neg.default(%a)
%output = output "output"((%neg,))
`,
		wantT: `%a = placeholder "a"()
%cos = call_function aten.cos.default(%a)
%output = output "output"((%cos,))
`,
		wantF: `%a = placeholder "a"()
%neg = call_function aten.neg.default(%a)
%output = output "output"((%neg,))
`,
	}, {
		name: "inside the false branch",
		trueG: `%a = placeholder "a"()
%cos = call_function aten.cos.default(%a)
%output = output "output"((%cos,))
`,
		falseG: `%a = placeholder "a"()
%sin = call_function aten.sin.default(%a)
%cos = call_function aten.cos.default(%sin)
%output = output "output"((%cos,))
`,
		matches: [][]string{{"sin", "cos"}},
		wantT: `%a = placeholder "a"()
%cos = call_function aten.cos.default(%a)
%output = output "output"((%cos,))
`,
		wantF: `%a = placeholder "a"()
%tanh = call_function aten.tanh.default(%a) {stack_trace: "rewritten by pattern.Replace: pattern cos -> replacement tanh\n"}
%output = output "output"((%tanh,))
`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			gm := hopModule(t, main, tc.trueG, tc.falseG)
			found, err := pattern.Find(gm, pat)
			require.NoError(t, err)
			assert.Equal(t, tc.matches, names(found), "Find")
			ms, err := pattern.Replace(gm, pat, repl)
			require.NoError(t, err)
			assert.Equal(t, tc.matches, names(ms), "Replace")
			require.NoError(t, gm.Lint())
			assert.Equal(t, main, gm.Graph.Text(), "the program's graph is untouched")
			for name, want := range map[string]string{"true_graph_0": tc.wantT, "false_graph_0": tc.wantF} {
				m, err := nn.Submodule(gm, name)
				require.NoError(t, err)
				assert.Equal(t, want, m.(*fx.GraphModule).Graph.Text(), name)
			}
		})
	}
}
