package dot_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/graph/dot"
	"github.com/gofx/gofx/internal/golden"
)

// condInCond is a cond whose false branch holds another cond.
const condInCond = `%p = placeholder "p"() {val: b8[]}
%x = placeholder "x"() {val: f32[3]}
%true_graph_0 = get_attr "true_graph_0"()
%false_graph_0 = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%p, %true_graph_0, %false_graph_0, [%p, %x]) {val: (f32[3],)}
%getitem = call_function operator.getitem(%cond, 0) {val: f32[3]}
%output = output "output"((%getitem,))

subgraph true_graph_0 {
    %p = placeholder "p"() {val: b8[]}
    %x = placeholder "x"() {val: f32[3]}
    %sin = call_function aten.sin.default(%x) {val: f32[3]}
    %output = output "output"((%sin,))
}

subgraph false_graph_0 {
    %p = placeholder "p"() {val: b8[]}
    %x = placeholder "x"() {val: f32[3]}
    %true_graph_0 = get_attr "true_graph_0"()
    %false_graph_0 = get_attr "false_graph_0"()
    %cond = call_function higher_order.cond(%p, %true_graph_0, %false_graph_0, [%x]) {val: (f32[3],)}
    %getitem = call_function operator.getitem(%cond, 0) {val: f32[3]}
    %output = output "output"((%getitem,))

    subgraph true_graph_0 {
        %x = placeholder "x"() {val: f32[3]}
        %cos = call_function aten.cos.default(%x) {val: f32[3]}
        %output = output "output"((%cos,))
    }

    subgraph false_graph_0 {
        %x = placeholder "x"() {val: f32[3]}
        %neg = call_function aten.neg.default(%x) {val: f32[3]}
        %output = output "output"((%neg,))
    }
}
`

// TestDOTSubgraphs: each subgraph is a box (cluster) holding its own
// nodes, under IDs prefixed by its path, nested as the subgraphs nest,
// and the get_attr node that reads it points at the box.
func TestDOTSubgraphs(t *testing.T) {
	g, subs, err := graph.ParseWithSubgraphs(condInCond)
	require.NoError(t, err)
	require.NoError(t, g.LintWithSubgraphs(subs))
	src, err := dot.DOT(g, dot.Options{Name: "cond_in_cond", Subgraphs: subs})
	require.NoError(t, err)
	golden.Check(t, "testdata/cond_in_cond.dot", src)

	assert.Contains(t, src, "\tcompound=true;\n")
	// The boxes nest: false_graph_0's holds false_graph_0.true_graph_0's.
	boxes := map[string]string{} // cluster -> its body up to its own closing brace
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		m := regexp.MustCompile(`^(\t+)subgraph "(cluster_subgraph_[\w.]+)" \{$`).FindStringSubmatch(l)
		if m == nil {
			continue
		}
		var body []string
		for _, b := range lines[i+1:] {
			if b == m[1]+"}" {
				break
			}
			body = append(body, b)
		}
		boxes[m[2]] = strings.Join(body, "\n")
	}
	require.Len(t, boxes, 4)
	inner := boxes["cluster_subgraph_false_graph_0.true_graph_0"]
	assert.Contains(t, inner, `"false_graph_0.true_graph_0.cos" [label="{%cos|call_function aten.cos.default|args: (%x,)|val: f32[3]}"`)
	assert.Contains(t, inner, `"false_graph_0.true_graph_0.x" -> "false_graph_0.true_graph_0.cos";`)
	assert.Contains(t, boxes["cluster_subgraph_false_graph_0"], inner)
	assert.NotContains(t, boxes["cluster_subgraph_true_graph_0"], "cos")
	assert.Contains(t, boxes["cluster_subgraph_true_graph_0"], `"true_graph_0.x" -> "true_graph_0.sin";`)
	// Each get_attr points at its graph's box.
	assert.Contains(t, src, "\t\"true_graph_0\" -> \"true_graph_0.p\" [style=dashed, lhead=\"cluster_subgraph_true_graph_0\"];\n")
	assert.Contains(t, boxes["cluster_subgraph_false_graph_0"], "\t\t\"false_graph_0.false_graph_0\" -> \"false_graph_0.false_graph_0.x\" [style=dashed, lhead=\"cluster_subgraph_false_graph_0.false_graph_0\"];")
	// Without Subgraphs the drawing is the top graph's alone.
	plain, err := dot.DOT(g, dot.Options{Name: "cond_in_cond"})
	require.NoError(t, err)
	assert.NotContains(t, plain, "cluster")
	assert.NotContains(t, plain, "compound")
}
