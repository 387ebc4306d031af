package graph_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/graph"
)

// condNested is cond_nested's structure (../shared/pt2/cond_nested.ep.txt:
// a cond whose true branch holds another cond, two outputs), in the text
// form with subgraph sections.
const condNested = `%x = placeholder "x"() {val: f32[4, 5]}
%y = placeholder "y"() {val: f32[4, 5]}
%mean = call_function aten.mean.default(%x) {val: f32[]}
%gt = call_function aten.gt.Scalar(%mean, 0) {val: b8[]}
%true_graph_0 = get_attr "true_graph_0"()
%false_graph_0 = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%gt, %true_graph_0, %false_graph_0, [%x, %y]) {val: (f32[4, 5], f32[4, 5])}
%getitem = call_function operator.getitem(%cond, 0) {val: f32[4, 5]}
%getitem_1 = call_function operator.getitem(%cond, 1) {val: f32[4, 5]}
%output = output "output"((%getitem, %getitem_1))

subgraph true_graph_0 {
    %x = placeholder "x"() {val: f32[4, 5]}
    %y = placeholder "y"() {val: f32[4, 5]}
    %mean = call_function aten.mean.default(%y) {val: f32[]}
    %gt = call_function aten.gt.Scalar(%mean, 0) {val: b8[]}
    %true_graph_0 = get_attr "true_graph_0"()
    %false_graph_0 = get_attr "false_graph_0"()
    %cond = call_function higher_order.cond(%gt, %true_graph_0, %false_graph_0, [%x, %y]) {val: (f32[4, 5], f32[4, 5])}
    %getitem = call_function operator.getitem(%cond, 0) {val: f32[4, 5]}
    %getitem_1 = call_function operator.getitem(%cond, 1) {val: f32[4, 5]}
    %output = output "output"((%getitem, %getitem_1))

    subgraph true_graph_0 {
        %x = placeholder "x"() {val: f32[4, 5]}
        %y = placeholder "y"() {val: f32[4, 5]}
        %add = call_function aten.add.Tensor(%x, %y) {val: f32[4, 5]}
        %mul = call_function aten.mul.Tensor(%x, %y) {val: f32[4, 5]}
        %output = output "output"((%add, %mul))
    }

    subgraph false_graph_0 {
        %x = placeholder "x"() {val: f32[4, 5]}
        %y = placeholder "y"() {val: f32[4, 5]}
        %sub = call_function aten.sub.Tensor(%x, %y) {val: f32[4, 5]}
        %abs_1 = call_function aten.abs.default(%y) {val: f32[4, 5]}
        %add = call_function aten.add.Tensor(%abs_1, 1) {val: f32[4, 5]}
        %div = call_function aten.div.Tensor(%x, %add) {val: f32[4, 5]}
        %output = output "output"((%sub, %div))
    }
}

subgraph false_graph_0 {
    %x = placeholder "x"() {val: f32[4, 5]}
    %y = placeholder "y"() {val: f32[4, 5]}
    %relu = call_function aten.relu.default(%x) {val: f32[4, 5]}
    %relu_1 = call_function aten.relu.default(%y) {val: f32[4, 5]}
    %output = output "output"((%relu, %relu_1))
}
`

// whileCount is while_count's structure (../shared/pt2/while_count.ep.txt).
const whileCount = `%it = placeholder "it"() {val: i64[]}
%x = placeholder "x"() {val: f32[3, 2]}
%while_loop_cond_graph_0 = get_attr "while_loop_cond_graph_0"()
%while_loop_body_graph_0 = get_attr "while_loop_body_graph_0"()
%while_loop = call_function higher_order.while_loop(%while_loop_cond_graph_0, %while_loop_body_graph_0, (%it, %x), ()) {val: (i64[], f32[3, 2])}
%getitem = call_function operator.getitem(%while_loop, 0) {val: i64[]}
%getitem_1 = call_function operator.getitem(%while_loop, 1) {val: f32[3, 2]}
%output = output "output"((%getitem, %getitem_1))

subgraph while_loop_cond_graph_0 {
    %arg0_1 = placeholder "arg0_1"() {val: i64[]}
    %arg1_1 = placeholder "arg1_1"() {val: f32[3, 2]}
    %lt = call_function aten.lt.Scalar(%arg0_1, 5) {val: b8[]}
    %output = output "output"(%lt)
}

subgraph while_loop_body_graph_0 {
    %arg0_1 = placeholder "arg0_1"() {val: i64[]}
    %arg1_1 = placeholder "arg1_1"() {val: f32[3, 2]}
    %add = call_function aten.add.Tensor(%arg0_1, 1) {val: i64[]}
    %mul = call_function aten.mul.Tensor(%arg1_1, 0.5) {val: f32[3, 2]}
    %sin = call_function aten.sin.default(%arg1_1) {val: f32[3, 2]}
    %add_1 = call_function aten.add.Tensor(%mul, %sin) {val: f32[3, 2]}
    %output = output "output"((%add, %add_1))
}
`

