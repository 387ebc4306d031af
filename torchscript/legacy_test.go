package torchscript

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/archive"
)

// TestLegacyArchive loads an archive in the format of PyTorch 1.0 to 1.2
// (model.json; archive/testdata/legacy/gen_legacy.py builds it as PyTorch 1.2's
// writer did, since PyTorch 2.6 no longer reads the format) and runs it on
// what PyTorch 2.6 computes for the same module at archive version 1
// (integer div truncating, as the upgrader makes it).
func TestLegacyArchive(t *testing.T) {
	a, err := archive.Open("archive/testdata/legacy/legacy.pt")
	require.NoError(t, err)
	assert.True(t, a.Legacy)
	assert.Equal(t, 3, a.ProtoVersion)
	assert.Equal(t, 1, a.Version)
	m, err := FromArchive(a)
	require.NoError(t, err)
	assert.Equal(t, "__torch__.legacy", m.Type().Name)
	names, err := m.MethodNames()
	require.NoError(t, err)
	assert.Equal(t, []string{"forward"}, names)
	var params []string
	for _, p := range m.NamedParameters() {
		params = append(params, p.Name)
	}
	assert.Equal(t, []string{"weight", "bias", "sub.weight"}, params)
	n, ok := m.Attr("n")
	require.True(t, ok)
	assert.Equal(t, int64(2), n)
	io, err := ReadIO("archive/testdata/legacy/legacy.io.json")
	require.NoError(t, err)
	for i, r := range CheckIO(m, io) {
		assert.True(t, r.Passed(), "case %d: %v", i, r.Err)
	}
}

// TestLegacyProtoVersion1 loads the archive as PyTorch 1.0 wrote one
// (protoVersion 1: no attribute table; submodule parameters reached
// through attribute chains, self.sub.weight): forward multiplies x by the
// submodule's weight and adds the root's bias, element by element.
func TestLegacyProtoVersion1(t *testing.T) {
	recs := zipRecords(t, "archive/testdata/legacy/legacy.pt")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, r := range recs {
		data := r.data
		switch r.name {
		case "legacy/attributes.pkl":
			continue
		case "legacy/model.json":
			var m map[string]any
			require.NoError(t, json.Unmarshal(data, &m))
			m["protoVersion"] = "1"
			main := m["mainModule"].(map[string]any)
			delete(main, "attributes")
			delete(main["submodules"].([]any)[0].(map[string]any), "attributes")
			var err error
			data, err = json.Marshal(m)
			require.NoError(t, err)
		case "legacy/code/legacy.py":
			data = []byte("op_version_set = 0\ndef forward(self,\n    x: Tensor) -> Tensor:\n  return torch.add(torch.mul(x, self.sub.weight), self.bias, alpha=1)\n")
		}
		w, err := zw.Create(r.name)
		require.NoError(t, err)
		_, err = w.Write(data)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	m, err := Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	sub, ok := m.Submodule("sub")
	require.True(t, ok)
	sw, _ := sub.Attr("weight")
	b, _ := m.Attr("bias")
	x := tensor.Must(tensor.FromSlice([]float32{1, -2, 3}, 3))
	out, err := m.Forward(x)
	require.NoError(t, err)
	w, bias := tensor.Values[float32](sw.(*tensor.Tensor)), tensor.Values[float32](b.(*tensor.Tensor))
	want := []float32{1*w[0] + bias[0], -2*w[1] + bias[1], 3*w[2] + bias[2]}
	assert.InDeltaSlice(t, want, tensor.Values[float32](out.(*tensor.Tensor)), 1e-6)
}

type zipRecord struct {
	name string
	data []byte
}

func zipRecords(t *testing.T, path string) []zipRecord {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	var out []zipRecord
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		data, err := io.ReadAll(rc)
		require.NoError(t, err)
		out = append(out, zipRecord{f.Name, data})
	}
	return out
}
