package torchscript

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/runtime"
	"github.com/gofx/gofx/torchscript/types"
)

// enumWithCase is one call of testdata/enumwith/enumwith.expected.json:
// what PyTorch 2.6 returned (gen_enumwith.py).
type enumWithCase struct {
	Archive string
	Method  string
	Inputs  []any
	Output  any
}

// enumWithTensor is a tensor of the expected file.
type enumWithTensor struct {
	Tensor []any // float64, or "inf", "-inf", "nan"
	Shape  []int
	Dtype  string
}

// TestEnumsAndWith runs enums (attributes from the pickle, constants,
// ==, !=, .name, .value, str) and with statements (a TorchScript class's
// __enter__ and __exit__, torch.no_grad()) on testdata/enumwith's archive
// and on the frontend's nograd.pt and the archive package's
// misc.script.pt (an enum attribute), against PyTorch 2.6's results.
func TestEnumsAndWith(t *testing.T) {
	data, err := os.ReadFile("testdata/enumwith/enumwith.expected.json")
	require.NoError(t, err)
	var exp struct{ Cases []json.RawMessage }
	require.NoError(t, json.Unmarshal(data, &exp))
	require.NotEmpty(t, exp.Cases)
	mods := map[string]*Module{}
	for _, raw := range exp.Cases {
		var c enumWithCase
		require.NoError(t, json.Unmarshal(raw, &c))
		t.Run(c.Archive+"/"+c.Method, func(t *testing.T) {
			path := filepath.Join("testdata", c.Archive)
			if c.Archive != "enumwith/enumwith.script.pt" {
				path = filepath.Join(".", c.Archive) // ./frontend/..., ./archive/...
			}
			m, ok := mods[path]
			if !ok {
				m, err = Load(path)
				require.NoError(t, err)
				mods[path] = m
			}
			f, err := m.Method(c.Method)
			require.NoError(t, err)
			g, err := f.Function().Compiled()
			require.NoError(t, err)
			params := g.Inputs()[1:] // after self
			require.Len(t, params, len(c.Inputs))
			var args []any
			for i, in := range c.Inputs {
				args = append(args, enumWithInput(t, in, params[i].Type))
			}
			out, err := f.Run(args...)
			require.NoError(t, err)
			assertEnumWith(t, c.Output, out, "output")
		})
	}
}

// enumWithInput makes an argument of type typ: an int, a tensor, an enum
// member (by name) or a NamedTuple (as a list).
func enumWithInput(t *testing.T, in any, typ types.Type) any {
	switch x := in.(type) {
	case float64:
		return int64(x)
	case []any:
		tt, ok := typ.(*types.Tuple)
		require.True(t, ok, "a list input for a %s", typ)
		require.Len(t, tt.Elems, len(x))
		items := make([]any, len(x))
		for i, e := range x {
			items[i] = enumWithInput(t, e, tt.Elems[i])
		}
		out := runtime.NewTuple(items...)
		out.Names, out.Type = tt.Names, tt.Name
		return out
	case map[string]any:
		if name, ok := x["enum"].(string); ok {
			et, ok := typ.(*types.Enum)
			require.True(t, ok, "an enum input for a %s", typ)
			v := x["value"]
			if f, ok := v.(float64); ok && types.Equal(et.Value, types.Int) {
				v = int64(f)
			}
			return runtime.Enum{Type: et, Name: name, Value: v}
		}
		var et enumWithTensor
		b, _ := json.Marshal(x)
		require.NoError(t, json.Unmarshal(b, &et))
		v := make([]float32, len(et.Tensor))
		for i, e := range et.Tensor {
			v[i] = float32(jsonFloat(t, e))
		}
		return tensor.Must(tensor.FromSlice(v, et.Shape...))
	}
	t.Fatalf("input %v: expected a number or a tensor", in)
	return nil
}

