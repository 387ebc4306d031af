package archive

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/gofx/gofx/torchio/pickle"
)

// record is one zip record, in file order.
type record struct {
	name string
	data []byte
}

func readRecords(t *testing.T, path string) []record {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return recordsOf(t, b)
}

func recordsOf(t *testing.T, b []byte) []record {
	t.Helper()
	var out []record
	for _, f := range mustZip(t, b).File {
		rc, err := f.Open()
		require.NoError(t, err)
		d, err := io.ReadAll(rc)
		require.NoError(t, err)
		rc.Close()
		out = append(out, record{f.Name, d})
	}
	return out
}

// zipOf writes records as a plain zip (stored).
func zipOf(t *testing.T, rs []record) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, r := range rs {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: r.name, Method: zip.Store})
		require.NoError(t, err)
		_, err = w.Write(r.data)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// edit returns the records with name's data replaced by f's result, or the
// record dropped when f returns nil.
func edit(rs []record, name string, f func([]byte) []byte) []record {
	var out []record
	for _, r := range rs {
		if r.name == name {
			d := f(bytes.Clone(r.data))
			if d == nil {
				continue
			}
			r.data = d
		}
		out = append(out, r)
	}
	return out
}

func replace(old, new string) func([]byte) []byte {
	return func(b []byte) []byte { return []byte(strings.Replace(string(b), old, new, 1)) }
}

func drop([]byte) []byte { return nil }

// hostilePickle is a torch.save zip whose data.pkl calls posix.system.
func hostilePickle(t *testing.T) []byte {
	pkl := []byte("\x80\x02cposix\nsystem\nX\x02\x00\x00\x00ls\x85R.")
	return zipOf(t, []record{{"archive/data.pkl", pkl}, {"archive/version", []byte("3\n")}})
}

