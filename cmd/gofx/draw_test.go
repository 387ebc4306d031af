package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/graph/dot"
)

// draw runs runDraw with buffers.
func draw(args ...string) (stdout, stderr string, err error) {
	var out, errs bytes.Buffer
	err = runDraw(args, &out, &errs)
	return out.String(), errs.String(), err
}

func TestDrawCommand(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"trace", []string{"-model", "mlp"}, []string{
			"digraph \"mlp\" {\n",
			`"_0" [label="{%_0|call_module 0 (Linear)|args: (%input_1,)}"`,
			"\t\"_1\" -> \"_2\";\n",
		}},
		{"trace with shapes", []string{"-model", "mlp", "-shape", "2x16", "-cluster"}, []string{
			`call_module 0 (Linear)|args: (%input_1,)|val: f32[2, 32]}`,
			`val: f32[2, 10]`,
		}},
		{"trace with weights and io", []string{"-model", "convnet", "-weights", zoo + "convnet.state_dict.pt", "-io", zoo + "convnet.io.json", "-cluster"}, []string{
			"call_module conv1 (Conv2d)",
			"val: f32[",
		}},
		{"export", []string{"-model", "mlp", "-via", "export", "-shape", "2x16"}, []string{
			"call_function aten.addmm.default",
			"placeholder ",
		}},
		{"decomposed", []string{"-model", "convnet", "-via", "decomposed", "-io", zoo + "convnet.io.json"}, []string{
			"call_function aten.convolution.default",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, err := draw(tt.args...)
			require.NoError(t, err, errs)
			for _, w := range tt.want {
				assert.Contains(t, out, w)
			}
			assert.True(t, strings.HasSuffix(out, "}\n"), out)
			if _, lerr := exec.LookPath("dot"); lerr == nil {
				cmd := exec.Command("dot", "-Tcanon")
				cmd.Stdin = strings.NewReader(out)
				msg, err := cmd.CombinedOutput()
				require.NoError(t, err, "dot does not parse the output: %s", msg)
			}
		})
	}
}

func TestDrawToFileAndSVG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mlp.dot")
	out, _, err := draw("-model", "mlp", "-o", path)
	require.NoError(t, err)
	assert.Empty(t, out)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(data), `digraph "mlp" {`))

	out, _, err = draw("-model", "mlp", "-format", "svg")
	if _, lerr := exec.LookPath("dot"); lerr != nil {
		require.ErrorIs(t, err, dot.ErrNoGraphviz)
		t.Skip("Graphviz's dot is not installed: -format svg reports ErrNoGraphviz, as it should")
	}
	require.NoError(t, err)
	assert.Contains(t, out, "<svg")
	assert.Contains(t, out, "call_module 0 (Linear)")
}

func TestDrawSVGWithoutGraphviz(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, _, err := draw("-model", "mlp", "-format", "svg")
	require.ErrorIs(t, err, dot.ErrNoGraphviz)
	assert.False(t, errors.Is(err, errUsage))
	assert.Contains(t, err.Error(), "not on PATH")
}

func TestDrawBadArguments(t *testing.T) {
	tests := []struct {
		args  []string
		usage bool
		want  string
	}{
		{nil, true, "-model or a .pt2 file is required"},
		{[]string{"-model", "mlp", "extra"}, true, "a zoo model (-model) or a .pt2 file, not both"},
		{[]string{"-model", "mlp", "-via", "jit"}, true, `-via must be trace, export or decomposed, not "jit"`},
		{[]string{"-model", "mlp", "-format", "png"}, true, `-format must be dot or svg, not "png"`},
		{[]string{"-model", "mlp", "-via", "export"}, true, "-via export needs example inputs"},
		{[]string{"-model", "mlp", "-io", "a", "-shape", "2x16"}, true, "not both"},
		{[]string{"-model", "mlp", "-shape", "2xq"}, true, `bad -shape "2xq"`},
		{[]string{"-model", "mlp", "-nope"}, true, "flag provided but not defined"},
		{[]string{"-model", "nope"}, false, `no model "nope"`},
		{[]string{"-model", "mlp", "-weights", zoo + "convnet.state_dict.pt"}, false, "unexpected keys"},
		{[]string{"-model", "mlp", "-shape", "2x17"}, false, "shape propagation"},
		{[]string{"-model", "mlp", "-o", filepath.Join(t.TempDir(), "no", "such", "dir.dot")}, false, "no such file"},
	}
	for _, tt := range tests {
		_, _, err := draw(tt.args...)
		require.Error(t, err, "%v", tt.args)
		assert.Equal(t, tt.usage, errors.Is(err, errUsage), "%v: %v", tt.args, err)
		assert.Contains(t, err.Error(), tt.want, "%v", tt.args)
	}
	for _, f := range []string{"-model", "-via", "-format", "-shape", "-io", "-weights", "-cluster", "-o"} {
		assert.Contains(t, drawUsage, f)
	}
}

// TestDrawSubgraphs: a .pt2 program's branch graphs are drawn as boxes,
// cond_nested's inner cond inside its outer true branch.
func TestDrawSubgraphs(t *testing.T) {
	// -via decomposed draws ep.RunDecompositions' subgraphs the same way
	// once RunDecompositions goes into subgraphs.
	for _, via := range []string{"load"} {
		out, errs, err := draw("../../pt2/testdata/hop/cond_nested.pt2", "-via", via)
		require.NoError(t, err, errs)
		for _, want := range []string{
			"\tcompound=true;\n",
			"\tsubgraph \"cluster_subgraph_true_graph_0\" {\n",
			"\t\tsubgraph \"cluster_subgraph_true_graph_0.true_graph_0\" {\n",
			"\tsubgraph \"cluster_subgraph_false_graph_0\" {\n",
			`"true_graph_0.true_graph_0.mul" [label="{%mul|call_function aten.mul.Tensor|args: (%x, %y)|val: f32[4, 5]}"`,
			"\t\"true_graph_0\" -> \"true_graph_0.x\" [style=dashed, lhead=\"cluster_subgraph_true_graph_0\"];\n",
		} {
			assert.Contains(t, out, want, via)
		}
	}
}
