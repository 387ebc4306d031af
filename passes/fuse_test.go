package passes_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sharedDirs are where the model zoo's files too large for testdata live:
// ../shared/models beside the repository (../../shared/models from this
// package), or the workplace's copy.
var sharedDirs = []string{"../../shared/models"}

// modelFiles returns a zoo model's state dict and io.json: the copies in
// testdata/models, or, for resnet18 (too large to copy), the shared model
// zoo; it skips the test when they are absent.
func modelFiles(tb testing.TB, name string) (weights, io string) {
	tb.Helper()
	dirs := []string{"../testdata/models"}
	if name == "resnet18" {
		dirs = sharedDirs
	}
	for _, dir := range dirs {
		w, i := filepath.Join(dir, name+".state_dict.pt"), filepath.Join(dir, name+".io.json")
		if _, err := os.Stat(w); err == nil {
			return w, i
		}
	}
	tb.Skipf("%s: reference weights absent (looked in %v; resnet18's are only in the shared model zoo ../shared/models)", name, dirs)
	return "", ""
}

// loadModel builds a zoo model in eval mode with PyTorch's weights, and
// returns it with the weights and its io.json cases.
func loadModel(tb testing.TB, name string) (nn.Module, *torchio.StateDict, *models.IO) {
	tb.Helper()
	wpath, iopath := modelFiles(tb, name)
	spec, err := models.Lookup(name)
	require.NoError(tb, err)
	sd, err := torchio.Load(wpath)
	require.NoError(tb, err)
	m, err := models.Fresh(spec, sd)
	require.NoError(tb, err)
	io, err := models.ReadIO(iopath)
	require.NoError(tb, err)
	return m, sd, io
}

// fusedRecord is ../shared/models/NAME.fused.json: what
// torch.fx.experimental.optimization.fuse does to the model in PyTorch
// 1.13.
type fusedRecord struct {
	NodesBefore       int               `json:"nodes_before"`
	NodesAfter        int               `json:"nodes_after"`
	Outputs           []json.RawMessage `json:"outputs"`
	OpcodeCountsAfter map[string]int    `json:"opcode_counts_after"`
	FusedStateDict    []struct {
		Name   string          `json:"name"`
		Shape  []int           `json:"shape"`
		DType  string          `json:"dtype"`
		Sum    float64         `json:"sum"`
		AbsSum float64         `json:"abs_sum"`
		Value  json.RawMessage `json:"value"`
	} `json:"fused_state_dict"`
}

func readFused(t *testing.T, name string) *fusedRecord {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "fuse", name+".fused.json"))
	require.NoError(t, err)
	var r fusedRecord
	require.NoError(t, json.Unmarshal(data, &r))
	return &r
}

func decodeTensor(t *testing.T, raw json.RawMessage) *tensor.Tensor {
	t.Helper()
	v, err := conformance.DecodeArg(raw)
	require.NoError(t, err)
	x, ok := v.(*tensor.Tensor)
	require.True(t, ok, "expected a tensor, got %T", v)
	return x
}

func opcodeCounts(gm *fx.GraphModule) map[string]int {
	out := map[string]int{}
	for n := range gm.Graph.Nodes() {
		out[n.Op().String()]++
	}
	return out
}

// maxAbsDiff is max |a - b| over all elements (+Inf on a shape mismatch).
func maxAbsDiff(a, b *tensor.Tensor) float64 {
	if !cmp.Equal(a.Shape(), b.Shape()) {
		return math.Inf(1)
	}
	x, y := a.Float64s(), b.Float64s()
	d := 0.0
	for i := range x {
		d = max(d, math.Abs(x[i]-y[i]))
	}
	return d
}

// requireClose checks that the flattened outputs got match want within
// tol, and returns the largest difference.
func requireClose(t *testing.T, got nn.Value, want []nn.Value, tol float64, what string) float64 {
	t.Helper()
	flat := models.Flatten(got)
	require.Len(t, flat, len(want), what)
	worst := 0.0
	for i := range want {
		d := maxAbsDiff(flat[i].MustTensor(), want[i].MustTensor())
		require.LessOrEqual(t, d, tol, "%s: output %d differs by %g", what, i, d)
		worst = max(worst, d)
	}
	return worst
}

