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

// The .pt2 files of these tests are PyTorch 2.6's (copies of ../shared/pt2
// in pt2/testdata).
const pt2Data = "../../pt2/testdata/"

func TestCheckFile(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"flags after the file", []string{"check", pt2Data + "tied_dict.pt2", "-io", pt2Data + "tied_dict.io.json", "-via", "load,roundtrip"},
			0, []string{"load       case 0 (example): ok", "roundtrip  case 2", "6 passed, 0 failed"}},
		{"flags before the file", []string{"check", "-via", "load", "-io", pt2Data + "mutations.io.json", pt2Data + "mutations.pt2"},
			0, []string{"load       case 0 (example): ok", "2 passed, 0 failed"}},
		{"another program's cases fail", []string{"check", "-via", "load", "-io", pt2Data + "mutations.io.json", pt2Data + "kwargs_scalars.pt2"},
			1, []string{"FAIL", "0 passed, 2 failed"}},
		{"cond on data", []string{"check", "-io", pt2Data + "hop/cond_data.io.json", "-via", "load", pt2Data + "hop/cond_data.pt2"},
			0, []string{"load       case 0 (example): ok", "5 passed, 0 failed"}},
		{"cond on a dynamic size (2.14)", []string{"check", "-io", pt2Data + "hop/torch-2.14/cond_shape.io.json", "-via", "load", pt2Data + "hop/torch-2.14/cond_shape.pt2"},
			0, []string{"case 3 (dynamic size 8): ok", "4 passed, 0 failed"}},
		{"nested cond", []string{"check", "-io", pt2Data + "hop/cond_nested.io.json", "-via", "load", pt2Data + "hop/cond_nested.pt2"},
			0, []string{"5 passed, 0 failed"}},
		{"cond with lifted parameters", []string{"check", "-io", pt2Data + "hop/cond_params.io.json", "-via", "load", pt2Data + "hop/cond_params.pt2"},
			0, []string{"4 passed, 0 failed"}},
		{"map_impl", []string{"check", "-io", pt2Data + "hop/map_rows.io.json", "-via", "load", pt2Data + "hop/map_rows.pt2"},
			0, []string{"2 passed, 0 failed"}},
		{"while_loop 2.6 cannot run", []string{"check", "-io", pt2Data + "hop/while_count.io.json", "-via", "load", pt2Data + "hop/while_count.pt2"},
			0, []string{"3 passed, 0 failed"}},
		{"while_loop to convergence (2.14)", []string{"check", "-io", pt2Data + "hop/torch-2.14/while_converge.io.json", "-via", "load", pt2Data + "hop/torch-2.14/while_converge.pt2"},
			0, []string{"3 passed, 0 failed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLI(tt.args...)
			assert.Equal(t, tt.code, code, "%s\n%s", out, errs)
			for _, w := range tt.want {
				assert.Contains(t, out, w)
			}
		})
	}
}

func TestFileUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"check", pt2Data + "tied_dict.pt2"}, "-io IO.json is required"},
		{[]string{"check", "-io", "x.json", "-model", "mlp", pt2Data + "tied_dict.pt2"}, "-model and -weights are for zoo models"},
		{[]string{"check", "-io", pt2Data + "tied_dict.io.json", "-via", "trace", pt2Data + "tied_dict.pt2"}, `unknown pipeline "trace"`},
		{[]string{"inspect", "a.pt2", "b.pt2"}, "want one .pt2 file"},
		{[]string{"optimize", "-o", "x.pt2"}, "-o writes an optimized .pt2 file"},
		{[]string{"export", "-model", "mlp", "-shape", "2x16", "-o", "x.pt2", "-format", "zip"}, "-format must be legacy or archive"},
	}
	for _, tt := range tests {
		code, _, errs := runCLI(tt.args...)
		assert.Equal(t, 2, code, "%v: %s", tt.args, errs)
		assert.Contains(t, errs, tt.want, "%v", tt.args)
	}
	code, _, errs := runCLI("inspect", "no-such-file.pt2")
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "no-such-file.pt2")
}

func TestInspectFile(t *testing.T) {
	code, out, errs := runCLI("inspect", pt2Data+"tied_dict.pt2")
	require.Equal(t, 0, code, errs)
	ep, err := pt2.Load(pt2Data + "tied_dict.pt2")
	require.NoError(t, err)
	assert.Equal(t, ep.String(), out, "gofx inspect prints the program as ExportedProgram.String does")
	assert.Contains(t, out, "Graph signature:")
}

func TestOptimizeFileWritesProgram(t *testing.T) {
	out := filepath.Join(t.TempDir(), "opt.pt2")
	code, stdout, errs := runCLI("optimize", pt2Data+"tied_dict.pt2", "-io", pt2Data+"tied_dict.io.json", "-o", out, "-time", "0", "-graph=false")
	require.Equal(t, 0, code, "%s\n%s", stdout, errs)
	for _, w := range []string{"== passes", "== outputs", "case 0 (the file's example inputs): max |optimized - loaded|", "max |optimized - PyTorch|", "unchanged within", "wrote " + out} {
		assert.Contains(t, stdout, w)
	}
	// The written program passes PyTorch's cases.
	code, stdout, errs = runCLI("check", "-via", "load", "-io", pt2Data+"tied_dict.io.json", out)
	assert.Equal(t, 0, code, "%s\n%s", stdout, errs)
	assert.Contains(t, stdout, "3 passed, 0 failed")
	// It carries the file's example inputs: optimize needs no -io.
	code, stdout, errs = runCLI("optimize", out, "-time", "0", "-graph=false")
	assert.Equal(t, 0, code, "%s\n%s", stdout, errs)
	assert.Contains(t, stdout, "case 0 (the file's example inputs)")
}

func TestExportWritesProgram(t *testing.T) {
	out := filepath.Join(t.TempDir(), "mlp.pt2")
	for _, format := range []string{"legacy", "archive"} {
		code, stdout, errs := runCLI("export", "-model", "mlp", "-shape", "4x16", "-o", out, "-format", format)
		require.Equal(t, 0, code, "%s\n%s", stdout, errs)
		assert.True(t, strings.HasPrefix(stdout, "wrote "+out+" ("+format+" container"), stdout)
		code, stdout, errs = runCLI("inspect", out)
		require.Equal(t, 0, code, errs)
		assert.Contains(t, stdout, "USER_INPUT")
		_, err := os.Stat(out)
		require.NoError(t, err)
	}
}

// TestOptimizeSharedConvnet is the main job on a real file: PyTorch 2.6's
// convnet.pt2 (default export IR: conv2d and batch_norm), its batch norms
// folded, its outputs PyTorch's.
func TestOptimizeSharedConvnet(t *testing.T) {
	file, io := "../../../shared/pt2/convnet.pt2", "../../../shared/pt2/convnet.io.json"
	if _, err := os.Stat(file); err != nil {
		t.Skipf("%s is absent (../shared/pt2 beside the repo)", file)
	}
	code, out, errs := runCLI("optimize", file, "-io", io, "-time", "0", "-graph=false")
	require.Equal(t, 0, code, "%s\n%s", out, errs)
	assert.Regexp(t, `aten\.batch_norm\.default +2 -> +0  \*`, out)
	assert.Contains(t, out, "max |optimized - PyTorch|")
	assert.Contains(t, out, "unchanged within 0.0001 on 5 case(s)")
}
