package pt2_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

// fusedProgram exports a small convnet (conv → relu, conv → relu6,
// flatten, linear → relu) and fuses its epilogues.
func fusedProgram(t *testing.T) (fused *export.ExportedProgram, x *tensor.Tensor) {
	t.Helper()
	m := nn.Eval(nn.NewSequential(nn.NewConv2d(3, 4, 3), nn.NewReLU(), nn.NewConv2d(4, 4, 3), nn.NewReLU6(),
		nn.NewFlatten(1, -1), nn.NewLinear(4*4*4, 5, true), nn.NewReLU()))
	x, err := nn.Uniform(1, 2, 3, 8, 8)
	require.NoError(t, err)
	ep, err := export.Export(m, []any{x}, nil)
	require.NoError(t, err)
	fused, err = ep.Transform(passes.NewManager(passes.Default()...))
	require.NoError(t, err)
	return fused, x
}

// gofxOps counts the program's calls of gofx's operators.
func gofxOps(ep *export.ExportedProgram) map[string]int {
	out := map[string]int{}
	for n := range ep.Graph.Nodes() {
		if s := n.Target().String(); strings.HasPrefix(s, "gofx.") {
			out[s]++
		}
	}
	return out
}

// TestSaveFusedOps: a program calling gofx's fused operators is written
// decomposed with ForPyTorch (core ATen that PyTorch runs) and as it is
// by default (torch.ops.gofx.NAME.default targets, which Load reads back
// to the same operators); both give the fused program's outputs.
func TestSaveFusedOps(t *testing.T) {
	fused, x := fusedProgram(t)
	require.Equal(t, map[string]int{"gofx.convolution_relu.default": 1, "gofx.convolution_hardtanh.default": 1, "gofx.addmm_relu.default": 1}, gofxOps(fused))
	want, err := fused.Run(x)
	require.NoError(t, err)
	for _, f := range []pt2.Format{pt2.Legacy, pt2.Archive} {
		for _, keep := range []bool{false, true} {
			var buf bytes.Buffer
			require.NoError(t, pt2.Save(&buf, fused, pt2.SaveOptions{Format: f, ForPyTorch: !keep}))
			assert.Equal(t, keep, bytes.Contains(buf.Bytes(), []byte(`"torch.ops.gofx.convolution_relu.default"`)), "%v keep=%v", f, keep)
			back, err := pt2.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			require.NoError(t, err)
			if keep {
				assert.Equal(t, gofxOps(fused), gofxOps(back))
			} else {
				assert.Empty(t, gofxOps(back))
				require.NoError(t, decomp.Verify(back.Graph))
			}
			got, err := back.Run(x)
			require.NoError(t, err)
			assert.True(t, tensor.AllClose(got.Tensor(), want.Tensor(), 1e-5, 1e-5, false), "%v keep=%v", f, keep)
		}
	}
}

// TestTorchLoadsFusedSave: PyTorch 2.6 loads and runs the file Save
// writes from a fused program with ForPyTorch (decomposed) to the same
// outputs.
func TestTorchLoadsFusedSave(t *testing.T) {
	cmd := torch2(t, "")
	fused, x := fusedProgram(t)
	want, err := fused.Run(x)
	require.NoError(t, err)
	dir := t.TempDir()
	path := filepath.Join(dir, "fused.pt2")
	require.NoError(t, pt2.Write(path, fused, pt2.SaveOptions{ExampleArgs: []any{x}, ForPyTorch: true}))
	wantPath := filepath.Join(dir, "want.pt")
	sd := torchio.NewStateDict()
	sd.Set("y", want.Tensor())
	require.NoError(t, torchio.Save(wantPath, sd))
	script := `
import sys, torch
ep = torch.export.load(sys.argv[1])
args, kwargs = ep.example_inputs
y = ep.module()(*args, **kwargs)
want = torch.load(sys.argv[2])["y"]
print("maxdiff", (y - want).abs().max().item())
`
	cmd.Args = append(cmd.Args, "-c", script, path, wantPath)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "PyTorch: %s", out)
	var diff float64
	_, err = fmt.Sscanf(string(out[bytes.LastIndex(out, []byte("maxdiff")):]), "maxdiff %g", &diff)
	require.NoError(t, err, "%s", out)
	assert.LessOrEqual(t, diff, 1e-5, "%s", out)
}