// TestFuseConvBNAgainstPyTorch checks FuseConvBN on the zoo's Conv+BN
// models against torch.fx.experimental.optimization.fuse (PyTorch 1.13):
// node counts, opcode counts, outputs (against the eager model on every
// recorded case, and against PyTorch's fused model on the example), and
// the fused state dict; and that the traced model is left as it was.
func TestFuseConvBNAgainstPyTorch(t *testing.T) {
	for _, name := range []string{"convnet", "resnet18"} {
		t.Run(name, func(t *testing.T) {
			m, sd, io := loadModel(t, name)
			rec := readFused(t, name)
			gm, err := fx.SymbolicTrace(m)
			require.NoError(t, err)
			require.Equal(t, rec.NodesBefore, gm.Graph.Len(), "nodes before fusion")

			changed, err := passes.FuseConvBN.Apply(gm)
			require.NoError(t, err)
			assert.True(t, changed)
			require.NoError(t, gm.Lint())
			assert.Equal(t, rec.NodesAfter, gm.Graph.Len(), "nodes after fusion")
			assert.Equal(t, rec.OpcodeCountsAfter, opcodeCounts(gm), "opcode counts after fusion")

			worst := 0.0
			for _, c := range io.Cases {
				out, err := gm.Run(c.Inputs...)
				require.NoError(t, err)
				worst = max(worst, requireClose(t, out, c.Outputs, 1e-4, "fused vs eager, case "+c.Note))
			}
			t.Logf("max |fused - eager| over %d cases: %g", len(io.Cases), worst)
			want := make([]nn.Value, len(rec.Outputs))
			for i, raw := range rec.Outputs {
				want[i] = nn.Tensor(decodeTensor(t, raw))
			}
			out, err := gm.Run(io.Cases[0].Inputs...)
			require.NoError(t, err)
			d := requireClose(t, out, want, 1e-4, "fused vs PyTorch's fused")
			t.Logf("max |fused - PyTorch fused| on the example: %g", d)

			// The fused state dict: PyTorch's names and order, sums, and
			// values where recorded.
			got := nn.StateDict(gm)
			names := make([]string, len(rec.FusedStateDict))
			for i, e := range rec.FusedStateDict {
				names[i] = e.Name
			}
			require.Equal(t, names, got.Names())
			worstVal := 0.0
			for _, e := range rec.FusedStateDict {
				x, _ := got.Get(e.Name)
				assert.Equal(t, e.Shape, x.Shape(), e.Name)
				assert.Equal(t, e.DType, x.DType().String(), e.Name)
				sum, abs := 0.0, 0.0
				for _, v := range x.Float64s() {
					sum += v
					abs += math.Abs(v)
				}
				assert.InDelta(t, e.Sum, sum, 1e-6*max(1, e.AbsSum), "%s: sum", e.Name)
				assert.InDelta(t, e.AbsSum, abs, 1e-6*max(1, e.AbsSum), "%s: abs_sum", e.Name)
				if len(e.Value) > 0 {
					d := maxAbsDiff(x, decodeTensor(t, e.Value))
					assert.LessOrEqual(t, d, 1e-6, "%s: values", e.Name)
					worstVal = max(worstVal, d)
				}
			}
			t.Logf("max |fused weight - PyTorch's| over recorded values: %g", worstVal)

			requireUnchanged(t, m, sd)
		})
	}
}

// requireUnchanged checks that a model still holds the weights it was
// loaded with, still has its batch norms, and still computes its
// recorded outputs.
func requireUnchanged(t *testing.T, m nn.Module, sd *torchio.StateDict) {
	t.Helper()
	after := nn.StateDict(m)
	require.Equal(t, sd.Names(), after.Names())
	for name, want := range sd.All() {
		x, _ := after.Get(name)
		assert.True(t, tensor.Equal(want, x), "model state %s changed", name)
	}
	_, err := nn.Submodule(m, "bn1")
	assert.NoError(t, err, "the model's bn1 was removed")
}