// mapRows is map_rows' structure (../shared/pt2/map_rows.ep.txt).
const mapRows = `%p_w = placeholder "p_w"() {val: f32[4, 4]}
%xs = placeholder "xs"() {val: f32[6, 4]}
%y = placeholder "y"() {val: f32[4]}
%body_graph_0 = get_attr "body_graph_0"()
%map_impl = call_function higher_order.map_impl(%body_graph_0, [%xs], [%y, %p_w]) {val: (f32[6, 4],)}
%getitem = call_function operator.getitem(%map_impl, 0) {val: f32[6, 4]}
%output = output "output"((%getitem,))

subgraph body_graph_0 {
    %xs = placeholder "xs"() {val: f32[4]}
    %y = placeholder "y"() {val: f32[4]}
    %p_w = placeholder "p_w"() {val: f32[4, 4]}
    %matmul = call_function aten.matmul.default(%xs, %p_w) {val: f32[4]}
    %add = call_function aten.add.Tensor(%matmul, %y) {val: f32[4]}
    %tanh = call_function aten.tanh.default(%add) {val: f32[4]}
    %output = output "output"((%tanh,))
}
`

// subgraphTexts are the valid texts with subgraphs the tests and the
// fuzzer start from.
var subgraphTexts = map[string]string{"cond_nested": condNested, "while_count": whileCount, "map_rows": mapRows}

func parseSub(t testing.TB, text string) (*graph.Graph, []graph.Subgraph) {
	t.Helper()
	g, subs, err := graph.ParseWithSubgraphs(text, graph.WithResolver(fzResolver()))
	require.NoError(t, err)
	return g, subs
}

// equalTrees reports the first difference between two graphs with
// subgraphs.
func equalTrees(a, b *graph.Graph, as, bs []graph.Subgraph) error {
	if err := graph.Equal(a, b); err != nil {
		return err
	}
	if len(as) != len(bs) {
		return fmt.Errorf("%d subgraphs vs %d", len(as), len(bs))
	}
	for i := range as {
		if as[i].Name != bs[i].Name {
			return fmt.Errorf("subgraph %d: %s vs %s", i, as[i].Name, bs[i].Name)
		}
		if err := equalTrees(as[i].Graph, bs[i].Graph, as[i].Subgraphs, bs[i].Subgraphs); err != nil {
			return fmt.Errorf("subgraph %s: %w", as[i].Name, err)
		}
	}
	return nil
}

func TestTextWithSubgraphsRoundTrip(t *testing.T) {
	for name, text := range subgraphTexts {
		t.Run(name, func(t *testing.T) {
			g, subs := parseSub(t, text)
			// The texts are canonical: printing what was parsed gives them
			// back, and parsing that gives the same graphs.
			assert.Equal(t, text, g.TextWithSubgraphs(subs))
			g2, subs2 := parseSub(t, g.TextWithSubgraphs(subs))
			require.NoError(t, equalTrees(g, g2, subs, subs2))
			require.NoError(t, g.LintWithSubgraphs(subs))
		})
	}
	// Without subgraphs the text is Text's.
	g, _ := parseSub(t, "%x = placeholder \"x\"()\n%output = output \"output\"(%x)\n")
	assert.Equal(t, g.Text(), g.TextWithSubgraphs(nil))
}

