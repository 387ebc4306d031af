package archive

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/gofx/gofx/torchio/pickle"
)

// sharedPT2 is ../shared/pt2 seen from this package.
const sharedPT2 = "../../../shared/pt2"

// sharedFiles returns every .pt2 file PyTorch 2.6 and 2.14 wrote under
// ../shared/pt2; it skips when there are none.
func sharedFiles(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(sharedPT2, "*.pt2"))
	more, _ := filepath.Glob(filepath.Join(sharedPT2, "torch-2.14", "*.pt2"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Skipf("no .pt2 files under %s", sharedPT2)
	}
	return files
}

func label(path string) string {
	return filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
}

// storageBytes is t's whole storage as PyTorch stores it.
func storageBytes(t *testing.T, x *tensor.Tensor) []byte {
	var b bytes.Buffer
	require.NoError(t, torchio.WriteStorage(&b, x))
	return b.Bytes()
}

// valueBytes is t's elements in row-major order, as bytes.
func valueBytes(t *testing.T, x *tensor.Tensor) []byte {
	return storageBytes(t, x.Contiguous())
}

// sameTensor checks dtype, shape, strides, offset and the whole storage,
// bitwise.
func sameTensor(t *testing.T, want, got *tensor.Tensor, what string) {
	t.Helper()
	require.NotNil(t, got, what)
	assert.Equal(t, want.DType(), got.DType(), what)
	assert.Equal(t, want.Shape(), got.Shape(), what)
	assert.Equal(t, want.Strides(), got.Strides(), what)
	assert.Equal(t, want.Offset(), got.Offset(), what)
	assert.True(t, bytes.Equal(storageBytes(t, want), storageBytes(t, got)), "%s: storage bytes differ", what)
}

// sameModel checks that two models hold the same program, bitwise-equal
// tensors with the same sharing, and equal example inputs.
func sameModel(t *testing.T, want, got *Model) {
	t.Helper()
	if diff := cmp.Diff(want.Program, got.Program, cmpopts.EquateEmpty(), cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("model %q: programs differ (-want +got):\n%s", want.Name, diff)
	}
	require.Len(t, got.Weights, len(want.Weights))
	for _, w := range want.Weights {
		g := got.Weight(w.Name)
		require.NotNil(t, g, "weight %q", w.Name)
		assert.Equal(t, w.IsParam, g.IsParam, "weight %q", w.Name)
		assert.Equal(t, w.RequiresGrad, g.RequiresGrad, "weight %q", w.Name)
		sameTensor(t, w.Tensor, g.Tensor, "weight "+w.Name)
		for _, w2 := range want.Weights {
			assert.Equal(t, w.Tensor.SharesStorage(w2.Tensor), g.Tensor.SharesStorage(got.Weight(w2.Name).Tensor),
				"sharing of weights %q and %q", w.Name, w2.Name)
		}
	}
	require.Len(t, got.Constants, len(want.Constants))
	for _, c := range want.Constants {
		g := got.Constant(c.Name)
		require.NotNil(t, g, "constant %q", c.Name)
		assert.Equal(t, c.Object, g.Object)
		if c.Tensor != nil {
			sameTensor(t, c.Tensor, g.Tensor, "constant "+c.Name)
		}
	}
	sameValue(t, want.ExampleInputs, got.ExampleInputs, "example inputs")
}

func sameValue(t *testing.T, want, got pickle.Value, path string) {
	t.Helper()
	switch w := want.(type) {
	case *tensor.Tensor:
		g, ok := got.(*tensor.Tensor)
		require.True(t, ok, "%s: %s", path, pickle.TypeName(got))
		assert.Equal(t, w.DType(), g.DType(), path)
		assert.Equal(t, w.Shape(), g.Shape(), path)
		assert.True(t, bytes.Equal(valueBytes(t, w), valueBytes(t, g)), path)
	case pickle.Tuple:
		g, ok := got.(pickle.Tuple)
		require.True(t, ok, "%s: %s", path, pickle.TypeName(got))
		require.Len(t, g, len(w), path)
		for i := range w {
			sameValue(t, w[i], g[i], path+"[]")
		}
	case *pickle.List:
		g, ok := got.(*pickle.List)
		require.True(t, ok, "%s: %s", path, pickle.TypeName(got))
		require.Len(t, g.Items, len(w.Items), path)
		for i := range w.Items {
			sameValue(t, w.Items[i], g.Items[i], path+"[]")
		}
	case *pickle.Dict:
		g, ok := got.(*pickle.Dict)
		require.True(t, ok, "%s: %s", path, pickle.TypeName(got))
		assert.Equal(t, w.Keys(), g.Keys(), path)
		for i := range w.Keys() {
			sameValue(t, w.Values()[i], g.Values()[i], path+"."+pickle.TypeName(w.Keys()[i]))
		}
	default:
		assert.Equal(t, want, got, path)
	}
}

