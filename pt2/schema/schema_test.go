package schema

import (
	"archive/zip"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sharedPT2 is ../shared/pt2 seen from this package (the module root is two
// levels up).
const sharedPT2 = "../../../shared/pt2"

// programJSONs returns the program records of every .pt2 file PyTorch 2.6
// and 2.14 wrote under ../shared/pt2, by file path; it skips when the
// folder is absent.
func programJSONs(t *testing.T) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(sharedPT2, "*.pt2"))
	more, _ := filepath.Glob(filepath.Join(sharedPT2, "torch-2.14", "*.pt2"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Skipf("no .pt2 files under %s", sharedPT2)
	}
	out := map[string][]byte{}
	for _, f := range files {
		zr, err := zip.OpenReader(f)
		require.NoError(t, err, f)
		for _, zf := range zr.File {
			if strings.HasSuffix(zf.Name, "serialized_exported_program.json") ||
				strings.Contains(zf.Name, "/models/") && strings.HasSuffix(zf.Name, ".json") {
				rc, err := zf.Open()
				require.NoError(t, err)
				b, err := io.ReadAll(rc)
				require.NoError(t, err)
				rc.Close()
				out[f] = b
			}
		}
		zr.Close()
	}
	return out
}

// canonical re-serializes a JSON document with object keys sorted, numbers
// and strings kept as written, so two documents compare equal exactly when
// they hold the same values written the same way.
func canonical(t *testing.T, data []byte) string {
	t.Helper()
	v, err := parseJSON(data)
	require.NoError(t, err)
	var sb strings.Builder
	var walk func(v *jvalue)
	walk = func(v *jvalue) {
		switch v.kind {
		case jNull:
			sb.WriteString("null")
		case jBool:
			sb.WriteString(map[bool]string{true: "true", false: "false"}[v.b])
		case jNumber:
			sb.WriteString(v.s)
		case jString:
			writePyString(&sb, v.s)
		case jArray:
			sb.WriteByte('[')
			for i, e := range v.arr {
				if i > 0 {
					sb.WriteByte(',')
				}
				walk(e)
			}
			sb.WriteByte(']')
		case jObject:
			ms := slices.Clone(v.obj)
			slices.SortFunc(ms, func(a, b jmember) int { return strings.Compare(a.key, b.key) })
			sb.WriteByte('{')
			for i, m := range ms {
				if i > 0 {
					sb.WriteByte(',')
				}
				writePyString(&sb, m.key)
				sb.WriteByte(':')
				walk(m.val)
			}
			sb.WriteByte('}')
		}
	}
	walk(v)
	return sb.String()
}

// TestRealFiles decodes every program PyTorch wrote, re-encodes it and
// checks that the bytes hold exactly PyTorch's values in PyTorch's form
// (object key order aside: Go maps are written sorted), and that decoding
// the re-encoded bytes gives the same program.
func TestRealFiles(t *testing.T) {
	for path, data := range programJSONs(t) {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			p, err := Decode(data)
			require.NoError(t, err)
			out, err := Encode(p)
			require.NoError(t, err)
			assert.Equal(t, canonical(t, data), canonical(t, out))
			q, err := Decode(out)
			require.NoError(t, err)
			if diff := cmp.Diff(p, q, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("decode(encode(p)) differs (-p +q):\n%s", diff)
			}
			if strings.Contains(path, "torch-2.14") {
				assert.Equal(t, SchemaVersion{8, 20}, p.SchemaVersion)
			} else {
				assert.Equal(t, SchemaVersion{8, 2}, p.SchemaVersion)
			}
		})
	}
}

// TestKeyOrder checks the first keys PyTorch writes, in its order, on the
// copies in testdata (the whole shape is checked by TestRealFiles).
func TestKeyOrder(t *testing.T) {
	for _, name := range []string{"mlp.v8.2.json", "mlp.v8.20.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		require.NoError(t, err)
		p, err := Decode(data)
		require.NoError(t, err)
		out, err := Encode(p)
		require.NoError(t, err)
		// The top-level object's keys in order, from PyTorch's bytes and ours.
		keys := func(b []byte) []string {
			v, err := parseJSON(b)
			require.NoError(t, err)
			var ks []string
			for _, m := range v.obj {
				ks = append(ks, m.key)
			}
			for _, m := range v.obj[0].val.obj {
				ks = append(ks, "graph_module."+m.key)
			}
			return ks
		}
		assert.Equal(t, keys(data), keys(out), name)
		assert.Equal(t, canonical(t, data), canonical(t, out), name)
	}
}

