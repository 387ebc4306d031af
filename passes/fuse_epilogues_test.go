package passes_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/internal/passtest"
	"github.com/gofx/gofx/passes"
)

// TestFuseEpiloguesCases runs FuseEpilogues over the graph-text cases of
// testdata/epilogues (internal/passtest: input graph, output graph).
func TestFuseEpiloguesCases(t *testing.T) {
	passtest.Run(t, filepath.Join("testdata", "epilogues", "*.txtar"), func(testing.TB, *passtest.Case) passtest.Pass {
		return passes.FuseEpilogues.Apply
	})
}

// TestFuseEpiloguesRefusals checks that each chain of
// testdata/epilogues/default_ir_not_fused.txtar stays for the reason its
// comment gives: no rule fires at its activation, and the constraint of
// the rule whose pattern matches says why (the chains whose pattern does
// not match at all have no constraint line).
func TestFuseEpiloguesRefusals(t *testing.T) {
	c, err := passtest.Read(filepath.Join("testdata", "epilogues", "default_ir_not_fused.txtar"))
	require.NoError(t, err)
	gm := newGM(t, c.Input, nil, nil)
	set, err := passes.RuleSetOf(passes.FuseEpilogues, gm)
	require.NoError(t, err)
	for _, tc := range []struct{ at, why string }{
		{"relu", "the input has 3 dims, not 4"},
		{"relu_1", "the input's rank is unknown"},
		{"hardtanh", `padding "same" is asymmetric in spatial dim 0`},
		{"hardtanh_1", `padding "same" with stride [2 2]`},
		{"relu_2", "bias dtype float64 differs from the input's float32"},
		{"relu_3", ""}, // add_(res, conv): the pattern wants the convolution as self
		{"relu_4", "the residual is float64, the convolution float32"},
		{"relu_5", "does not broadcast to the convolution f32[1, 4, 8, 8] without growing it"},
		{"relu_6", ""},    // alpha 2
		{"hardtanh_", ""}, // the convolution is an output too
	} {
		n, ok := gm.Graph.Node(tc.at)
		require.True(t, ok, tc.at)
		text, err := set.Explain(gm, n)
		require.NoError(t, err)
		assert.NotContains(t, text, "fires:", tc.at)
		var constraints []string
		for _, line := range strings.Split(text, "\n") {
			if _, why, ok := strings.Cut(line, "; constraint: "); ok {
				constraints = append(constraints, why)
			}
		}
		if tc.why == "" {
			assert.Empty(t, constraints, tc.at)
			continue
		}
		if assert.Len(t, constraints, 1, tc.at) {
			assert.Contains(t, constraints[0], tc.why, tc.at)
		}
	}
}

