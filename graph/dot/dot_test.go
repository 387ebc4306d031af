package dot_test

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/graph/dot"
	"github.com/gofx/gofx/internal/chain"
	"github.com/gofx/gofx/internal/golden"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/tensor"
)

// dotChain returns the traced 2-block chain model with val metadata and
// without stack traces (whose file paths differ between checkouts).
func dotChain(t testing.TB, blocks int) *fx.GraphModule {
	gm, err := fx.SymbolicTrace(chain.NewModel(blocks))
	require.NoError(t, err)
	x, err := tensor.New(tensor.Float32, 1, 16)
	require.NoError(t, err)
	_, err = shapeprop.Propagate(gm, nn.Tensor(x))
	require.NoError(t, err)
	for n := range gm.Graph.Nodes() {
		n.Meta.Delete(node.StackTrace.Name())
	}
	return gm
}

// weirdFunc is a node.Function whose name is not a Python name.
type weirdFunc struct{}

func (weirdFunc) String() string    { return `my"lib.op{x}|<y>\z` }
func (weirdFunc) ShortName() string { return "op" }

// weirdGraph has a function name and literals full of characters
// that DOT and record labels treat specially.
func weirdGraph(t *testing.T) *graph.Graph {
	g := graph.New()
	x, err := g.Placeholder("x")
	require.NoError(t, err)
	w, err := g.GetAttr("layer.w")
	require.NoError(t, err)
	fn := weirdFunc{}
	c, err := g.CallFunction(fn, []node.Arg{x, w, node.Str(`say "hi" {a|b} <c> \n  two  spaces`), node.Float(1.5)},
		node.Kwargs{{Name: "k", Value: node.List{node.Int(1), node.None}}})
	require.NoError(t, err)
	m, err := g.CallMethod("relu", []node.Arg{c}, nil)
	require.NoError(t, err)
	_, err = g.Output(m)
	require.NoError(t, err)
	return g
}

func TestDOTGolden(t *testing.T) {
	gm := dotChain(t, 2)
	tests := []struct {
		name string
		g    *graph.Graph
		opts dot.Options
	}{
		{"chain2", gm.Graph, dot.Options{Name: "chain", Root: gm}},
		{"chain2_cluster", gm.Graph, dot.Options{Name: "chain", Root: gm, Cluster: true}},
		{"weird", weirdGraph(t), dot.Options{Name: `we"ird`, MaxArgLen: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := dot.DOT(tt.g, tt.opts)
			require.NoError(t, err)
			golden.Check(t, "testdata/"+tt.name+".dot", got)
			checkDOTParses(t, got)
		})
	}
}

// checkDOTParses runs Graphviz's dot on src when it is installed.
func checkDOTParses(t *testing.T, src string) {
	t.Helper()
	if _, err := exec.LookPath("dot"); err != nil {
		t.Log("Graphviz's dot is not installed: not checking that the DOT parses")
		return
	}
	_, err := dot.Render(src, "canon")
	require.NoError(t, err)
}

func TestDOTContents(t *testing.T) {
	gm := dotChain(t, 2)
	got, err := dot.DOT(gm.Graph, dot.Options{Root: gm})
	require.NoError(t, err)
	tests := []struct{ what, want string }{
		{"header", "digraph \"graph\" {\n"},
		{"placeholder with val", `"x" [label="{%x|placeholder x|val: f32[1, 16]}"`},
		{"module type", `call_module blocks.0.lin (Linear)|args: (%x,)|val: f32[1, 16]`},
		{"literal argument", `call_function aten.add.Tensor|args: (%blocks_0_lin, 1.0)`},
		{"output", `"output" [label="{%output|output output|returns: %relu_1|val: f32[1, 16]}"`},
		{"edge", "\t\"blocks_0_lin\" -> \"add\";\n"},
		{"last edge", "\t\"relu_1\" -> \"output\";\n}\n"},
	}
	for _, tt := range tests {
		assert.Contains(t, got, tt.want, tt.what)
	}
	// One record per node, one edge per (input, user) pair.
	assert.Equal(t, gm.Graph.Len(), strings.Count(got, "[label="))
	edges := 0
	for n := range gm.Graph.Nodes() {
		edges += len(n.AllInputNodes())
	}
	assert.Equal(t, edges, strings.Count(got, " -> "))
}

