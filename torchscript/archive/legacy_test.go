package archive_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/archive"
)

const legacyPath = "testdata/legacy/legacy.pt"

// TestReadLegacy reads the archive of PyTorch 1.2's format that
// testdata/legacy/gen_legacy.py builds (as that writer did): the module
// tree of model.json becomes objects of synthesized classes, the tensor
// table the constants.
func TestReadLegacy(t *testing.T) {
	a, err := archive.Open(legacyPath)
	require.NoError(t, err)
	assert.True(t, a.Legacy)
	assert.Equal(t, 3, a.ProtoVersion)
	assert.Equal(t, 1, a.Version)
	require.Len(t, a.Constants, 5) // weight, bias, the code's constant, sub.weight, running
	c2 := a.Constants[2].(*tensor.Tensor)
	assert.Equal(t, []float32{0.5, -2, 3}, tensor.Values[float32](c2))
	root, err := a.Root()
	require.NoError(t, err)
	assert.Equal(t, "__torch__.legacy", root.Class)
	var names []string
	for _, at := range root.Attrs {
		names = append(names, at.Name)
	}
	assert.Equal(t, []string{"weight", "bias", "training", "n", "running", "sizes", "sub"}, names)
	w, _ := root.Attr("weight")
	assert.Same(t, a.Constants[0], w)
	running, _ := root.Attr("running")
	assert.Same(t, a.Constants[4], running, "attributes.pkl's build_tensor_from_id(4)")
	sizes, _ := root.Attr("sizes")
	assert.Equal(t, &archive.List{Type: "List[int]", Items: []archive.Value{int64(3), int64(4)}}, sizes)
	sub, _ := root.Attr("sub")
	assert.Equal(t, "__torch__.legacy.sub", sub.(*archive.Object).Class)

	f, ok := a.Source("__torch__")
	require.True(t, ok)
	assert.Equal(t, `class legacy(Module):
  __parameters__ = ["weight", "bias", ]
  __buffers__ = []
  weight : Tensor
  bias : Tensor
  training : bool
  n : int
  running : Tensor
  sizes : List[int]
  sub : __torch__.legacy.sub
  def forward(self,
      x: Tensor,
      k: Tensor) -> Tuple[Tensor, Tensor]:
    y = torch.addmm(self.bias, x, torch.t(self.weight), beta=1, alpha=1)
    y0 = self.sub.forward(y)
    y1 = y0
    for i in range(self.n):
      y1 = torch.add(y1, self.running, alpha=1)
    _0 = (torch.mul(y1, CONSTANTS.c2), torch.div(k, 2))
    return _0
`, f.Text)
	_, ok = a.Source("__torch__.legacy")
	assert.True(t, ok)
}

// editModel returns an edit of model.json by fn.
func editModel(t *testing.T, fn func(m map[string]any)) func(string, []byte) []byte {
	return func(n string, d []byte) []byte {
		if n != "model.json" {
			return d
		}
		var m map[string]any
		require.NoError(t, json.Unmarshal(d, &m))
		fn(m)
		b, err := json.Marshal(m)
		require.NoError(t, err)
		return b
	}
}

func mainModule(m map[string]any) map[string]any { return m["mainModule"].(map[string]any) }

func item(m map[string]any, key string, i int) map[string]any {
	return m[key].([]any)[i].(map[string]any)
}

