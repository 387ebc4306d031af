package passes_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/rewrite"
	"github.com/gofx/gofx/tensor"
)

// TestRuleSetOfExplain: the fold's rule set says why a linear layer and
// batch norm do not fold: the constraint's reason (addmm's beta, the
// permutation), or the pattern's (the layer's output escapes the match).
func TestRuleSetOfExplain(t *testing.T) {
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"folds", "", "", "rule addmm_bn_no_training (benefit 0): fires: pattern addmm_bn_no_training at %bn"},
		{"beta 2", "%x, %t)", "%x, %t, beta=2)", "constraint: addmm with beta 2 and alpha 1, not 1"},
		{"permutation", "[1, 0]", "[0, 1]", "constraint: the weight's permutation is [0, 1], not [1, 0]"},
		{"bias not state", "%lin = call_function aten.addmm.default(%b,", "%nb = call_function aten.neg.default(%b)\n%lin = call_function aten.addmm.default(%nb,", "constraint: b is %nb, which reads no state"},
		{"two users", "%output = output \"output\"(%y)", "%output = output \"output\"((%y, %lin))", "does not fire: no match of pattern addmm_bn_no_training at %bn"},
		{"getitem 1", "%output = output \"output\"(%y)", "%z = call_function operator.getitem(%bn, 1)\n%output = output \"output\"((%y, %z))", "constraint: %z uses the batch norm's tuple other than as getitem 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(linearBNGraph, tc.old, tc.new, 1)
			attrs := map[string]*tensor.Tensor{}
			for name, shape := range map[string][]int{"w": {6, 6}, "b": {6}, "g": {6}, "be": {6}, "m": {6}, "v": {6}} {
				attrs[name] = ramp(t, shape...)
			}
			gm := newGM(t, text, attrs, nil)
			set, err := passes.RuleSetOf(passes.FoldLinearBN, gm)
			require.NoError(t, err)
			bn, ok := gm.Graph.Node("bn")
			require.True(t, ok)
			got, err := set.Explain(gm, bn)
			require.NoError(t, err)
			assert.Contains(t, got, tc.want)
			// The mm rules do not match an addmm.
			assert.Contains(t, got, "rule mm_bn_no_training (benefit 0): does not fire: no match")
		})
	}
	_, err := passes.RuleSetOf(passes.DCE, nil)
	assert.ErrorContains(t, err, `pass "dce" is not a rule set`)
	_, err = passes.RuleSetOf(passes.FoldConvBN, nil)
	assert.ErrorContains(t, err, "nil GraphModule")
	for _, p := range []passes.Pass{passes.RemoveDropout, passes.FuseConvBN, passes.FuseLinearBN} {
		set, err := passes.RuleSetOf(p, nil)
		require.NoError(t, err)
		assert.Equal(t, p.Name, set.Name())
	}
}

// TestFuseExplain: the module-level fusion says why a pair does not fuse.
func TestFuseExplain(t *testing.T) {
	nn.ManualSeed(0)
	p := newPair(t, nn.NewConv2d(3, 4, 3), nn.NewBatchNorm2d(4), false)
	nn.Train(p.BN, true)
	gm, err := fx.SymbolicTrace(p)
	require.NoError(t, err)
	set, err := passes.RuleSetOf(passes.FuseConvBN, nil)
	require.NoError(t, err)
	bn := gm.Graph.FindNodes(node.CallModule, node.Path("bn"))[0]
	got, err := set.Explain(gm, bn)
	require.NoError(t, err)
	assert.Contains(t, got, "rule conv2d_bn2d (benefit 0): does not fire: pattern conv2d_bn2d at %bn: layer=%layer, bn=%bn; x=%x; constraint: the batch norm is in training mode")
	assert.Contains(t, got, "rule conv1d_bn1d (benefit 0): does not fire: no match")
}

// TestFromRules: a rule set made a pass runs in a Manager like any pass.
func TestFromRules(t *testing.T) {
	set, err := rewrite.NewRuleSet("neg_neg", rewrite.Rule{
		Name:        "neg_neg",
		Pattern:     func(x nn.Value) nn.Value { return x.Neg().Neg() },
		Replacement: func(x nn.Value) nn.Value { return x },
	})
	require.NoError(t, err)
	gm := newGM(t, `%x = placeholder "x"()
%a = call_function aten.neg.default(%x)
%b = call_function aten.neg.default(%a)
%c = call_function aten.relu.default(%b)
%output = output "output"(%c)`, nil, nil)
	rep, err := passes.Run(gm, passes.FromRules("neg_neg", "-(-x) is x", set))
	require.NoError(t, err)
	assert.Contains(t, rep.String(), "neg_neg")
	requireGraph(t, gm, `%x = placeholder "x"()
%c = call_function aten.relu.default(%x)
%output = output "output"(%c)`)
	_, err = passes.FromRules("none", "", nil).Apply(gm)
	assert.ErrorContains(t, err, "nil rule set")
}
