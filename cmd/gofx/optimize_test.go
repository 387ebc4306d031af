package main

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOptimizeDefault runs the main job with no model: the embedded
// convnet, whose two batch norms fold into the convolutions and whose
// linear weight transpose folds into a constant, with outputs unchanged.
func TestOptimizeDefault(t *testing.T) {
	code, out, errs := runCLI("optimize", "-time", "20ms")
	require.Equal(t, 0, code, errs)
	for _, want := range []string{
		`(?m)^== convnet: embedded weights and inputs`,
		`(?m)^exported to core ATen in .*: 33 nodes$`,
		`(?m)^fold_conv_bn +yes +33 → 19 `,
		`(?m)^fuse_epilogues +yes +19 → 17 `,
		`(?m)^fold_constants +yes +17 → 16 `,
		`(?m)^total +yes +33 → 16 `,
		`(?m)^aten\._native_batch_norm_legit_no_training\.default +2 -> +0  \*$`,
		`(?m)^aten\.permute\.default +1 -> +0  \*$`,
		`(?m)^aten\.convolution\.default +2 -> +0  \*$`,
		`(?m)^gofx\.convolution_relu\.default +0 -> +2  \*$`,
		`(?m)^placeholder +17 -> +7  \*$`,
		`(?m)^def forward\(self, p_conv1_weight, p_conv1_bias, p_conv2_weight, p_conv2_bias, p_fc_bias, c__folded_constant_0, x\):$`,
		`(?m)^case 2: max \|optimized - exported\| = \S+, max \|optimized - PyTorch\| = \S+$`,
		`(?m)^unchanged within 0.0001 on 3 case\(s\)$`,
		`(?m)^speed-up: +\d+\.\d\dx$`,
	} {
		assert.Regexp(t, regexp.MustCompile(want), out)
	}
	assert.NotContains(t, out, "batch_norm.default(", "the optimized graph still has a batch norm")
}

// TestOptimizeModel optimizes zoo models from their files: the io.json is
// found beside the weights.
func TestOptimizeModel(t *testing.T) {
	code, out, errs := runCLI("optimize", "-model", "attention", "-weights", zoo+"attention.state_dict.pt", "-time", "0", "-graph=false")
	require.Equal(t, 0, code, out+errs)
	assert.Contains(t, out, "inputs from "+zoo+"attention.io.json")
	assert.Contains(t, out, "unchanged within")
	assert.NotContains(t, out, "def forward")
	assert.NotContains(t, out, "== speed")

	code, out, errs = runCLI("optimize", "-model", "mlp", "-io", zoo+"mlp.io.json", "-time", "0")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "fresh weights, inputs from ")
}

func TestOptimizeBadArgs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-weights", "x.pt"}, 2, "-weights and -io need -model"},
		{[]string{"-model", "mlp"}, 2, "no inputs for mlp: give -io"},
		{[]string{"-model", "nope", "-io", zoo + "mlp.io.json"}, 1, `no model "nope"`},
		{[]string{"-model", "convnet", "-io", zoo + "mlp.io.json"}, 1, "export: "},
		{[]string{"-model", "mlp", "-weights", zoo + "mlp.io.json"}, 1, "zip"},
		{[]string{"-time", "-1s"}, 2, "-time must not be negative"},
		{[]string{"a.pt2", "b.pt2"}, 2, "want one .pt2 file"},
	} {
		code, out, errs := runCLI(append([]string{"optimize"}, tc.args...)...)
		assert.Equal(t, tc.code, code, "%v: %s%s", tc.args, out, errs)
		assert.Contains(t, out+errs, tc.want, "%v", tc.args)
	}
}

// TestOptimizeEmbedded checks the embedded default model is the zoo's
// convnet as PyTorch saved it.
func TestOptimizeEmbedded(t *testing.T) {
	for name, got := range map[string][]byte{"convnet.state_dict.pt": defaultWeights, "convnet.io.json": defaultIO} {
		want, err := os.ReadFile(zoo + name)
		require.NoError(t, err)
		assert.Equal(t, want, got, "cmd/gofx/embedded/%s differs from testdata/models/%s", name, name)
	}
}