// TestHostileLegacy: corrupt legacy archives are errors naming the record
// and the field.
func TestHostileLegacy(t *testing.T) {
	recs := records(t, legacyPath)
	deep := map[string]any{"name": "d"}
	for i := 0; i < 300; i++ {
		deep = map[string]any{"name": fmt.Sprint("d", i), "submodules": []any{deep}}
	}
	for _, c := range []struct {
		name string
		edit func(string, []byte) []byte
		want []string
	}{
		{"garbage json", replace("model.json", "{"), []string{"model.json"}},
		{"proto version 6", editModel(t, func(m map[string]any) { m["protoVersion"] = "6" }), []string{"model.json", "protoVersion 6"}},
		{"no main module", editModel(t, func(m map[string]any) { delete(m, "mainModule") }), []string{"no mainModule"}},
		{"bad int64", editModel(t, func(m map[string]any) { m["protoVersion"] = "x" }), []string{"model.json", "not an int64"}},
		{"string tensor", editModel(t, func(m map[string]any) { item(m, "tensors", 0)["dataType"] = "STRING" }), []string{"tensors[0]", "STRING"}},
		{"missing storage", drop("tensors/1"), []string{"tensors[1]", `"tensors/1"`}},
		{"dims past storage", editModel(t, func(m map[string]any) { item(m, "tensors", 0)["dims"] = []any{"100", "3"} }), []string{"tensors[0]", "tensors/0"}},
		{"dims without strides", editModel(t, func(m map[string]any) { item(m, "tensors", 0)["strides"] = []any{"1"} }), []string{"tensors[0]", "strides"}},
		{"negative offset", editModel(t, func(m map[string]any) { item(m, "tensors", 0)["offset"] = "-1" }), []string{"tensors[0]", "offset"}},
		{"two dtypes of one storage", editModel(t, func(m map[string]any) {
			item(m, "tensors", 1)["data"] = map[string]any{"key": "tensors/0"}
			item(m, "tensors", 1)["dataType"] = "INT32"
		}), []string{"tensors[1]", "tensors/0"}},
		{"quantized", editModel(t, func(m map[string]any) { item(m, "tensors", 0)["isQuantized"] = true }), []string{"tensors[0]", "quantized"}},
		{"tensor id", editModel(t, func(m map[string]any) { item(mainModule(m), "parameters", 1)["tensorId"] = "99" }), []string{"mainModule.parameters[1]", "tensorId"}},
		{"parameter name", editModel(t, func(m map[string]any) { item(mainModule(m), "parameters", 0)["name"] = "a b" }), []string{"parameters[0]", `"a b"`}},
		{"duplicate name", editModel(t, func(m map[string]any) { item(mainModule(m), "parameters", 1)["name"] = "weight" }), []string{"parameters[1]", "second attribute"}},
		{"attribute id", editModel(t, func(m map[string]any) { item(mainModule(m), "attributes", 1)["id"] = "99" }), []string{"mainModule.attributes[1]", "id 99"}},
		{"attribute type", editModel(t, func(m map[string]any) { item(mainModule(m), "attributes", 1)["type"] = "int\n  def f(self):" }), []string{"attributes[1]", "not a TorchScript type"}},
		{"module name", editModel(t, func(m map[string]any) { item(mainModule(m), "submodules", 0)["name"] = "a-b" }), []string{"mainModule.submodules[0]", `"a-b"`}},
		{"deep modules", editModel(t, func(m map[string]any) { mainModule(m)["submodules"] = []any{deep} }), []string{"nested more than"}},
		{"getstate", editModel(t, func(m map[string]any) { mainModule(m)["getStateAttributeId"] = "0" }), []string{"mainModule", "__getstate__"}},
		{"missing arena", drop("code/legacy_sub.py"), []string{"mainModule.submodules[0]", `"code/legacy_sub.py"`}},
		{"statement in code", replace("code/legacy.py", "op_version_set = 1\nimport os\n"), []string{"code/legacy.py", "line 2", "only defs"}},
		{"tensor id in pickle", replace("attributes.pkl", pkl("(ctorch.jit._pickle\nbuild_tensor_from_id\nK\x63\x85Rt")), []string{"attributes.pkl", "tensor id 99"}},
		{"pickle not a tuple", replace("attributes.pkl", pkl("K\x01")), []string{"attributes.pkl", "not a tuple"}},
		{"os.system in pickle", replace("attributes.pkl", pkl("cos\nsystem\n")), []string{"attributes.pkl", "os.system"}},
		{"no version", drop("version"), []string{"no version record"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := read(rezip(t, recs, c.edit))
			require.Error(t, err)
			for _, w := range c.want {
				require.ErrorContains(t, err, w)
			}
		})
	}
}

// TestLegacyProtoVersion2: protoVersion 2 (PyTorch 1.1) pickles the
// attribute table as a list.
func TestLegacyProtoVersion2(t *testing.T) {
	recs := records(t, legacyPath)
	b := rezip(t, recs, func(n string, d []byte) []byte {
		switch n {
		case "model.json":
			return []byte(strings.Replace(string(d), `"protoVersion":"3"`, `"protoVersion":"2"`, 1))
		case "attributes.pkl":
			// PyTorch 1.1's pickler: a tensor is __main__.TensorID, NEWOBJ,
			// then BUILD with its id.
			return []byte(pkl("](\x88K\x02c__main__\nTensorID\n)\x81K\x04b]K\x03aK\x04a\x88e"))
		}
		return d
	})
	a, err := read(b)
	require.NoError(t, err)
	assert.Equal(t, 2, a.ProtoVersion)
	root, err := a.Root()
	require.NoError(t, err)
	n, _ := root.Attr("n")
	assert.Equal(t, int64(2), n)
	running, _ := root.Attr("running")
	assert.Same(t, a.Constants[4], running)
}

// FuzzReadLegacy reads the legacy archive with its model.json and its
// root module's code replaced by the fuzzer's: an error or an archive,
// never a panic.
func FuzzReadLegacy(f *testing.F) {
	recs := records(f, legacyPath)
	var model, code []byte
	for _, r := range recs {
		switch r.name {
		case "legacy/model.json":
			model = r.data
		case "legacy/code/legacy.py":
			code = r.data
		}
	}
	f.Add(model, code)
	f.Add([]byte(`{"protoVersion":"1","mainModule":{"name":"m","submodules":[{"name":"0"}]}}`), code)
	f.Fuzz(func(t *testing.T, model, code []byte) {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, r := range recs {
			data := r.data
			switch r.name {
			case "legacy/model.json":
				data = model
			case "legacy/code/legacy.py":
				data = code
			}
			w, err := zw.Create(r.name)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(data); err != nil {
				t.Fatal(err)
			}
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		a, err := read(buf.Bytes())
		if err != nil {
			return
		}
		_, _ = a.Root()
	})
}