func TestBadInput(t *testing.T) {
	zipRecs := readRecords(t, "testdata/zip_tied_dict.pt2")
	pt2Recs := readRecords(t, "testdata/pt2_tied_dict.pt2")
	const (
		wcfg = "tied_dict/data/weights/model_weights_config.json"
		ccfg = "tied_dict/data/constants/model_constants_config.json"
	)
	good := zipOf(t, zipRecs)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"truncated", good[:len(good)/2], "not a zip file"},
		{"empty", nil, "not a zip file"},
		{"not a zip", []byte("hello"), "not a zip file"},
		{"no records", zipOf(t, nil), "empty zip file"},
		{"missing program", zipOf(t, edit(zipRecs, "serialized_exported_program.json", drop)), "missing record serialized_exported_program.json"},
		{"missing version", zipOf(t, edit(zipRecs, "version", drop)), "missing record version"},
		{"version 9", zipOf(t, edit(zipRecs, "version", replace("8.2", "9.0"))), `record version: schema version "9.0" is not 8.x`},
		{"program major 9", zipOf(t, edit(zipRecs, "serialized_exported_program.json", replace(`"major": 8`, `"major": 9`))),
			"record serialized_exported_program.json: schema: unsupported schema version 9.2"},
		{"malformed json", zipOf(t, edit(zipRecs, "serialized_exported_program.json", func(b []byte) []byte { return b[:len(b)-1] })),
			"record serialized_exported_program.json: schema: json"},
		{"unknown field", zipOf(t, edit(zipRecs, "serialized_exported_program.json", replace(`"opset_version"`, `"opset_versions"`))),
			`record serialized_exported_program.json: schema 8.2: (top level): unknown field "opset_versions" of ExportedProgram`},
		{"state dict not a zip", zipOf(t, edit(zipRecs, "serialized_state_dict.pt", func([]byte) []byte { return []byte("junk") })),
			"record serialized_state_dict.pt: torchio: not a torch.save zip archive"},
		{"hostile example inputs", zipOf(t, edit(zipRecs, "serialized_example_inputs.pt", func([]byte) []byte { return hostilePickle(t) })),
			"record serialized_example_inputs.pt: torchio: data.pkl: pickle: GLOBAL"},
		{"weight missing", zipOf(t, edit(zipRecs, "serialized_state_dict.pt", func([]byte) []byte { return hostileFree(t) })),
			`input_specs[0]: the program's parameter "head.weight" is not in the file's weights or constants`},

		{"pt2 format", zipOf(t, edit(pt2Recs, "tied_dict/archive_format", replace("pt2", "pt3"))), `record archive_format: "pt3" is not "pt2"`},
		{"pt2 version", zipOf(t, edit(pt2Recs, "tied_dict/archive_version", replace("0", "1"))), `archive version "1" is not 0`},
		{"pt2 byteorder", zipOf(t, edit(pt2Recs, "tied_dict/byteorder", replace("little", "middle"))), `unknown byte order "middle"`},
		{"pt2 no model", zipOf(t, edit(pt2Recs, "tied_dict/models/model.json", drop)), "no models/*.json record"},
		{"pt2 no weights config", zipOf(t, edit(pt2Recs, wcfg, drop)), "missing record data/weights/model_weights_config.json"},
		{"pt2 short weight", zipOf(t, edit(pt2Recs, "tied_dict/data/weights/weight_0", func(b []byte) []byte { return b[:636] })),
			`record data/weights/model_weights_config.json: "emb.weight": record data/weights/weight_0: 636 bytes hold 159 float32 elements, but sizes [20 8], strides [8 1] and offset 0 reach element 159`},
		{"pt2 odd weight", zipOf(t, edit(pt2Recs, "tied_dict/data/weights/weight_0", func(b []byte) []byte { return b[:637] })),
			"637 bytes are not a whole number of 4-byte float32 elements"},
		{"pt2 missing record", zipOf(t, edit(pt2Recs, "tied_dict/data/weights/weight_1", drop)), `"emb_t": record data/weights/weight_1 does not exist`},
		{"pt2 bad path", zipOf(t, edit(pt2Recs, ccfg, replace(`"tensor_0"`, `"../x"`))), `"pos": path_name "../x" is not a record name`},
		{"pt2 config unknown field", zipOf(t, edit(pt2Recs, ccfg, replace(`"is_param"`, `"is_parameter"`))), `unknown field "is_parameter" of PayloadMeta`},
		{"pt2 symbolic size", zipOf(t, edit(pt2Recs, ccfg, replace(`{"as_int": 16}`, `{"as_expr": {"expr_str": "s0"}}`))), "sizes[0] is symbolic (s0)"},
		{"pt2 complex", zipOf(t, edit(pt2Recs, ccfg, replace(`"dtype": 7`, `"dtype": 10`))), "dtype COMPLEXFLOAT is not supported"},
		{"pt2 bad enum", zipOf(t, edit(pt2Recs, ccfg, replace(`"dtype": 7`, `"dtype": 14`))), "value 14 is out of range for ScalarType"},
		{"pt2 no meta", zipOf(t, edit(pt2Recs, ccfg, replace(`"use_pickle": false, "tensor_meta": {`, `"use_pickle": false, "tensor_meta": null, "x": {`))), "unknown field"},
		{"pt2 hostile sample", zipOf(t, edit(pt2Recs, "tied_dict/data/sample_inputs/model.pt", func([]byte) []byte { return hostilePickle(t) })),
			"record data/sample_inputs/model.pt: torchio: data.pkl: pickle: GLOBAL"},
		{"pt2 signature", zipOf(t, edit(pt2Recs, ccfg, replace(`"const"`, `"konst"`))), `the program's tensor constant "const" is not in the file's weights or constants`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(c.data), int64(len(c.data)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.True(t, strings.HasPrefix(err.Error(), "archive: "), err.Error())
		})
	}
}

// hostileFree is a torch.save file of an empty dict.
func hostileFree(t *testing.T) []byte {
	return zipOf(t, []record{{"archive/data.pkl", []byte("\x80\x02}.")}, {"archive/version", []byte("3\n")}})
}

