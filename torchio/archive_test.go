package torchio_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/gofx/gofx/torchio/pickle"
)

func TestOpenArchive(t *testing.T) {
	w, err := tensor.FromSlice([]float32{1, 2, 3})
	require.NoError(t, err)
	file := mustStateDictFile(t, w)
	a, err := torchio.OpenArchive(bytes.NewReader(file), int64(len(file)), torchio.Limits{})
	require.NoError(t, err)
	require.Equal(t, "archive/", a.Prefix())
	require.True(t, a.Has("data.pkl"))
	require.False(t, a.Has("constants.pkl"))
	require.Contains(t, a.Records(), "data/0")

	_, err = a.ReadRecord("data.pkl", 4)
	require.ErrorContains(t, err, "exceed the limit")
	_, err = a.ReadRecord("nothing", 100)
	require.ErrorContains(t, err, "archive has no nothing")

	// The tensor globals resolve without a Find; the same pickle read over
	// another storage folder names the record it lacks.
	v, err := a.Unpickle("data.pkl", "data", nil)
	require.NoError(t, err)
	d, ok := v.(*pickle.Dict)
	require.True(t, ok)
	got, _ := d.Get("w")
	require.Equal(t, []float64{1, 2, 3}, got.(*torchio.Parameter).Data.Float64s())
	_, err = a.Unpickle("data.pkl", "constants/", nil)
	require.ErrorContains(t, err, "archive has no constants/0")

	// A caller's Find sees only the globals torchio does not know.
	var asked []string
	_, err = a.Unpickle("data.pkl", "data/", func(module, name string) (pickle.Value, error) {
		asked = append(asked, module+"."+name)
		return nil, pickle.ErrNotAllowed
	})
	require.NoError(t, err)
	require.Empty(t, asked)
}
