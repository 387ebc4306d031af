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