func TestCorruptRecord(t *testing.T) {
	b, err := os.ReadFile("testdata/zip_mlp.pt2")
	require.NoError(t, err)
	i := bytes.Index(b, []byte(`"graph_module"`))
	require.Positive(t, i)
	b[i+1] = 'G'
	_, err = Read(bytes.NewReader(b), int64(len(b)))
	assert.ErrorContains(t, err, "record serialized_exported_program.json: zip: checksum error")
}

func TestZipBomb(t *testing.T) {
	// A deflated record whose header claims far more than deflate can give.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	fw, err := zw.CreateRaw(&zip.FileHeader{Name: "version", Method: zip.Deflate, CompressedSize64: 10, UncompressedSize64: 1 << 40})
	require.NoError(t, err)
	fw.Write(make([]byte, 10))
	require.NoError(t, zw.Close())
	_, err = Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	assert.ErrorContains(t, err, "record version: 10 compressed bytes cannot expand to 1099511627776")

	// A deflated record within bounds reads.
	buf.Reset()
	zw = zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, 9) })
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "version", Method: zip.Deflate})
	require.NoError(t, err)
	w.Write([]byte("7.0"))
	require.NoError(t, zw.Close())
	_, err = Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	assert.ErrorContains(t, err, `schema version "7.0" is not 8.x`)
}

func TestWriteErrors(t *testing.T) {
	a, err := Load("testdata/zip_mlp.pt2")
	require.NoError(t, err)
	two := *a
	m2 := *a.Models[0]
	m2.Name = "second"
	two.Models = []*Model{a.Models[0], &m2}
	assert.ErrorContains(t, two.Write(io.Discard), "the zip layout holds one model, the archive has 2")

	// Several models fit a PT2 archive, numbered as PyTorch numbers them.
	two.Layout = LayoutPT2
	var buf bytes.Buffer
	require.NoError(t, two.Write(&buf))
	b, err := Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	require.Len(t, b.Models, 2)
	assert.Equal(t, "model", b.Models[0].Name)
	assert.Equal(t, "second", b.Models[1].Name)
	sameModel(t, a.Models[0], b.Models[1])
	var names []string
	for _, f := range mustZip(t, buf.Bytes()).File {
		names = append(names, f.Name)
	}
	assert.Contains(t, names, "archive/data/weights/weight_4") // the second model's first weight
	assert.Contains(t, names, "archive/data/weights/second_weights_config.json")

	dup := two
	dup.Models = []*Model{a.Models[0], a.Models[0]}
	assert.ErrorContains(t, dup.Write(io.Discard), `model name "model" is empty, invalid or repeated`)

	c := *a
	cm := *a.Models[0]
	cm.Constants = []Constant{{Name: "obj", Object: []byte("x"), ObjectKind: "custom_obj"}}
	c.Models = []*Model{&cm}
	assert.ErrorContains(t, c.Write(io.Discard), `constant "obj" is a custom object (custom_obj), which the zip layout cannot hold`)
	c.Layout = LayoutPT2
	buf.Reset()
	require.NoError(t, c.Write(&buf), "a PT2 archive keeps custom objects as records")
	got, err := Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	assert.Equal(t, []byte("x"), got.Models[0].Constant("obj").Object)
	assert.Equal(t, "custom_obj", got.Models[0].Constant("obj").ObjectKind)

	meta := *a.Models[0]
	meta.Weights = []Weight{{Name: "w", Tensor: tensor.Must(tensor.NewMeta(tensor.Float32, 2))}}
	c.Models = []*Model{&meta}
	assert.ErrorContains(t, c.Write(io.Discard), `"w" is a meta tensor`)

	var nilArchive *Archive
	assert.Error(t, nilArchive.Write(io.Discard))
	assert.ErrorContains(t, (&Archive{Layout: 7}).Write(io.Discard), "unknown layout 7")
}