func roundTrip(t *testing.T, a *Archive, layout Layout) *Archive {
	t.Helper()
	c := *a
	c.Layout = layout
	if layout == LayoutZip {
		c.Root = ""
		c.Version = ""
		c.Other = nil
	} else if a.Layout == LayoutZip {
		c.Root = "model"
		c.Version = ""
	}
	var buf bytes.Buffer
	require.NoError(t, c.Write(&buf))
	var again bytes.Buffer
	require.NoError(t, c.Write(&again))
	assert.True(t, bytes.Equal(buf.Bytes(), again.Bytes()), "writing is deterministic")
	b, err := Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	assert.Equal(t, layout, b.Layout)
	require.Len(t, b.Models, len(a.Models))
	for i := range a.Models {
		sameModel(t, a.Models[i], b.Models[i])
	}
	assert.Equal(t, a.ExtraFiles, b.ExtraFiles)
	return b
}

// TestRoundTrip reads every file PyTorch wrote, writes it in both layouts
// and reads it back.
func TestRoundTrip(t *testing.T) {
	for _, path := range sharedFiles(t) {
		t.Run(label(path), func(t *testing.T) {
			a, err := Load(path)
			require.NoError(t, err)
			require.Len(t, a.Models, 1)
			if strings.Contains(path, "torch-2.14") {
				assert.Equal(t, LayoutPT2, a.Layout)
				assert.Equal(t, strings.TrimSuffix(filepath.Base(path), ".pt2"), a.Root)
			} else {
				assert.Equal(t, LayoutZip, a.Layout)
				assert.Equal(t, "8.2", a.Version)
			}
			roundTrip(t, a, a.Layout)
			other := LayoutPT2
			if a.Layout == LayoutPT2 {
				other = LayoutZip
				// PyTorch 2.6 cannot read 8.20's fields; the zip layout
				// takes any 8.x program, so the round trip keeps them.
			}
			roundTrip(t, a, other)
		})
	}
}

// epJSON is the part of NAME.ep.json these tests use.
type epJSON struct {
	Program struct {
		InputSpecs []struct {
			Kind       string `json:"kind"`
			Target     *string
			Persistent *bool
		} `json:"input_specs"`
	} `json:"program"`
	Records map[string]int64 `json:"records"`
}

// TestAgainstPyTorch checks what Read finds against PyTorch's own
// description of each file (NAME.ep.json, NAME.io.json): every parameter,
// buffer and constant of the signature where PyTorch keeps it, and the
// example inputs' leaves equal to the inputs PyTorch recorded. For PT2
// archives it also checks that writing gives PyTorch's record names and
// sizes.
func TestAgainstPyTorch(t *testing.T) {
	for _, path := range sharedFiles(t) {
		if strings.HasSuffix(path, ".core.pt2") {
			continue // ep.json describes the core program's signature too, but records only NAME.pt2's
		}
		t.Run(label(path), func(t *testing.T) {
			base := strings.TrimSuffix(path, ".pt2")
			var ep epJSON
			b, err := os.ReadFile(base + ".ep.json")
			if err != nil {
				t.Skipf("no %s.ep.json", base)
			}
			require.NoError(t, json.Unmarshal(b, &ep))
			a, err := Load(path)
			require.NoError(t, err)
			m := a.Models[0]
			for _, s := range ep.Program.InputSpecs {
				switch {
				case s.Kind == "PARAMETER":
					w := m.Weight(*s.Target)
					if assert.NotNil(t, w, *s.Target) {
						assert.True(t, w.IsParam, *s.Target)
					}
				case s.Kind == "BUFFER" && *s.Persistent:
					w := m.Weight(*s.Target)
					if assert.NotNil(t, w, *s.Target) {
						assert.False(t, w.IsParam, *s.Target)
					}
				case s.Kind == "BUFFER" || s.Kind == "CONSTANT_TENSOR":
					c := m.Constant(*s.Target)
					if assert.NotNil(t, c, *s.Target) {
						assert.NotNil(t, c.Tensor, *s.Target)
					}
				}
			}
			checkInputs(t, base+".io.json", m)

			if a.Layout != LayoutPT2 {
				return
			}
			var buf bytes.Buffer
			require.NoError(t, a.Write(&buf))
			names := map[string]int64{}
			for _, f := range mustZip(t, buf.Bytes()).File {
				names[f.Name] = int64(f.UncompressedSize64)
			}
			// The payload configs are PyTorch's, byte for byte.
			ours := map[string][]byte{}
			for _, r := range recordsOf(t, buf.Bytes()) {
				ours[r.name] = r.data
			}
			orig, err := os.ReadFile(path)
			require.NoError(t, err)
			for _, r := range recordsOf(t, orig) {
				if strings.HasSuffix(r.name, "_config.json") {
					assert.Equal(t, string(r.data), string(ours[r.name]), r.name)
				}
			}
			for name, size := range ep.Records {
				switch {
				case strings.HasSuffix(name, ".data/serialization_id"):
					assert.NotContains(t, names, name)
				case strings.HasSuffix(name, ".pt"):
					assert.Contains(t, names, name) // torch.save details differ
				default:
					assert.Equal(t, size, names[name], "record %s", name)
				}
			}
		})
	}
}

