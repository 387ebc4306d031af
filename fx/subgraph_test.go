package fx_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// condNestedText is cond_nested.pt2's program (a cond whose true branch
// holds another cond) in the text form, with vals.
func condNestedText(t *testing.T) string {
	data, err := os.ReadFile("testdata/cond_nested.txt")
	require.NoError(t, err)
	return string(data)
}

func TestParseModuleRoundTrip(t *testing.T) {
	text := condNestedText(t)
	gm, err := fx.ParseModule(text, nil)
	require.NoError(t, err)
	assert.Equal(t, text, gm.Text())
	require.NoError(t, gm.Lint())

	subs := gm.Subgraphs()
	require.Len(t, subs, 2)
	assert.Equal(t, "true_graph_0", subs[0].Name)
	assert.Equal(t, "false_graph_0", subs[1].Name)
	require.Len(t, subs[0].Subgraphs, 2)
	// The subgraphs are submodules, GraphModules themselves.
	m, err := nn.Submodule(gm, "true_graph_0.false_graph_0")
	require.NoError(t, err)
	inner, ok := m.(*fx.GraphModule)
	require.True(t, ok)
	assert.Same(t, subs[0].Subgraphs[1].Graph, inner.Graph)

	// It runs: mean(x) > 0 takes the true branch, whose mean(y) > 0 takes
	// its true branch: (x + y, x * y).
	x, err := tensor.FromSlice([]float32{1, 2, 3, 4}, 1, 4)
	require.NoError(t, err)
	y, err := tensor.FromSlice([]float32{1, 1, 1, 1}, 1, 4)
	require.NoError(t, err)
	// A shape the vals do not give is fine for running: vals are metadata.
	out, err := gm.Run(nn.Tensor(x), nn.Tensor(y))
	require.NoError(t, err)
	got := out.Tuple()
	require.Len(t, got, 2)
	assert.Equal(t, []float64{2, 3, 4, 5}, got[0].MustTensor().Float64s())
	assert.Equal(t, []float64{1, 2, 3, 4}, got[1].MustTensor().Float64s())
}

// TestReadableMatchesPyTorch: Readable is PyTorch 2.6's print of
// cond_nested (testdata/cond_nested.ep.txt, from ../shared/pt2) less its
// type annotations and source comments: the cond with its graph
// attributes, results read as cond[0], and a nested class per subgraph.
func TestReadableMatchesPyTorch(t *testing.T) {
	gm, err := fx.ParseModule(condNestedText(t), nil)
	require.NoError(t, err)
	data, err := os.ReadFile("testdata/cond_nested.ep.txt")
	require.NoError(t, err)
	exported, _, _ := strings.Cut(string(data), "# ep.run_decompositions()")
	annotation := regexp.MustCompile(`: "[^"]*"`)
	var want []string
	in := false
	for _, l := range strings.Split(exported, "\n") {
		switch {
		case strings.HasPrefix(l, "    class GraphModule"):
			in = true
		case strings.HasPrefix(l, "Graph signature"):
			in = false
		}
		l = strings.TrimRight(l, " ")
		if !in || l == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		want = append(want, annotation.ReplaceAllString(strings.TrimPrefix(l, "    "), ""))
	}
	var got []string
	for _, l := range strings.Split(gm.Readable(), "\n") {
		if l != "" {
			got = append(got, l)
		}
	}
	assert.Equal(t, want, got)
}

func TestGraphModuleTabularSubgraphs(t *testing.T) {
	gm, err := fx.ParseModule(condNestedText(t), nil)
	require.NoError(t, err)
	tab := gm.Tabular()
	heads := regexp.MustCompile(`(?m)^# subgraph (\S+)$`).FindAllStringSubmatch(tab, -1)
	var names []string
	for _, h := range heads {
		names = append(names, h[1])
	}
	assert.Equal(t, []string{"true_graph_0", "true_graph_0.true_graph_0", "true_graph_0.false_graph_0", "false_graph_0"}, names)
	assert.Contains(t, tab, "call_function  cond           higher_order.cond  (gt, true_graph_0, false_graph_0, [x, y])")
	assert.True(t, strings.HasPrefix(tab, gm.Graph.Tabular()))
}

func TestParseModuleErrors(t *testing.T) {
	text := condNestedText(t)
	for _, tc := range []struct{ name, old, new, want string }{
		{"branch output count", `%output = output "output"((%relu, %relu_1))`, `%output = output "output"((%relu,))`,
			"node %cond: cond: the false branch false_graph_0 returns 1 values, the cond 2"},
		{"dangling branch", `%false_graph_0 = get_attr "false_graph_0"()` + "\n%cond", `%false_graph_0 = get_attr "else_graph"()` + "\n%cond",
			"the false branch else_graph (read by %false_graph_0) is not a subgraph of this graph"},
		{"syntax", "subgraph false_graph_0 {", "subgraph false_graph_0", `line 32, col 27: expected "{" after the subgraph's name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Contains(t, text, tc.old)
			gm, err := fx.ParseModule(strings.Replace(text, tc.old, tc.new, 1), nil)
			require.Error(t, err)
			assert.Nil(t, gm)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// A subgraph whose name the root already uses.
	root := nn.NewSequential()
	nn.RegisterModule(root.ModuleBase(), "true_graph_0", nn.NewSequential())
	_, err := fx.ParseModule(text, root)
	assert.ErrorContains(t, err, "subgraph true_graph_0: the module already has a submodule of that name")
}

// FuzzParseModule: ParseModule never panics; what it accepts passes Lint
// and prints back to a text it reads again into the same text.
func FuzzParseModule(f *testing.F) {
	data, err := os.ReadFile("testdata/cond_nested.txt")
	require.NoError(f, err)
	f.Add(string(data))
	f.Add("%x = placeholder \"x\"()\n%output = output \"output\"(%x)\n\nsubgraph a {\n}\n")
	f.Add("%g = get_attr \"a\"()\n%c = call_function higher_order.cond(True, %g, %g, [])\n%output = output \"output\"(%c)\n\nsubgraph a {\n    %output = output \"output\"(())\n}\n")
	f.Fuzz(func(t *testing.T, text string) {
		gm, err := fx.ParseModule(text, nil)
		if err != nil {
			return
		}
		require.NoError(t, gm.Lint())
		txt := gm.Text()
		gm2, err := fx.ParseModule(txt, nil)
		require.NoError(t, err, "reparsing\n%s", txt)
		require.Equal(t, txt, gm2.Text())
	})
}
