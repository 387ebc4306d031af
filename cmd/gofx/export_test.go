package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExportDynamicAuto: -dynamic auto makes every dim dynamic unless the
// model specializes it, as torch.export's Dim.AUTO: PyTorch 2.6 exports
// Sequential(Linear(16, 32), ReLU(), Linear(32, 10)) on a [4, 16] input
// with both dims AUTO as f32[s0, 16], s0 in [2, int_oo]. The
// specialization is reported on stderr.
func TestExportDynamicAuto(t *testing.T) {
	code, out, errs := runCLI("export", "-model", "mlp", "-shape", "4x16", "-dynamic", "auto")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, `input: "f32[s0, 16]"`)
	assert.Contains(t, out, "Range constraints: {s0: VR[2, int_oo]}")
	assert.Contains(t, errs, "gofx export: dynamic dims: input.shape[1]: static: specialized to 16 (guard Eq(input.shape[1], 16) at ")

	code, _, errs = runCLI("export", "-model", "mlp", "-shape", "4x16", "-dynamic", "input:0=auto")
	require.Equal(t, 0, code, errs)
	assert.Empty(t, errs)
}