func TestPyFloat(t *testing.T) {
	// Python 3: repr(x) for each x.
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0.0"}, {math.Copysign(0, -1), "-0.0"}, {1, "1.0"}, {0.5, "0.5"}, {1e-05, "1e-05"},
		{0.0001, "0.0001"}, {2.8284271247461903, "2.8284271247461903"}, {1e16, "1e+16"},
		{1e15, "1000000000000000.0"}, {123456789012345678, "1.2345678901234568e+17"},
		{-1.5e-07, "-1.5e-07"}, {1e100, "1e+100"}, {5e-324, "5e-324"},
		{math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"}, {math.NaN(), "NaN"},
		{0.1, "0.1"}, {100, "100.0"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
	} {
		assert.Equal(t, c.want, pyFloat(c.f), "%v", c.f)
	}
}

func TestPyString(t *testing.T) {
	// Python 3: json.dumps(s).
	for _, c := range []struct{ s, want string }{
		{"a\"b\\c", `"a\"b\\c"`}, {"\n\t\r\b\f\x01\x7f", `"\n\t\r\b\f\u0001\u007f"`},
		{"é", `"\u00e9"`}, {"😀", `"\ud83d\ude00"`}, {"/<>&", `"/<>&"`},
	} {
		var sb strings.Builder
		writePyString(&sb, c.s)
		assert.Equal(t, c.want, sb.String())
	}
}

func TestNonFiniteFloats(t *testing.T) {
	// json.dumps writes bare tokens; newer serializers may write strings.
	for _, in := range []string{`Infinity`, `"Infinity"`} {
		var a Argument
		require.NoError(t, Unmarshal([]byte(`{"as_float": `+in+`}`), &a))
		require.NotNil(t, a.AsFloat)
		assert.True(t, math.IsInf(*a.AsFloat, 1))
		out, err := Marshal(a, StyleCurrent)
		require.NoError(t, err)
		assert.Equal(t, `{"as_float": Infinity}`, string(out))
	}
	var a Argument
	require.NoError(t, Unmarshal([]byte(`{"as_floats": [-Infinity, NaN, 1e999]}`), &a))
	assert.True(t, math.IsInf(a.AsFloats[0], -1))
	assert.True(t, math.IsNaN(a.AsFloats[1]))
	assert.True(t, math.IsInf(a.AsFloats[2], 1))
}

func TestDefaults(t *testing.T) {
	p, err := Decode([]byte(`{"schema_version": {"major": 8, "minor": 0}}`))
	require.NoError(t, err)
	assert.Equal(t, "<=2.4", p.TorchVersion)
	assert.Nil(t, p.GraphModule.Graph.Nodes)

	var d Device
	require.NoError(t, Unmarshal([]byte(`{"type": "cpu"}`), &d))
	assert.Nil(t, d.Index)
	require.NoError(t, Unmarshal([]byte(`{"type": "cuda", "index": 1}`), &d))
	assert.Equal(t, int64(1), *d.Index)

	var s ModuleCallSignature
	require.NoError(t, Unmarshal([]byte(`{"forward_arg_names": null}`), &s))
	assert.Nil(t, s.ForwardArgNames)
	require.NoError(t, Unmarshal([]byte(`{"forward_arg_names": []}`), &s))
	assert.NotNil(t, s.ForwardArgNames)
}

func TestDecodeErrors(t *testing.T) {
	const v = `"schema_version": {"major": 8, "minor": 20}`
	for _, c := range []struct{ in, want string }{
		{`[]`, "want an object"},
		{`{"graph_module": {}}`, "no schema_version"},
		{`{"schema_version": {"major": 9, "minor": 0}}`, "unsupported schema version 9.0"},
		{`{"schema_version": {"major": 8, "minor": 2, "patch": 1}}`, `schema_version: unknown field "patch" of SchemaVersion`},
		{`{` + v + `, "bogus": 1}`, `schema 8.20: (top level): unknown field "bogus" of ExportedProgram`},
		{`{` + v + `, "graph_module": {"graph": {"nodes": [{"target": "x", "inputs": [{"name": "a", "arg": {"as_foo": 1}}]}]}}}`,
			`schema 8.20: graph_module.graph.nodes[0].inputs[0].arg: unknown union tag "as_foo" for Argument`},
		{`{` + v + `, "graph_module": {"graph": {"inputs": [{}]}}}`, `graph_module.graph.inputs[0]: Argument is a union: want one key, got 0`},
		{`{` + v + `, "graph_module": {"graph": {"inputs": [{"as_int": 1, "as_none": true}]}}}`, `want one key, got 2`},
		{`{` + v + `, "graph_module": {"graph": {"tensor_values": {"x": {"dtype": 99}}}}}`,
			`graph_module.graph.tensor_values."x".dtype: value 99 is out of range for ScalarType`},
		{`{` + v + `, "graph_module": {"graph": {"tensor_values": {"x": {"layout": 8}}}}}`, `out of range for Layout`},
		{`{` + v + `, "graph_module": {"graph": {"nodes": [{"inputs": [{"kind": 3}]}]}}}`, `out of range for ArgumentKind`},
		{`{` + v + `, "opset_version": {"aten": "10"}}`, `opset_version."aten": got a JSON string, want a number for int`},
		{`{` + v + `, "opset_version": {"aten": 1.5}}`, `1.5 is not a 64-bit integer`},
		{`{` + v + `, "opset_version": {"aten": 99999999999999999999}}`, `not a 64-bit integer`},
		{`{` + v + `, "verifiers": null}`, `verifiers: null for a field of type list of string that is not Optional`},
		{`{` + v + `, "graph_module": {"graph": {"inputs": [{"as_tensor": null}]}}}`, `null value for a union member`},
		{`{` + v + `, "torch_version": 2}`, `torch_version: got a JSON number, want a string`},
		{`{` + v + `, "verifiers": [1]}`, `verifiers[0]: got a JSON number`},
		{`{` + v + `,}`, `expected a string key`},
		{`{` + v + `, "a": 1, "a": 2}`, `duplicate key "a"`},
		{`{` + v, `unterminated object`},
		{`{` + v + `} x`, `after the top-level value`},
		{"{\"a\": \"\x01\"}", `control character`},
		{`{"a": 01}`, `leading zero`},
		{`{"a": "\u12"}`, `malformed \u escape`},
		{strings.Repeat("[", 10000), `nesting deeper`},
	} {
		_, err := Decode([]byte(c.in))
		if assert.Error(t, err, c.in) {
			assert.Contains(t, err.Error(), c.want, c.in)
		}
	}
}

func TestEncodeErrors(t *testing.T) {
	one := int64(1)
	yes := true
	name := "n"
	kind := ArgumentKindPositional
	_, err := Marshal(Argument{AsInt: &one, AsNone: &yes}, StyleCurrent)
	assert.ErrorContains(t, err, `want exactly one member set, have 2 ["as_none" "as_int"]`)
	_, err = Marshal(Argument{}, StyleCurrent)
	assert.ErrorContains(t, err, `have 0`)
	_, err = Marshal(TensorMeta{Dtype: 14}, StyleCurrent)
	assert.ErrorContains(t, err, `dtype: value 14 is out of range for ScalarType`)
	_, err = Marshal(Node{Name: &name}, StyleLegacy)
	assert.ErrorContains(t, err, `name: Node.name needs schema 8.3 or later`)
	_, err = Marshal(NamedArgument{Arg: Argument{AsInt: &one}, Kind: &kind}, StyleLegacy)
	assert.ErrorContains(t, err, `kind: NamedArgument.kind needs schema 8.3`)
	_, err = Marshal(Argument{AsIntLists: [][]int64{{1}}}, StyleLegacy)
	assert.ErrorContains(t, err, `Argument.as_int_lists needs schema 8.3`)
	_, err = Encode(&ExportedProgram{SchemaVersion: SchemaVersion{7, 0}})
	assert.ErrorContains(t, err, `cannot write schema version 7.0`)
	_, err = Encode(nil)
	assert.Error(t, err)
}

func TestStyles(t *testing.T) {
	n := Node{Target: "t", Inputs: []NamedArgument{}, Metadata: map[string]string{"b": "2", "a": "1"}}
	cur, err := Marshal(n, StyleCurrent)
	require.NoError(t, err)
	assert.Equal(t, `{"target": "t", "inputs": [], "outputs": [], "metadata": {"a": "1", "b": "2"}, "is_hop_single_tensor_return": null, "name": null}`, string(cur))
	leg, err := Marshal(n, StyleLegacy)
	require.NoError(t, err)
	assert.Equal(t, `{"target": "t", "inputs": [], "outputs": [], "metadata": {"a": "1", "b": "2"}}`, string(leg))

	e := ModuleCallEntry{Fqn: "a"}
	cur, _ = Marshal(e, StyleCurrent)
	leg, _ = Marshal(e, StyleLegacy)
	assert.Equal(t, `{"fqn": "a", "signature": null}`, string(cur))
	assert.Equal(t, `{"fqn": "a"}`, string(leg))

	// PayloadMeta.tensor_meta is Optional without a default: always written.
	leg, _ = Marshal(PayloadMeta{PathName: "w"}, StyleLegacy)
	assert.Equal(t, `{"path_name": "w", "is_param": false, "use_pickle": false, "tensor_meta": null}`, string(leg))
}

func TestNaturalOrder(t *testing.T) {
	keys := []string{"s11", "s6", "u10", "u2", "s06", "a", "", "s", "s6a", "x1y10", "x1y9", "s0"}
	slices.SortFunc(keys, naturalCompare)
	assert.Equal(t, []string{"", "a", "s", "s0", "s06", "s6", "s6a", "s11", "u2", "u10", "x1y9", "x1y10"}, keys)
	assert.Equal(t, `"a\u00e9"`, Quote("aé"))
}

// TestLegacy turns every 2.14 program into 8.2's form: it encodes in the
// legacy style and keeps everything but the informational 8.3+ fields.
func TestLegacy(t *testing.T) {
	n := 0
	for path, data := range programJSONs(t) {
		if !strings.Contains(path, "torch-2.14") {
			continue
		}
		n++
		p, err := Decode(data)
		require.NoError(t, err)
		q, err := p.Legacy()
		require.NoError(t, err, path)
		assert.Equal(t, SchemaVersion{8, 2}, q.SchemaVersion)
		out, err := Encode(q)
		require.NoError(t, err, path)
		assert.NotContains(t, string(out), `"kind"`)
		assert.NotContains(t, string(out), `"guards_code"`)
		r, err := Decode(out)
		require.NoError(t, err)
		assert.Equal(t, len(p.GraphModule.Graph.Nodes), len(r.GraphModule.Graph.Nodes))
		assert.Equal(t, p.GraphModule.Signature, r.GraphModule.Signature)
		assert.NotNil(t, p.GraphModule.Graph.Nodes[0].Name, "the original is untouched")
	}
	assert.Positive(t, n)
}

func TestLegacyRefuses(t *testing.T) {
	bad := &ExportedProgram{SchemaVersion: SchemaVersion{8, 20}}
	bad.GraphModule.Graph.Outputs = []Argument{{AsIntLists: [][]int64{{1}}}}
	_, err := bad.Legacy()
	assert.ErrorContains(t, err, "cannot write as 8.2: graph_module.graph.outputs[0].as_int_lists: Argument.as_int_lists has no 8.2 form")
}

// TestTag: a union's tag is the py name of its set field.
func TestTag(t *testing.T) {
	i, b := int64(3), true
	for _, tt := range []struct {
		u    any
		want string
	}{
		{&Argument{AsInt: &i}, "as_int"},
		{&Argument{AsNone: &b}, "as_none"},
		{&Argument{AsTensors: []TensorArgument{}}, "as_tensors"},
		{&SymInt{AsInt: &i}, "as_int"},
		{&Argument{}, ""},
		{(*Argument)(nil), ""},
		{&TensorArgument{Name: "x"}, ""},
		{3, ""},
	} {
		assert.Equal(t, tt.want, Tag(tt.u), "%#v", tt.u)
	}
}