func TestParseSubgraphStructure(t *testing.T) {
	g, subs := parseSub(t, condNested)
	require.Len(t, subs, 2)
	assert.Equal(t, "true_graph_0", subs[0].Name)
	assert.Equal(t, "false_graph_0", subs[1].Name)
	require.Len(t, subs[0].Subgraphs, 2)
	assert.Empty(t, subs[1].Subgraphs)
	assert.Equal(t, 10, g.Len())
	assert.Equal(t, 10, subs[0].Graph.Len())
	assert.Equal(t, 5, subs[0].Subgraphs[0].Graph.Len())
	assert.Equal(t, 7, subs[0].Subgraphs[1].Graph.Len())
	// Each section's nodes are its own: %x of the inner branch is not the
	// top graph's.
	x, _ := g.Node("x")
	ix, _ := subs[0].Subgraphs[0].Graph.Node("x")
	assert.NotSame(t, x, ix)
	assert.Equal(t, 2, ix.NumUsers())
	sg, ok := graph.FindSubgraph(subs, "false_graph_0")
	require.True(t, ok)
	assert.Equal(t, 5, sg.Graph.Len())
	_, ok = graph.FindSubgraph(subs, "body_graph_0")
	assert.False(t, ok)
	// graph.Parse refuses sections rather than dropping them.
	_, err := graph.Parse(condNested, graph.WithResolver(fzResolver()))
	var pe *graph.ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 12, pe.Line)
	assert.Contains(t, pe.Msg, "ParseWithSubgraphs")
}

func TestParseSubgraphErrors(t *testing.T) {
	const top = "%x = placeholder \"x\"()\n"
	for _, tc := range []struct {
		name      string
		text      string
		line, col int
		msg       string
	}{
		{"unclosed", top + "subgraph a {\n    %x = placeholder \"x\"()\n", 2, 1, "subgraph a is not closed"},
		{"stray brace", top + "}\n", 2, 1, "} without a subgraph section"},
		{"no name", top + "subgraph {\n}\n", 2, 10, "expected the subgraph's name"},
		{"empty name", top + "subgraph \"\" {\n}\n", 2, 10, "empty subgraph name"},
		{"no brace", top + "subgraph a\n}\n", 2, 11, `expected "{" after the subgraph's name`},
		{"after brace", top + "subgraph a { %y = placeholder \"y\"()\n}\n", 2, 14, "expected end of line after {"},
		{"after close", top + "subgraph a {\n} x\n", 3, 3, "expected end of line after }"},
		{"duplicate", top + "subgraph a {\n}\nsubgraph a {\n}\n", 4, 10, `a second subgraph called "a"`},
		{"node after section", top + "subgraph a {\n}\n%y = placeholder \"y\"()\n", 4, 1, "after a subgraph section"},
		{"outer node in section", top + "subgraph a {\n    %y = call_function f.g(%x)\n}\n", 3, 28, "undefined node %x"},
		{"too deep", top + strings.Repeat("subgraph a {\n", 201), 202, 1, "nested more than 200 deep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, subs, err := graph.ParseWithSubgraphs(tc.text, graph.WithResolver(fzResolver()))
			require.Error(t, err)
			assert.Nil(t, g)
			assert.Nil(t, subs)
			var pe *graph.ParseError
			require.True(t, errors.As(err, &pe), "%T", err)
			assert.Equal(t, tc.line, pe.Line, "%v", err)
			assert.Equal(t, tc.col, pe.Col, "%v", err)
			assert.Contains(t, pe.Msg, tc.msg)
		})
	}
}

