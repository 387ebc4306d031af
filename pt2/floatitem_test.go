package pt2_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
)

// The references of export/testdata/floatitem/gen.py: a program reading
// floats from tensor data (item() of floating tensors, PyTorch's unbacked
// float symbols zuf0, zuf1, ...).
const floatItemDir = "../export/testdata/floatitem"

// goFloatItem is gen.py's FloatItem in Go.
type goFloatItem struct{ nn.Base }

func (m *goFloatItem) Forward(x nn.Value) nn.Value {
	a := x.Sum().Item()
	b := nn.CallOp(nn.Op("aten::max"), x).Item()
	mul := x.Mul(a)
	full := nn.CallOp(nn.Op("aten::full"), []int64{2}, b)
	add := nn.CallOpKw(nn.Op("aten::add.Tensor"), []any{x, x}, map[string]any{"alpha": nn.CallOp(nn.Op("aten::min"), x).Item()})
	return nn.Tuple(mul, full, add)
}

func floatItemIO(t *testing.T) *models.IO {
	t.Helper()
	io, err := models.ReadIO(filepath.Join(floatItemDir, "float_item.io.json"))
	require.NoError(t, err)
	return io
}

// checkFloatItemRuns runs ep on float_item.io.json's cases.
func checkFloatItemRuns(t *testing.T, ep *export.ExportedProgram, io *models.IO, what string) {
	t.Helper()
	for _, c := range io.Cases {
		got, err := ep.Run(c.Inputs[0].MustTensor())
		require.NoError(t, err, what)
		require.Len(t, got.Tuple(), 3, what)
		for i, o := range got.Tuple() {
			assert.True(t, tensor.AllClose(o.MustTensor(), c.Outputs[i].MustTensor(), 1e-5, 1e-6, false), "%s: output %d", what, i)
		}
	}
}

// TestLoadFloatItem: the .pt2 files PyTorch 2.6 (≤ 2.7 zip) and 2.14 (PT2
// archive) save of FloatItem, as exported (item.default) and decomposed
// (_local_scalar_dense), load with their float symbols (Sym(zuf0) vals
// from sym_float_values, as_sym_float arguments, VR[-oo, oo]) and run to
// PyTorch's outputs.
func TestLoadFloatItem(t *testing.T) {
	io := floatItemIO(t)
	for _, name := range []string{"float_item.2.6.pt2", "float_item.2.6.core.pt2", "float_item.2.14.pt2", "float_item.2.14.core.pt2"} {
		ep, err := pt2.Load(filepath.Join(floatItemDir, name))
		require.NoError(t, err, name)
		text := ep.String()
		assert.Regexp(t, `(item|_local_scalar_dense): "Sym\(zuf0\)"`, text, name)
		assert.Contains(t, text, `"Sym(zuf2)"`, name)
		assert.Contains(t, text, "zuf0: VR[-oo, oo]", name)
		checkFloatItemRuns(t, ep, io, name)
	}
}

func exportGoFloatItem(t *testing.T) *export.ExportedProgram {
	t.Helper()
	m := &goFloatItem{}
	m.Init(m, "FloatItem")
	ep, err := export.Export(m, []any{floatItemIO(t).Cases[0].Inputs[0].MustTensor()}, nil)
	require.NoError(t, err)
	return ep
}

// TestFloatItemSaveRoundTrip: the Go-written FloatItem, saved in both
// layouts and read back, keeps its float symbols (written as_sym_float
// with sym_float_values "Symbol('zuf0')", as PyTorch writes them) and
// runs to PyTorch's outputs.
func TestFloatItemSaveRoundTrip(t *testing.T) {
	ep := exportGoFloatItem(t)
	io := floatItemIO(t)
	for _, f := range []pt2.Format{pt2.Legacy, pt2.Archive} {
		var b bytes.Buffer
		require.NoError(t, pt2.Save(&b, ep, pt2.SaveOptions{Format: f}))
		prog, err := pt2.SerializeProgram(ep, f)
		require.NoError(t, err)
		sf := prog.GraphModule.Graph.SymFloatValues
		require.Contains(t, sf, "_local_scalar_dense")
		assert.Equal(t, "Symbol('zuf0')", sf["_local_scalar_dense"].AsExpr.ExprStr)
		back, err := pt2.Read(bytes.NewReader(b.Bytes()), int64(b.Len()))
		require.NoError(t, err, "%s", f)
		assert.Equal(t, ep.String(), back.String(), "%s", f)
		checkFloatItemRuns(t, back, io, f.String())
	}
}

// TestTorchLoadsGoFloatItem: PyTorch 2.6 and 2.14 load the Go-written
// FloatItem and run it to its outputs.
func TestTorchLoadsGoFloatItem(t *testing.T) {
	forEachTorch(t, func(t *testing.T, format pt2.Format, cmd *exec.Cmd, dir string) {
		ep := exportGoFloatItem(t)
		p := filepath.Join(dir, "go_float_item.pt2")
		require.NoError(t, pt2.Write(p, ep, pt2.SaveOptions{Format: format}))
		io, err := filepath.Abs(filepath.Join(floatItemDir, "float_item.io.json"))
		require.NoError(t, err)
		res := runTorchCheck(t, cmd, []string{p, io})
		if r, ok := torchRan(t, res, p); ok {
			assert.GreaterOrEqual(t, r.Cases, 1)
			assert.Less(t, r.MaxAbsDiff, 1e-5)
		}
	})
}
