package torchio_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

// fixtureEntry is one tensor of fixtures.json, as PyTorch loaded it.
type fixtureEntry struct {
	Name    string        `json:"name"`
	DType   string        `json:"dtype"`
	Shape   []int         `json:"shape"`
	Stride  []int         `json:"stride"`
	Offset  int           `json:"offset"`
	Storage int           `json:"storage"`
	Values  []json.Number `json:"-"`
	RawVals []any         `json:"values"`
	Sum     *float64      `json:"sum"`
	AbsSum  *float64      `json:"abs_sum"`
	First   []any         `json:"first"`
	Last    []any         `json:"last"`
}

func loadFixtures(t testing.TB) map[string][]fixtureEntry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "fixtures.json"))
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var fx map[string][]fixtureEntry
	require.NoError(t, dec.Decode(&fx))
	return fx
}

// fixtureFile returns the path of a fixture, or "" if it is resnet18 and
// ../shared/models is absent.
func fixtureFile(name string) string {
	if name == "resnet18.state_dict.pt" {
		for _, dir := range []string{"../../shared/models"} {
			p := filepath.Join(dir, name)
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
		return ""
	}
	return filepath.Join("testdata", name)
}

// expectValue checks a value from fixtures.json (a json.Number, a bool or
// "nan"/"inf"/"-inf") against element i of got.
func expectValue(t *testing.T, dt tensor.DType, want any, got *tensor.Tensor, i int, what string) {
	t.Helper()
	switch w := want.(type) {
	case bool:
		assert.Equal(t, w, tensor.Values[bool](got)[i], what)
	case string:
		g := got.Float64s()[i]
		switch w {
		case "nan":
			assert.True(t, math.IsNaN(g), "%s: got %v, want NaN", what, g)
		case "inf":
			assert.True(t, math.IsInf(g, 1), "%s: got %v, want +Inf", what, g)
		case "-inf":
			assert.True(t, math.IsInf(g, -1), "%s: got %v, want -Inf", what, g)
		default:
			t.Fatalf("%s: bad expected value %q", what, w)
		}
	case json.Number:
		if dt.IsFloat() {
			f, err := w.Float64()
			require.NoError(t, err)
			g := got.Float64s()[i]
			assert.Equal(t, math.Float64bits(f), math.Float64bits(g), "%s: got %v, want %v", what, g, f)
			return
		}
		n, err := w.Int64()
		require.NoError(t, err)
		assert.Equal(t, n, got.Int64s()[i], what)
	default:
		t.Fatalf("%s: bad expected value %T", what, want)
	}
}

// checkAgainst compares a loaded state dict with PyTorch's description.
func checkAgainst(t *testing.T, sd *torchio.StateDict, want []fixtureEntry) {
	t.Helper()
	names := make([]string, len(want))
	for i, e := range want {
		names[i] = e.Name
	}
	require.Equal(t, names, sd.Names())
	got := make([]*tensor.Tensor, len(want))
	for i, e := range want {
		g, ok := sd.Get(e.Name)
		require.True(t, ok, e.Name)
		got[i] = g
		assert.Equal(t, e.DType, g.DType().String(), "%s dtype", e.Name)
		assert.Equal(t, e.Shape, g.Shape(), "%s shape", e.Name)
		assert.Equal(t, e.Stride, g.Strides(), "%s stride", e.Name)
		assert.Equal(t, e.Offset, g.Offset(), "%s offset", e.Name)
		if e.RawVals != nil {
			require.Len(t, e.RawVals, g.Numel(), e.Name)
			for j, v := range e.RawVals {
				expectValue(t, g.DType(), v, g, j, fmt.Sprintf("%s[%d]", e.Name, j))
			}
		}
		if e.Sum != nil {
			var sum, abs float64
			for _, v := range g.Float64s() {
				sum += v
				abs += math.Abs(v)
			}
			assert.InDelta(t, *e.Sum, sum, 1e-9*(1+*e.AbsSum), "%s sum", e.Name)
			assert.InDelta(t, *e.AbsSum, abs, 1e-9*(1+*e.AbsSum), "%s abs sum", e.Name)
			for j, v := range e.First {
				expectValue(t, g.DType(), v, g, j, fmt.Sprintf("%s[%d]", e.Name, j))
			}
			for _, v := range e.Last {
				expectValue(t, g.DType(), v, g, g.Numel()-1, e.Name+"[-1]")
			}
		}
	}
	// Storage sharing: same group in PyTorch iff same storage here.
	for i := range want {
		for j := i + 1; j < len(want); j++ {
			if got[i].Numel() == 0 || got[j].Numel() == 0 {
				continue
			}
			assert.Equal(t, want[i].Storage == want[j].Storage, got[i].SharesStorage(got[j]),
				"storage sharing of %s and %s", want[i].Name, want[j].Name)
		}
	}
}

func TestLoadFixtures(t *testing.T) {
	fx := loadFixtures(t)
	files := make([]string, 0, len(fx))
	for f := range fx {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			path := fixtureFile(name)
			if path == "" {
				t.Skipf("%s is not in ../shared/models; skipping", name)
			}
			sd, err := torchio.Load(path)
			require.NoError(t, err)
			checkAgainst(t, sd, fx[name])
		})
	}
}

func TestViewsShareStorage(t *testing.T) {
	sd, err := torchio.Load("testdata/views.pt")
	require.NoError(t, err)
	a, _ := sd.Get("a")
	b, _ := sd.Get("b")
	// A write through one view is seen through the other, as in PyTorch.
	tensor.Data[float32](a)[4] = 100
	assert.Equal(t, float32(100), tensor.Values[float32](b)[0])
}

func TestLoadMissingFile(t *testing.T) {
	_, err := torchio.Load("testdata/no-such-file.pt")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "torchio:")
}