// ioJSON is NAME.io.json's inputs: ARG values.
type ioJSON struct {
	Inputs []map[string]json.RawMessage `json:"inputs"`
}

// leaves flattens (args, kwargs) as pytree does: tuples, lists and dict
// values in order.
func leaves(v pickle.Value, out []pickle.Value) []pickle.Value {
	switch v := v.(type) {
	case pickle.Tuple:
		for _, e := range v {
			out = leaves(e, out)
		}
	case *pickle.List:
		for _, e := range v.Items {
			out = leaves(e, out)
		}
	case *pickle.Dict:
		for _, e := range v.Values() {
			out = leaves(e, out)
		}
	default:
		out = append(out, v)
	}
	return out
}

func checkInputs(t *testing.T, ioPath string, m *Model) {
	t.Helper()
	b, err := os.ReadFile(ioPath)
	if err != nil {
		t.Logf("no %s", ioPath)
		return
	}
	var io ioJSON
	require.NoError(t, json.Unmarshal(b, &io))
	require.NotNil(t, m.ExampleInputs)
	_, _, err = m.Args()
	require.NoError(t, err)
	got := leaves(m.ExampleInputs, nil)
	require.Len(t, got, len(io.Inputs), "example input leaves")
	for i, arg := range io.Inputs {
		switch {
		case arg["tensor"] != nil:
			var tj struct {
				Dtype string `json:"dtype"`
				Shape []int  `json:"shape"`
				Data  string `json:"data"`
			}
			require.NoError(t, json.Unmarshal(arg["tensor"], &tj))
			x, ok := got[i].(*tensor.Tensor)
			require.True(t, ok, "input %d is %s", i, pickle.TypeName(got[i]))
			assert.Equal(t, tj.Dtype, x.DType().String(), "input %d", i)
			assert.Equal(t, tj.Shape, x.Shape(), "input %d", i)
			want, err := base64.StdEncoding.DecodeString(tj.Data)
			require.NoError(t, err)
			assert.Equal(t, want, valueBytes(t, x), "input %d", i)
		case arg["int"] != nil:
			var n int64
			require.NoError(t, json.Unmarshal(arg["int"], &n))
			assert.Equal(t, n, got[i], "input %d", i)
		case arg["float"] != nil:
			var f float64
			require.NoError(t, json.Unmarshal(arg["float"], &f))
			assert.Equal(t, math.Float64bits(f), math.Float64bits(got[i].(float64)), "input %d", i)
		default:
			t.Fatalf("input %d: unexpected ARG %v", i, arg)
		}
	}
}

// TestParseLayout checks the names of the layouts, which gofx export
// -format takes: the zero Layout is the zip, String and ParseLayout are
// inverses, and other names are errors.
func TestParseLayout(t *testing.T) {
	var zero Layout
	assert.Equal(t, LayoutZip, zero)
	for _, tc := range []struct {
		name string
		want Layout
	}{{"legacy", LayoutZip}, {"archive", LayoutPT2}} {
		got, err := ParseLayout(tc.name)
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, got)
		assert.Equal(t, tc.name, got.String())
	}
	for _, bad := range []string{"", "zip2", "Legacy", "pt3"} {
		_, err := ParseLayout(bad)
		assert.ErrorContains(t, err, "unknown layout", bad)
	}
	assert.Equal(t, "Layout(7)", Layout(7).String())
}
