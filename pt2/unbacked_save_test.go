package pt2_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
)

// goUnbacked is gen_pt2.py's Unbacked written in Go (item, the checks,
// x[:n], nonzero).
type goUnbacked struct{ nn.Base }

func (m *goUnbacked) ArgNames() []string { return []string{"x", "k"} }

func (m *goUnbacked) Forward(x, k nn.Value) nn.Value {
	n := k.Item()
	functional.CheckIsSize(n)
	functional.Check(n.Le(x.Size(0)))
	head := x.Index(nn.Slice(nil, n)).Sum(0)
	idx := functional.Nonzero(x.Index(nn.Slice(), 0).Gt(0))
	return nn.Tuple(head, idx)
}

// exportGoUnbacked exports goUnbacked on unbacked.io.json's example.
func exportGoUnbacked(t *testing.T) (*export.ExportedProgram, *models.IO, string) {
	t.Helper()
	iopath := "../export/testdata/unbacked.io.json"
	io, err := models.ReadIO(iopath)
	require.NoError(t, err)
	m := &goUnbacked{}
	m.Init(m, "Unbacked")
	c := io.Cases[0]
	ep, err := export.Export(m, []any{c.Inputs[0].MustTensor(), c.Inputs[1].MustTensor()}, nil)
	require.NoError(t, err)
	return ep, io, iopath
}

// TestUnbackedSaveRoundTrip: the Go-written unbacked program, saved and
// loaded back in both layouts, keeps its unbacked symbols, their ranges
// and runtime assertions, and runs to PyTorch's outputs.
func TestUnbackedSaveRoundTrip(t *testing.T) {
	ep, io, _ := exportGoUnbacked(t)
	for _, f := range []pt2.Format{pt2.Legacy, pt2.Archive} {
		var b bytes.Buffer
		require.NoError(t, pt2.Save(&b, ep, pt2.SaveOptions{Format: f}))
		back, err := pt2.Read(bytes.NewReader(b.Bytes()), int64(b.Len()))
		require.NoError(t, err, "%s", f)
		text := back.String()
		assert.Contains(t, text, `_local_scalar_dense: "Sym(u0)"`, "%s", f)
		assert.Contains(t, text, `nonzero: "i64[u1, 1]"`, "%s", f)
		assert.Contains(t, text, "Runtime assertion failed for expression u0 <= 6", "%s", f)
		assert.Equal(t, ep.RangeConstraints["u0"], back.RangeConstraints["u0"], "%s", f)
		for _, c := range io.Cases {
			got, err := back.Run(c.Inputs[0].MustTensor(), c.Inputs[1].MustTensor())
			require.NoError(t, err, "%s", f)
			assert.True(t, tensor.AllClose(got.Tuple()[0].MustTensor(), c.Outputs[0].MustTensor(), 1e-5, 1e-6, false), "%s", f)
			assert.Equal(t, c.Outputs[1].MustTensor().Float64s(), got.Tuple()[1].MustTensor().Float64s(), "%s", f)
		}
	}
}

// TestTorchLoadsGoUnbacked: PyTorch 2.6 (≤ 2.7 zip) and 2.14 (PT2
// archive) load the Go-written unbacked program and run it on
// unbacked.io.json's cases.
func TestTorchLoadsGoUnbacked(t *testing.T) {
	forEachTorch(t, func(t *testing.T, format pt2.Format, cmd *exec.Cmd, dir string) {
		ep, _, iopath := exportGoUnbacked(t)
		p := filepath.Join(dir, "go_unbacked.pt2")
		require.NoError(t, pt2.Write(p, ep, pt2.SaveOptions{Format: format}))
		data, err := os.ReadFile(iopath)
		require.NoError(t, err)
		io := filepath.Join(dir, "unbacked.io.json")
		require.NoError(t, os.WriteFile(io, data, 0o644))
		res := runTorchCheck(t, cmd, []string{p, io})
		if r, ok := torchRan(t, res, p); ok {
			assert.Equal(t, 0.0, r.MaxAbsDiff)
		}
	})
}
