package torchio_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

var pyDir = flag.String("pydir", "", "write Go-saved files here for testdata/check_save.py")

// roundTrip writes sd and reads it back.
func roundTrip(t *testing.T, sd *torchio.StateDict) *torchio.StateDict {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, torchio.Write(&buf, sd))
	out, err := torchio.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	return out
}

func TestRoundTripFixtures(t *testing.T) {
	for name, want := range loadFixtures(t) {
		t.Run(name, func(t *testing.T) {
			path := fixtureFile(name)
			if path == "" {
				t.Skipf("%s is not in ../shared/models; skipping", name)
			}
			sd, err := torchio.Load(path)
			require.NoError(t, err)
			checkAgainst(t, roundTrip(t, sd), want)
		})
	}
}

// built returns a state dict made in Go, and its expected contents for
// check_save.py.
func built(t testing.TB) (*torchio.StateDict, map[string]any) {
	sd := torchio.NewStateDict()
	w := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	sd.Set("fc.weight", w)
	sd.Set("fc.weight_t", tensor.Must(w.T()))
	sd.Set("fc.row", tensor.Must(w.Select(0, 1)))
	sd.Set("half", tensor.Must(tensor.FromSlice([]tensor.Half{tensor.HalfFromFloat32(0.5), tensor.HalfFromFloat32(-3)})))
	sd.Set("bhalf", tensor.Must(tensor.FromSlice([]tensor.BHalf{tensor.BHalfFromFloat32(1.5)}, []int{}...)))
	sd.Set("big", tensor.Must(tensor.FromSlice([]int64{-1 << 62, 1 << 40, 7})))
	sd.Set("mask", tensor.Must(tensor.FromSlice([]bool{true, false})))
	sd.Set("bytes", tensor.Must(tensor.FromSlice([]uint8{0, 200}, 1, 2)))
	sd.Set("small", tensor.Must(tensor.FromSlice([]int8{-5}, []int{}...)))
	sd.Set("empty", tensor.Must(tensor.New(tensor.Float64, 0, 3)))
	ar := tensor.Must(tensor.Arange(tensor.Int32, 0, 300, 1))
	sd.Set("long_shape", tensor.Must(ar.View(2, 3, 5, 2, 5)))
	sd.Set("num_batches_tracked", tensor.Scalar[int64](0))
	want := map[string]any{}
	for name, t := range sd.All() {
		want[name] = map[string]any{
			"dtype": t.DType().String(), "shape": t.Shape(), "stride": t.Strides(),
			"offset": t.Offset(), "values": t.Float64s(),
		}
	}
	want["order"] = sd.Names()
	want["shared"] = [][]string{{"fc.weight", "fc.weight_t", "fc.row"}}
	return sd, want
}

func TestRoundTripBuilt(t *testing.T) {
	sd, _ := built(t)
	got := roundTrip(t, sd)
	require.Equal(t, sd.Names(), got.Names())
	for name, want := range sd.All() {
		g, _ := got.Get(name)
		assert.Equal(t, want.DType(), g.DType(), name)
		assert.Equal(t, want.Shape(), g.Shape(), name)
		assert.Equal(t, want.Strides(), g.Strides(), name)
		assert.Equal(t, want.Offset(), g.Offset(), name)
		assert.True(t, tensor.Equal(want, g), name)
	}
	w, _ := got.Get("fc.weight")
	wt, _ := got.Get("fc.weight_t")
	row, _ := got.Get("fc.row")
	assert.True(t, w.SharesStorage(wt))
	assert.True(t, w.SharesStorage(row))
	b, _ := got.Get("big")
	assert.False(t, w.SharesStorage(b))
}

func TestWriteAlignment(t *testing.T) {
	sd, _ := built(t)
	var buf bytes.Buffer
	require.NoError(t, torchio.Write(&buf, sd))
	zr := mustZip(t, buf.Bytes())
	for _, f := range zr.File {
		assert.True(t, strings.HasPrefix(f.Name, "archive/"), f.Name)
		off, err := f.DataOffset()
		require.NoError(t, err)
		assert.Zero(t, off%64, "%s starts at %d", f.Name, off)
		assert.Equal(t, uint16(0), f.Method, f.Name) // stored
	}
}

func TestWriteErrors(t *testing.T) {
	meta := torchio.NewStateDict()
	meta.Set("m", tensor.Must(tensor.NewMeta(tensor.Float32, 2)))
	badName := torchio.NewStateDict()
	badName.Set("\xff", tensor.Scalar[float32](1))
	for _, tc := range []struct {
		name string
		sd   *torchio.StateDict
		want string
	}{
		{"meta tensor", meta, "meta tensor"},
		{"invalid UTF-8 name", badName, "not valid UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := torchio.Write(&bytes.Buffer{}, tc.sd)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestSaveLoadFile(t *testing.T) {
	sd, _ := built(t)
	path := filepath.Join(t.TempDir(), "m.pt")
	require.NoError(t, torchio.Save(path, sd))
	got, err := torchio.Load(path)
	require.NoError(t, err)
	assert.Equal(t, sd.Names(), got.Names())

	// A failed Save leaves no file behind.
	bad := torchio.NewStateDict()
	bad.Set("m", tensor.Must(tensor.NewMeta(tensor.Float32, 2)))
	require.Error(t, torchio.Save(path, bad))
	_, err = os.Stat(path)
	assert.True(t, os.IsNotExist(err))
}

// TestWriteForPython writes, when -pydir is given, every fixture re-saved by
// Go and a state dict built in Go (with its expected contents), for
// testdata/check_save.py to load with PyTorch:
//
//	go test ./torchio -run TestWriteForPython -pydir /tmp/gofx-torchio
//	python3 torchio/testdata/check_save.py /tmp/gofx-torchio
func TestWriteForPython(t *testing.T) {
	if *pyDir == "" {
		t.Skip("no -pydir: nothing to write for check_save.py")
	}
	require.NoError(t, os.MkdirAll(*pyDir, 0o755))
	for name := range loadFixtures(t) {
		path := fixtureFile(name)
		if path == "" {
			continue
		}
		sd, err := torchio.Load(path)
		require.NoError(t, err)
		out := filepath.Join(*pyDir, strings.ReplaceAll(name, "/", "__"))
		require.NoError(t, torchio.Save(out, sd))
	}
	sd, want := built(t)
	require.NoError(t, torchio.Save(filepath.Join(*pyDir, "built.pt"), sd))
	b, err := json.MarshalIndent(want, "", " ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(*pyDir, "built.json"), b, 0o644))
}