func TestDOTEscaping(t *testing.T) {
	got, err := dot.DOT(weirdGraph(t), dot.Options{Name: `we"ird`, MaxArgLen: -1})
	require.NoError(t, err)
	// Escapes written out by hand: record syntax characters and DOT's quote
	// get a backslash, a backslash is doubled, a second space is escaped.
	for _, want := range []string{
		`digraph "we\"ird" {`,
		`call_function my\"lib.op\{x\}\|\<y\>\\z`,
		`args: (%x, %layer_w, \"say \\\"hi\\\" \{a\|b\} \<c\> \\\\n \ two \ spaces\", 1.5)`,
		`kwargs: \{k: [1, None]\}`,
	} {
		assert.Contains(t, got, want)
	}
	if _, err := exec.LookPath("dot"); err != nil {
		t.Skip("Graphviz's dot is not installed: not checking the rendered labels")
	}
	svg, err := dot.Render(got, "svg")
	require.NoError(t, err)
	texts := svgTexts(t, svg)
	for _, want := range []string{
		`call_function my"lib.op{x}|<y>\z`,
		`args: (%x, %layer_w, "say \"hi\" {a|b} <c> \\n  two  spaces", 1.5)`,
		`kwargs: {k: [1, None]}`,
	} {
		assert.Contains(t, texts, want)
	}
}

// svgTexts returns the text of every <text> element of an SVG document.
func svgTexts(t *testing.T, svg []byte) []string {
	dec := xml.NewDecoder(strings.NewReader(string(svg)))
	dec.Strict = false
	var out []string
	in := false
	var cur strings.Builder
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			if tk.Name.Local == "text" {
				in = true
				cur.Reset()
			}
		case xml.CharData:
			if in {
				cur.Write(tk)
			}
		case xml.EndElement:
			if tk.Name.Local == "text" {
				in = false
				out = append(out, strings.ReplaceAll(cur.String(), "\u00a0", " "))
			}
		}
	}
	require.NotEmpty(t, out)
	return out
}

func TestDOTErrors(t *testing.T) {
	_, err := dot.DOT(nil, dot.Options{})
	assert.ErrorContains(t, err, "nil graph")
	_, err = dot.Render("digraph {", "svg")
	if errors.Is(err, dot.ErrNoGraphviz) {
		t.Skip("Graphviz's dot is not installed")
	}
	assert.ErrorContains(t, err, "dot -Tsvg")
	_, err = dot.Render("digraph {}", "svg -o /tmp/x")
	assert.ErrorContains(t, err, "bad output format")
}

func TestSVG(t *testing.T) {
	gm := dotChain(t, 1)
	svg, err := dot.SVG(gm.Graph, dot.Options{Root: gm, Cluster: true})
	if _, lerr := exec.LookPath("dot"); lerr != nil {
		require.ErrorIs(t, err, dot.ErrNoGraphviz)
		t.Skip("Graphviz's dot is not installed: SVG returns ErrNoGraphviz, as it should")
	}
	require.NoError(t, err)
	assert.Contains(t, string(svg), "<svg")
	assert.Contains(t, svgTexts(t, svg), "call_module blocks.0.lin (Linear)")
	assert.Contains(t, svgTexts(t, svg), "blocks.0 (Block)")
}

func ExampleDOT() {
	gm, err := fx.SymbolicTrace(chain.NewModel(1))
	if err != nil {
		panic(err)
	}
	src, err := dot.DOT(gm.Graph, dot.Options{Name: "chain", Root: gm})
	if err != nil {
		panic(err)
	}
	fmt.Print(src)
	// Output:
	// digraph "chain" {
	// 	rankdir=TB;
	// 	node [shape=record, style="rounded,filled", fontname="Courier", fontsize=10];
	// 	edge [arrowsize=0.7];
	// 	"x" [label="{%x|placeholder x}", fillcolor="#cfe8ff"];
	// 	"blocks_0_lin" [label="{%blocks_0_lin|call_module blocks.0.lin (Linear)|args: (%x,)}", fillcolor="#ffe0cc"];
	// 	"add" [label="{%add|call_function aten.add.Tensor|args: (%blocks_0_lin, 1.0)}", fillcolor="#e8f5e9"];
	// 	"relu" [label="{%relu|call_method relu|args: (%add,)}", fillcolor="#f3e5f5"];
	// 	"output" [label="{%output|output output|returns: %relu}", fillcolor="#cfe8ff"];
	// 	"x" -> "blocks_0_lin";
	// 	"blocks_0_lin" -> "add";
	// 	"add" -> "relu";
	// 	"relu" -> "output";
	// }
}

func TestSVGWithoutGraphviz(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := dot.SVG(dotChain(t, 1).Graph, dot.Options{})
	require.ErrorIs(t, err, dot.ErrNoGraphviz)
	assert.ErrorContains(t, err, "not on PATH")
}

// BenchmarkDOT draws the traced chain model (3 nodes a block) to a
// discarding writer.
func BenchmarkDOT(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("blocks=%d", n), func(b *testing.B) {
			gm, err := fx.SymbolicTrace(chain.NewModel(n))
			require.NoError(b, err)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := dot.WriteDOT(io.Discard, gm.Graph, dot.Options{Root: gm, Cluster: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