// TestFuseEpiloguesInBranches: PyTorch 2.x default-IR chains fuse inside
// a while_loop's body and a cond's branches (nested in the body), each
// graph on its own, with the graphs around them unchanged.
func TestFuseEpiloguesInBranches(t *testing.T) {
	main := `%it = placeholder "it"() {val: i64[]}
%x = placeholder "x"() {val: f32[1, 4, 8, 8]}
%w = placeholder "w"() {val: f32[4, 4, 3, 3]}
%cond_graph = get_attr "while_loop_cond_graph_0"()
%body_graph = get_attr "while_loop_body_graph_0"()
%while_loop = call_function higher_order.while_loop(%cond_graph, %body_graph, (%it, %x), (%w,))
%getitem = call_function operator.getitem(%while_loop, 1)
%output = output "output"((%getitem,))
`
	cond := `%arg0_1 = placeholder "arg0_1"() {val: i64[]}
%arg1_1 = placeholder "arg1_1"() {val: f32[1, 4, 8, 8]}
%arg2_1 = placeholder "arg2_1"() {val: f32[4, 4, 3, 3]}
%lt = call_function aten.lt.Scalar(%arg0_1, 3)
%output = output "output"(%lt)
`
	body := func(inner, act string) string {
		return `%arg0_1 = placeholder "arg0_1"() {val: i64[]}
%arg1_1 = placeholder "arg1_1"() {val: f32[1, 4, 8, 8]}
%arg2_1 = placeholder "arg2_1"() {val: f32[4, 4, 3, 3]}
%add = call_function aten.add.Tensor(%arg0_1, 1) {val: i64[]}
` + inner + `%gt = call_function aten.gt.Scalar(%arg0_1, 0)
%true_graph_0 = get_attr "true_graph_0"()
%false_graph_0 = get_attr "false_graph_0"()
%cond = call_function higher_order.cond(%gt, %true_graph_0, %false_graph_0, [%` + act + `, %arg2_1])
%getitem = call_function operator.getitem(%cond, 0)
%output = output "output"((%add, %getitem))
`
	}
	branch := func(act string) string {
		return `%x = placeholder "x"() {val: f32[1, 4, 8, 8]}
%w = placeholder "w"() {val: f32[4, 4, 3, 3]}
%conv2d = call_function aten.conv2d.default(%x, %w, None, [1, 1], [1, 1]) {val: f32[1, 4, 8, 8]}
` + act + `%output = output "output"((%out,))
`
	}
	c := hopCase{
		name: "default IR in while_loop and cond",
		pass: passes.FuseEpilogues,
		main: main,
		subs: map[string]string{
			"while_loop_cond_graph_0": cond,
			"while_loop_body_graph_0": body(`%conv2d = call_function aten.conv2d.default(%arg1_1, %arg2_1, None, [1, 1], [1, 1]) {val: f32[1, 4, 8, 8]}
%hardtanh_ = call_function aten.hardtanh_.default(%conv2d, 0.0, 6.0) {val: f32[1, 4, 8, 8]}
`, "hardtanh_"),
			"while_loop_body_graph_0/true_graph_0":  branch("%out = call_function aten.relu_.default(%conv2d) {val: f32[1, 4, 8, 8]}\n"),
			"while_loop_body_graph_0/false_graph_0": branch("%add = call_function aten.add_.Tensor(%conv2d, %x) {val: f32[1, 4, 8, 8]}\n%out = call_function aten.relu.default(%add) {val: f32[1, 4, 8, 8]}\n"),
		},
		want: main,
		wsubs: map[string]string{
			"while_loop_cond_graph_0": cond,
			"while_loop_body_graph_0": body(`%convolution_hardtanh = call_function gofx.convolution_hardtanh.default(%arg1_1, %arg2_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1, 0.0, 6.0) {val: f32[1, 4, 8, 8]}
`, "convolution_hardtanh"),
			"while_loop_body_graph_0/true_graph_0": `%x = placeholder "x"() {val: f32[1, 4, 8, 8]}
%w = placeholder "w"() {val: f32[4, 4, 3, 3]}
%convolution_relu = call_function gofx.convolution_relu.default(%x, %w, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1) {val: f32[1, 4, 8, 8]}
%output = output "output"((%convolution_relu,))
`,
			"while_loop_body_graph_0/false_graph_0": `%x = placeholder "x"() {val: f32[1, 4, 8, 8]}
%w = placeholder "w"() {val: f32[4, 4, 3, 3]}
%convolution_add_relu = call_function gofx.convolution_add_relu.default(%x, %w, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1, %x) {val: f32[1, 4, 8, 8]}
%output = output "output"((%convolution_add_relu,))
`,
		},
	}
	gm := buildHOP(t, c)
	changed, err := c.pass.Apply(gm)
	require.NoError(t, err)
	assert.True(t, changed)
	require.NoError(t, gm.Lint())
	assert.Equal(t, c.want, gm.Graph.Text(), "the program's graph")
	for name, want := range c.wsubs {
		assert.Equal(t, want, subText(t, gm, name), "subgraph %s", name)
	}
}