// TestLintWithSubgraphs breaks the valid programs one way at a time (an
// edit of their text) and checks that the problem names the node, the
// operator, the branch or body and what differs.
func TestLintWithSubgraphs(t *testing.T) {
	for _, tc := range []struct {
		name, base, old, new string
		want                 []string
	}{
		{"dangling branch", condNested,
			`%false_graph_0 = get_attr "false_graph_0"()` + "\n%cond", `%false_graph_0 = get_attr "false_graph_9"()` + "\n%cond",
			[]string{"node %cond: cond: the false branch false_graph_9 (read by %false_graph_0) is not a subgraph of this graph (dangling reference; subgraphs: true_graph_0, false_graph_0)"}},
		{"branch not a graph", condNested,
			"higher_order.cond(%gt, %true_graph_0, %false_graph_0, [%x, %y]) {val: (f32[4, 5], f32[4, 5])}\n%getitem",
			"higher_order.cond(%gt, %x, %false_graph_0, [%x, %y]) {val: (f32[4, 5], f32[4, 5])}\n%getitem",
			[]string{"node %cond: cond: the true branch (argument 1) must be a get_attr node naming a subgraph, got x"}},
		{"operand count", condNested,
			"[%x, %y]) {val: (f32[4, 5], f32[4, 5])}\n%getitem", "[%x]) {val: (f32[4, 5], f32[4, 5])}\n%getitem",
			[]string{
				"node %cond: cond: the true branch true_graph_0 takes 2 inputs (x, y), but there are 1 operands",
				"node %cond: cond: the false branch false_graph_0 takes 2 inputs (x, y), but there are 1 operands",
			}},
		{"output count", condNested,
			`%output = output "output"((%relu, %relu_1))`, `%output = output "output"((%relu,))`,
			[]string{
				"node %cond: cond: the false branch false_graph_0 returns 1 values, the cond 2",
				"node %cond: cond: the true branch true_graph_0 returns 2 values, the false branch false_graph_0 1",
			}},
		{"branch dtype", condNested,
			`%relu_1 = call_function aten.relu.default(%y) {val: f32[4, 5]}`, `%relu_1 = call_function aten.relu.default(%y) {val: f64[4, 5]}`,
			[]string{"node %cond: cond: output 1 of the true branch true_graph_0 is f32[4, 5], of the false branch false_graph_0 f64[4, 5]"}},
		{"nested branch shape", condNested,
			`%mul = call_function aten.mul.Tensor(%x, %y) {val: f32[4, 5]}`, `%mul = call_function aten.mul.Tensor(%x, %y) {val: f32[5, 4]}`,
			[]string{
				"subgraph true_graph_0: node %cond: cond: output 1 of the true branch true_graph_0 is f32[5, 4], of the false branch false_graph_0 f32[4, 5]",
				"subgraph true_graph_0: node %cond: cond: output 1 of the true branch true_graph_0 is f32[5, 4], the cond's f32[4, 5]",
			}},
		{"predicate", condNested,
			`%gt = call_function aten.gt.Scalar(%mean, 0) {val: b8[]}` + "\n%true_graph_0", `%gt = call_function aten.gt.Scalar(%mean, 0) {val: b8[2]}` + "\n%true_graph_0",
			[]string{"node %cond: cond: the predicate gt is b8[2], not a bool scalar (b8[])"}},
		{"operand shape", condNested,
			`%y = placeholder "y"() {val: f32[4, 5]}` + "\n%mean = call_function aten.mean.default(%x)", `%y = placeholder "y"() {val: f32[4]}` + "\n%mean = call_function aten.mean.default(%x)",
			[]string{
				"node %cond: cond: input 1 of the true branch true_graph_0 (%y) is f32[4, 5], the argument y is f32[4]",
				"node %cond: cond: input 1 of the false branch false_graph_0 (%y) is f32[4, 5], the argument y is f32[4]",
			}},
		{"branch lint", condNested,
			`%output = output "output"((%relu, %relu_1))`, ``,
			[]string{
				"node %cond: cond: the false branch false_graph_0 returns 0 values, the cond 2",
				"node %cond: cond: the true branch true_graph_0 returns 2 values, the false branch false_graph_0 0",
				"subgraph false_graph_0: the graph has no output node",
			}},
		{"while carried dtype", whileCount,
			`%add = call_function aten.add.Tensor(%arg0_1, 1) {val: i64[]}`, `%add = call_function aten.add.Tensor(%arg0_1, 1) {val: f32[]}`,
			[]string{"node %while_loop: while_loop: output 0 of the body graph while_loop_body_graph_0 is f32[], carried input 0 (it) i64[]"}},
		{"while carried shape", whileCount,
			`%add_1 = call_function aten.add.Tensor(%mul, %sin) {val: f32[3, 2]}`, `%add_1 = call_function aten.add.Tensor(%mul, %sin) {val: f32[3, 3]}`,
			[]string{"node %while_loop: while_loop: output 1 of the body graph while_loop_body_graph_0 is f32[3, 3], carried input 1 (x) f32[3, 2]"}},
		{"while body count", whileCount,
			`%output = output "output"((%add, %add_1))`, `%output = output "output"((%add,))`,
			[]string{"node %while_loop: while_loop: the body graph while_loop_body_graph_0 returns 1 values for 2 carried inputs"}},
		{"while cond not bool", whileCount,
			`%lt = call_function aten.lt.Scalar(%arg0_1, 5) {val: b8[]}`, `%lt = call_function aten.lt.Scalar(%arg0_1, 5) {val: i64[]}`,
			[]string{"node %while_loop: while_loop: the cond graph while_loop_cond_graph_0 returns i64[], not a bool scalar (b8[])"}},
		{"while cond two outputs", whileCount,
			`%output = output "output"(%lt)`, `%output = output "output"((%lt, %lt))`,
			[]string{"node %while_loop: while_loop: the cond graph while_loop_cond_graph_0 returns 2 values, not one bool scalar"}},
		{"while cond inputs", whileCount,
			`%arg1_1 = placeholder "arg1_1"() {val: f32[3, 2]}` + "\n    %lt", "%lt",
			[]string{"node %while_loop: while_loop: the cond graph while_loop_cond_graph_0 takes 1 inputs (arg0_1), but there are 2 carried and additional inputs"}},
		{"while dangling body", whileCount,
			`%while_loop_body_graph_0 = get_attr "while_loop_body_graph_0"()`, `%while_loop_body_graph_0 = get_attr "body"()`,
			[]string{"node %while_loop: while_loop: the body graph body (read by %while_loop_body_graph_0) is not a subgraph of this graph (dangling reference; subgraphs: while_loop_cond_graph_0, while_loop_body_graph_0)"}},
		{"while arity", whileCount,
			", (%it, %x), ())", ", (%it, %x))",
			[]string{"node %while_loop: while_loop: takes (cond_graph, body_graph, carried_inputs, additional_inputs), got 3 arguments and 0 keyword arguments"}},
		{"map body inputs", mapRows,
			"[%xs], [%y, %p_w])", "[%xs], [%y])",
			[]string{"node %map_impl: map_impl: the body graph body_graph_0 takes 3 inputs (xs, y, p_w), but there are 2 mapped and extra inputs"}},
		{"map slice shape", mapRows,
			`%xs = placeholder "xs"() {val: f32[4]}`, `%xs = placeholder "xs"() {val: f32[6, 4]}`,
			[]string{"node %map_impl: map_impl: input 0 of the body graph body_graph_0 (%xs) is f32[6, 4], the argument xs is f32[4]"}},
		{"map leading sizes", mapRows,
			"[%xs], [%y, %p_w])", "[%xs, %p_w], [%y])",
			[]string{
				"node %map_impl: map_impl: mapped input 1 (p_w) has leading size 4, mapped input 0 6",
				"node %map_impl: map_impl: input 2 of the body graph body_graph_0 (%p_w) is f32[4, 4], the argument y is f32[4]",
			}},
		{"map output", mapRows,
			"{val: (f32[6, 4],)}", "{val: (f32[6, 5],)}",
			[]string{"node %map_impl: map_impl: output 0 of the body graph body_graph_0 is f32[4], so the map_impl's is f32[6, 4] with the leading size, not f32[6, 5]"}},
		{"map scalar xs", mapRows,
			`%xs = placeholder "xs"() {val: f32[6, 4]}`, `%xs = placeholder "xs"() {val: f32[]}`,
			[]string{
				"node %map_impl: map_impl: mapped input 0 (xs) is a scalar f32[], with no leading dim to map over",
				"node %map_impl: map_impl: input 0 of the body graph body_graph_0 (%xs) is f32[4], the argument xs is f32[]",
			}},
		{"map scalar output", mapRows,
			"{val: (f32[6, 4],)}", "{val: (f32[],)}",
			[]string{"node %map_impl: map_impl: output 0 of the map_impl is a scalar f32[], not the body's f32[4] stacked"}},
		{"valid", mapRows, "", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Contains(t, tc.base, tc.old)
			g, subs := parseSub(t, strings.Replace(tc.base, tc.old, tc.new, 1))
			err := g.LintWithSubgraphs(subs)
			if tc.want == nil {
				require.NoError(t, err)
				return
			}
			var le *graph.LintError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, tc.want, le.Problems)
		})
	}
}

func TestLintWithSubgraphsStructure(t *testing.T) {
	g, subs := parseSub(t, condNested)
	subs = append(subs, graph.Subgraph{Name: "true_graph_0", Graph: subs[0].Graph}, graph.Subgraph{Name: "nil_graph"})
	err := g.LintWithSubgraphs(subs)
	var le *graph.LintError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, []string{
		"two subgraphs are called true_graph_0",
		// The second true_graph_0 lacks the first one's subgraphs.
		"subgraph true_graph_0: node %cond: cond: the true branch true_graph_0 (read by %true_graph_0) is not a subgraph of this graph (dangling reference; subgraphs: none)",
		"subgraph true_graph_0: node %cond: cond: the false branch false_graph_0 (read by %false_graph_0) is not a subgraph of this graph (dangling reference; subgraphs: none)",
		"subgraph nil_graph: no graph",
	}, le.Problems)
}
