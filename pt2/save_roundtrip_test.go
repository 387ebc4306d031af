package pt2_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
)

// loadable lists the programs of testdata and ../shared/pt2 (2.6 and
// 2.14, as exported and after run_decompositions) by a short name.
func loadable(t *testing.T) map[string]string {
	out := map[string]string{}
	for _, name := range []string{"kwargs_scalars", "mutations", "tied_dict", "custom_op"} {
		out["testdata/"+name] = filepath.Join("testdata", name+".pt2")
	}
	for _, dir := range []string{shared, filepath.Join(shared, "torch-2.14")} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.pt2"))
		for _, f := range files {
			rel, _ := filepath.Rel(shared, f)
			out[strings.TrimSuffix(rel, ".pt2")] = f
		}
	}
	return out
}

// sameState checks that two state maps hold the same tensors bitwise.
func sameState(t *testing.T, what string, want, got map[string]*tensor.Tensor) {
	t.Helper()
	require.Equal(t, len(want), len(got), "%s: entries", what)
	for k, w := range want {
		g, ok := got[k]
		if !assert.True(t, ok, "%s: %s missing", what, k) {
			continue
		}
		assert.Equal(t, w.DType(), g.DType(), "%s %s", what, k)
		assert.Equal(t, w.Shape(), g.Shape(), "%s %s", what, k)
		assert.Equal(t, tensorBytes(t, w), tensorBytes(t, g), "%s %s: values", what, k)
	}
}

// tensorBytes is the tensor's values, bit for bit: float64 bits (exact
// for every float dtype gofx has), or int64s.
func tensorBytes(t *testing.T, x *tensor.Tensor) []uint64 {
	var out []uint64
	if x.DType().IsFloat() {
		for _, v := range x.Float64s() {
			out = append(out, math.Float64bits(v))
		}
		return out
	}
	for _, v := range x.Int64s() {
		out = append(out, uint64(v))
	}
	return out
}

// TestRoundTrip loads every program gofx can load, saves it in both
// layouts and loads the result: the same program text (graph with
// shapes, signature, range constraints), the same signature, the same
// state bitwise (gofx → gofx is exact).
func TestRoundTrip(t *testing.T) {
	require.NoError(t, defineCustomOp())
	for name, path := range loadable(t) {
		t.Run(name, func(t *testing.T) {
			ep, err := pt2.Load(path)
			require.NoError(t, err)
			for _, f := range []pt2.Format{pt2.Legacy, pt2.Archive} {
				var buf bytes.Buffer
				require.NoError(t, pt2.Save(&buf, ep, pt2.SaveOptions{Format: f}), "%s", f)
				back, err := pt2.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
				require.NoError(t, err, "%s", f)
				assert.Equal(t, ep.String(), back.String(), "%s: program text", f)
				assert.Equal(t, ep.Signature, back.Signature, "%s: signature", f)
				assert.Equal(t, ep.InSpec().String(), back.InSpec().String(), "%s: in spec", f)
				assert.Equal(t, ep.OutSpec().String(), back.OutSpec().String(), "%s: out spec", f)
				sameState(t, f.String()+" state", ep.StateDict(), back.StateDict())
				sameState(t, f.String()+" constants", ep.Constants(), back.Constants())
			}
		})
	}
	if _, err := os.Stat(shared); err != nil {
		t.Logf("%s is absent: only testdata's programs ran", shared)
	}
}