// jsonFloat reads a tensor element of the expected file.
func jsonFloat(t *testing.T, v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case string:
		f, err := strconv.ParseFloat(x, 64)
		require.NoError(t, err)
		return f
	}
	t.Fatalf("tensor element %v: expected a number", v)
	return 0
}

// assertEnumWith compares a runtime value with the JSON PyTorch's value
// became (lists and tuples as arrays, tensors as objects).
func assertEnumWith(t *testing.T, want, got any, at string) {
	t.Helper()
	switch w := want.(type) {
	case []any:
		var items []any
		switch g := got.(type) {
		case *runtime.List:
			items = g.Items
		case *runtime.Tuple:
			items = g.Items
		default:
			t.Errorf("%s: expected a list or tuple, got %s", at, runtime.TypeName(got))
			return
		}
		if !assert.Len(t, items, len(w), at) {
			return
		}
		for i := range w {
			assertEnumWith(t, w[i], items[i], at+"["+runtime.Repr(int64(i))+"]")
		}
	case map[string]any:
		g, ok := got.(*tensor.Tensor)
		if !assert.True(t, ok, "%s: expected a tensor, got %s", at, runtime.TypeName(got)) {
			return
		}
		var et enumWithTensor
		b, _ := json.Marshal(w)
		require.NoError(t, json.Unmarshal(b, &et))
		assert.Equal(t, et.Shape, g.Shape(), at)
		gv := tensor.Values[float32](g)
		require.Len(t, gv, len(et.Tensor), at)
		for i, e := range et.Tensor {
			w, g := jsonFloat(t, e), float64(gv[i])
			if math.IsInf(w, 0) || math.IsNaN(w) {
				assert.Equal(t, math.Float64bits(w), math.Float64bits(g), "%s[%d]: %v, want %v", at, i, g, w)
				continue
			}
			assert.InDelta(t, w, g, 1e-5, "%s[%d]", at, i)
		}
	case float64:
		switch g := got.(type) {
		case int64:
			assert.Equal(t, w, float64(g), at)
		case float64:
			assert.Equal(t, w, g, at)
		default:
			t.Errorf("%s: expected a number, got %s", at, runtime.TypeName(got))
		}
	default:
		if e, ok := got.(runtime.Enum); ok {
			v := e.Value
			if i, ok := v.(int64); ok {
				v = float64(i)
			}
			assert.Equal(t, want, map[string]any{"enum": e.Name, "value": v}, at)
			return
		}
		assert.Equal(t, want, got, at)
	}
}

// TestEnumValues: str, repr, == and isinstance of enum values, and their
// conversion from an archive's pickled enum (misc.script.pt's color is
// Color.GREEN, PyTorch's gen_archives.py).
func TestEnumValues(t *testing.T) {
	m, err := Load("archive/testdata/misc.script.pt")
	require.NoError(t, err)
	v, ok := m.Attr("color")
	require.True(t, ok)
	e, ok := v.(runtime.Enum)
	require.True(t, ok, "got %T", v)
	assert.Equal(t, "GREEN", e.Name)
	assert.Equal(t, int64(2), e.Value)
	assert.Equal(t, "__torch__.Color", e.ClassName())
	assert.Equal(t, "Enum<Color.GREEN>", runtime.Str(e))
	assert.Equal(t, "__torch__.Color.GREEN", runtime.Repr(e))
	assert.True(t, runtime.Isinstance(e, e.Type))
	eq, err := runtime.Equal(e, runtime.Enum{Type: e.Type, Name: "GREEN", Value: int64(2)})
	require.NoError(t, err)
	assert.True(t, eq)
	eq, err = runtime.Equal(e, runtime.Enum{Type: e.Type, Name: "RED", Value: int64(1)})
	require.NoError(t, err)
	assert.False(t, eq)
	eq, err = runtime.Equal(e, int64(2))
	require.NoError(t, err)
	assert.False(t, eq, "an enum is not its value")
}
