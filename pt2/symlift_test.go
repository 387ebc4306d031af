package pt2_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
)

// TestSymLiftPrograms loads PyTorch 2.14's exports of branches and bodies
// that close over an outer symbolic size n = x.shape[0], lifted as an
// operand (testdata/symlift, made by export/testdata/symlift/gen.py), runs
// them at a size other than the example's, and writes them back: the
// cond's operands, a size and a tensor, are written as 2.14 writes them
// (as_tensors naming both) and the reloaded program computes the same.
func TestSymLiftPrograms(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	neg := tensor.Must(tensor.FromSlice([]float32{-1, -2, -3, -4, -5, -6}, 2, 3))
	for _, tc := range []struct {
		name string
		args []any
		want []float64 // computed by hand: n = 2
	}{
		{"cond_add", []any{x}, []float64{3, 4, 5, 6, 7, 8}},         // sum > 0: x + n
		{"cond_add", []any{neg}, []float64{-3, -4, -5, -6, -7, -8}}, // x - n
		{"cond_view", []any{x}, []float64{2, 3, 4, 5, 6, 7}},        // x.reshape(n, -1) + 1
		{"cond_view", []any{neg}, []float64{-2, -4, -6, -8, -10, -12}},
		{"while_add", []any{tensor.Scalar(int64(0)), x}, []float64{7, 8, 9, 10, 11, 12}}, // three times x + n
		{"map_add", []any{tensor.Must(x.Reshape(2, 1, 3))}, []float64{2, 3, 4, 5, 6, 7}}, // n = xs.shape[1] = 1
	} {
		t.Run(tc.name, func(t *testing.T) {
			ep, err := pt2.Load(filepath.Join("testdata", "symlift", tc.name+".pt2"))
			require.NoError(t, err)
			var buf bytes.Buffer
			require.NoError(t, pt2.Save(&buf, ep, pt2.SaveOptions{}))
			back, err := pt2.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			require.NoError(t, err)
			for i, p := range []*export.ExportedProgram{ep, back} {
				out, err := p.Run(tc.args...)
				require.NoError(t, err, "program %d", i)
				if out.IsTuple() {
					out = out.Tuple()[len(out.Tuple())-1]
				}
				assert.Equal(t, tc.want, out.MustTensor().Float64s(), "program %d (0: loaded, 1: written back)", i)
			}
		})
	}
}

// symliftRun is run by PyTorch 2.14 in TestTorchRunsSymLift: it loads
// each .pt2 and prints the last output's values, flattened.
const symliftRun = `import sys, torch
for path in sys.argv[1:]:
    ep = torch.export.load(path)
    x = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
    name = path.rsplit("/", 1)[-1][:-4]
    args = {"while_add": (torch.tensor(0), x), "map_add": (x.reshape(2, 1, 3),)}.get(name, (x,))
    out = ep.module()(*args)
    if isinstance(out, (tuple, list)):
        out = out[-1]
    print(name, " ".join(repr(v) for v in out.flatten().tolist()))
`

// TestTorchRunsSymLift writes the four programs back in 2.14's archive
// format and has PyTorch 2.14 load and run them (2.6 cannot: it refuses
// to export such programs and to load a cond whose operands hold a size).
func TestTorchRunsSymLift(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PyTorch")
	}
	cmd := torch2(t, "sid")
	dir := t.TempDir()
	script := filepath.Join(dir, "run.py")
	require.NoError(t, os.WriteFile(script, []byte(symliftRun), 0o644))
	cmd.Args = append(cmd.Args, script)
	want := map[string]string{
		"cond_add":  "3.0 4.0 5.0 6.0 7.0 8.0",
		"cond_view": "2.0 3.0 4.0 5.0 6.0 7.0",
		"while_add": "7.0 8.0 9.0 10.0 11.0 12.0",
		"map_add":   "2.0 3.0 4.0 5.0 6.0 7.0",
	}
	for _, name := range []string{"cond_add", "cond_view", "while_add", "map_add"} {
		ep, err := pt2.Load(filepath.Join("testdata", "symlift", name+".pt2"))
		require.NoError(t, err)
		path := filepath.Join(dir, name+".pt2")
		require.NoError(t, pt2.Write(path, ep, pt2.SaveOptions{Format: pt2.Archive}))
		cmd.Args = append(cmd.Args, path)
	}
	out, err := cmd.Output()
	require.NoError(t, err, "%s", out)
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if name, vals, ok := strings.Cut(line, " "); ok {
			if _, known := want[name]; known {
				got[name] = vals
			}
		}
	}
	assert.Equal(t, want, got)
}
