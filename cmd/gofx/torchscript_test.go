package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/pt2"
)

// testdata/torchscript holds archives and io.json files of
// ../shared/torchscript (PyTorch 2.6) and counter.pt of
// torchscript/convert/testdata (an attribute write: not functional).
const tsDir = "testdata/torchscript/"

func TestTorchScriptDispatch(t *testing.T) {
	for file, want := range map[string]bool{
		tsDir + "max_branch.script.pt":            true,
		tsDir + "mlp.trace.pt":                    true,
		"../../pt2/testdata/custom_op.pt2":        false,
		tsDir + "mlp.io.json":                     false,
		"../../testdata/models/mlp.state_dict.pt": false,
		// PyTorch 1.0-1.2's format: model.json, no data.pkl.
		"../../torchscript/archive/testdata/legacy/legacy.pt": true,
	} {
		got, err := isTorchScript(file)
		require.NoError(t, err, file)
		assert.Equal(t, want, got, file)
	}
	// The records decide, not the extension.
	renamed := filepath.Join(t.TempDir(), "model.pt2")
	data, err := os.ReadFile(tsDir + "max_branch.script.pt")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(renamed, data, 0o644))
	code, out, errs := runCLI("inspect", renamed)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "TorchScript archive")
}

func TestTorchScriptInspect(t *testing.T) {
	code, out, errs := runCLI("inspect", tsDir+"max_branch.script.pt")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "root module __torch__.MaxBranch")
	// forward's code as PyTorch 2.6 printed m.code for the same archive
	ref, err := os.ReadFile(tsDir + "max_branch.script.code.txt")
	require.NoError(t, err)
	_, after, ok := strings.Cut(string(ref), "# code\n")
	require.True(t, ok)
	want, _, ok := strings.Cut(after, "\n# graph")
	require.True(t, ok)
	assert.Contains(t, out, "## code: forward\n"+want)
	assert.Contains(t, out, "## graph: forward\ngraph(%self : __torch__.MaxBranch,")
	// as PyTorch 2.6 prints it (../shared/torchscript/max_branch.script.code.txt)
	assert.Contains(t, out, "%r : Tensor = prim::If(%10) # gen_pt2.py:716:8")
}

func TestTorchScriptCheck(t *testing.T) {
	code, out, errs := runCLI("check", "-io", tsDir+"max_branch.io.json", tsDir+"max_branch.script.pt")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "export case 4: ok")
	assert.True(t, strings.HasSuffix(out, "15 passed, 0 failed\n"), out)

	// An int input is specialized: each case is converted with its own.
	code, out, errs = runCLI("check", "-io", tsDir+"loop_if.io.json", "-via", "export,optimized", tsDir+"loop_if.script.pt")
	require.Equal(t, 0, code, errs)
	assert.True(t, strings.HasSuffix(out, "8 passed, 0 failed\n"), out)

	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"-io", tsDir + "mlp.io.json", "-via", "load", tsDir + "max_branch.script.pt"}, 1, []string{"load case 0: FAIL", "0 passed, 3 failed"}},
		{[]string{"-io", tsDir + "max_branch.io.json", "-via", "roundtrip", tsDir + "max_branch.script.pt"}, 2, []string{`unknown pipeline "roundtrip" for a TorchScript archive`}},
		{[]string{tsDir + "max_branch.script.pt"}, 2, []string{"-io IO.json is required"}},
		{[]string{"-io", tsDir + "mlp.io.json", "-via", "export", tsDir + "counter.pt"}, 1, []string{
			"export case 0: FAIL: convert: " + tsDir + "counter.pt: prim::SetAttr at code/__torch__.py:", "writes the attribute calls", "not functional"}},
	} {
		code, out, errs := runCLI(append([]string{"check"}, tc.args...)...)
		assert.Equal(t, tc.code, code, "%v: %s%s", tc.args, out, errs)
		for _, w := range tc.want {
			assert.Contains(t, out+errs, w, "%v", tc.args)
		}
	}
}

func TestTorchScriptOptimize(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "mlp.pt2")
	code, out, errs := runCLI("optimize", "-o", dst, tsDir+"mlp.trace.pt")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "converted to an ExportedProgram")
	assert.Contains(t, out, "case 2: max |optimized - PyTorch|")
	assert.Contains(t, out, "wrote "+dst)
	// The .pt2 reads back and runs to PyTorch's outputs.
	ep, err := pt2.Load(dst)
	require.NoError(t, err)
	io, err := pt2.ReadIO(tsDir + "mlp.io.json")
	require.NoError(t, err)
	for i := range io.Cases {
		assert.NoError(t, pt2.CheckCase(ep, &io.Cases[i], 1e-4).Err, "case %d", i)
	}
	// The io.json beside the archive is the default.
	code, _, errs = runCLI("optimize", "-graph=false", tsDir+"mlp.trace.pt")
	require.Equal(t, 0, code, errs)

	code, _, errs = runCLI("optimize", tsDir+"counter.pt")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "holds no example inputs: give -io")
}

func TestTorchScriptDraw(t *testing.T) {
	code, out, errs := runCLI("draw", tsDir+"max_branch.script.pt")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, `digraph "max_branch.script.pt"`)
	assert.Contains(t, out, "cond")
	assert.Contains(t, out, "true_graph_0")
}