// TestTestdata round-trips the copies in testdata (the same as
// TestRoundTrip, without ../shared).
func TestTestdata(t *testing.T) {
	for _, name := range []string{"zip_mlp.pt2", "zip_tied_dict.pt2", "pt2_mlp.pt2", "pt2_tied_dict.pt2"} {
		t.Run(name, func(t *testing.T) {
			a, err := Load("testdata/" + name)
			require.NoError(t, err)
			roundTrip(t, a, LayoutZip)
			roundTrip(t, a, LayoutPT2)
		})
	}
	// tied_dict: the tied parameters share one storage, written once.
	a, err := Load("testdata/pt2_tied_dict.pt2")
	require.NoError(t, err)
	m := a.Models[0]
	assert.True(t, m.Weight("emb.weight").Tensor.SharesStorage(m.Weight("head.weight").Tensor))
	assert.False(t, m.Weight("emb.weight").Tensor.SharesStorage(m.Weight("emb_t").Tensor))
	assert.Equal(t, []int{1, 8}, m.Weight("emb_t").Tensor.Strides())
	z, err := Load("testdata/zip_tied_dict.pt2")
	require.NoError(t, err)
	zm := z.Models[0]
	assert.True(t, zm.Weight("emb.weight").Tensor.SharesStorage(zm.Weight("head.weight").Tensor))
	assert.True(t, zm.Weight("emb.weight").IsParam)
	assert.False(t, zm.Weight("emb_t").IsParam)
	assert.NotNil(t, zm.Constant("pos").Tensor)
	b := roundTrip(t, z, LayoutPT2)
	bm := b.Models[0]
	assert.True(t, bm.Weight("emb.weight").Tensor.SharesStorage(bm.Weight("head.weight").Tensor))
}

func TestZipUnderFolder(t *testing.T) {
	recs := readRecords(t, "testdata/zip_mlp.pt2")
	for i := range recs {
		recs[i].name = "mlp/" + recs[i].name
	}
	b := zipOf(t, recs)
	a, err := Read(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	assert.Equal(t, LayoutZip, a.Layout)
	assert.Equal(t, "mlp", a.Root)
	want, err := Load("testdata/zip_mlp.pt2")
	require.NoError(t, err)
	sameModel(t, want.Models[0], a.Models[0])
	var buf bytes.Buffer
	require.NoError(t, a.Write(&buf))
	for _, f := range mustZip(t, buf.Bytes()).File {
		assert.False(t, strings.HasPrefix(f.Name, "mlp/"), "%s: a zip is written at the top, where PyTorch reads it", f.Name)
	}
}

// TestPT2TorchSaveWeights reads the first PT2 archives' form: weights and
// constants as torch.save files data/weights/NAME.pt and
// data/constants/NAME.pt instead of raw records and configs.
func TestPT2TorchSaveWeights(t *testing.T) {
	want, err := Load("testdata/pt2_tied_dict.pt2")
	require.NoError(t, err)
	m := want.Models[0]
	sd, consts := pickle.NewDict(), pickle.NewDict()
	for _, w := range m.Weights {
		var v pickle.Value = w.Tensor
		if w.IsParam {
			v = &torchio.Parameter{Data: w.Tensor, RequiresGrad: w.RequiresGrad}
		}
		require.NoError(t, sd.Set(w.Name, v))
	}
	for _, c := range m.Constants {
		require.NoError(t, consts.Set(c.Name, c.Tensor))
	}
	var sdb, cb bytes.Buffer
	require.NoError(t, torchio.WriteValue(&sdb, sd))
	require.NoError(t, torchio.WriteValue(&cb, consts))
	var recs []record
	for _, r := range readRecords(t, "testdata/pt2_tied_dict.pt2") {
		if strings.Contains(r.name, "/data/weights/") || strings.Contains(r.name, "/data/constants/") {
			continue
		}
		recs = append(recs, r)
	}
	recs = append(recs, record{"tied_dict/data/weights/model.pt", sdb.Bytes()}, record{"tied_dict/data/constants/model.pt", cb.Bytes()})
	b := zipOf(t, recs)
	got, err := Read(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	sameModel(t, m, got.Models[0])
}
