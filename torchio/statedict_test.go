package torchio_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/gofx/gofx/torchio/pickle"
)

func TestStateDict(t *testing.T) {
	var sd torchio.StateDict // the zero value is ready to use
	a, b, c := tensor.Scalar[float32](1), tensor.Scalar[float32](2), tensor.Scalar[float32](3)
	sd.Set("a", a)
	sd.Set("b", b)
	sd.Set("c", c)
	sd.Set("a", c) // replacing keeps the position
	assert.Equal(t, []string{"a", "b", "c"}, sd.Names())
	got, ok := sd.Get("a")
	assert.True(t, ok)
	assert.Same(t, c, got)
	sd.Delete("b")
	sd.Delete("missing")
	assert.Equal(t, []string{"a", "c"}, sd.Names())
	got, _ = sd.Get("c")
	assert.Same(t, c, got)
	_, ok = sd.Get("b")
	assert.False(t, ok)
	assert.Equal(t, 2, sd.Len())
	var names []string
	for n := range sd.All() {
		names = append(names, n)
		break
	}
	assert.Equal(t, []string{"a"}, names)
	assert.Panics(t, func() { sd.Set("x", nil) })
}

// TestRebuildFromType covers torch._tensor._rebuild_from_type_v2, which
// torch uses for tensors with Python attributes, and torch.Size:
// {"x": _rebuild_from_type_v2(_rebuild_tensor_v2, torch.Tensor,
// (storage, 1, torch.Size((2,)), (1,), True, None), {})}.
func TestRebuildFromType(t *testing.T) {
	var buf bytes.Buffer
	e := pickle.NewEncoder(&buf)
	e.EmptyDict()
	e.Mark()
	e.String("x")
	e.Global("torch._tensor", "_rebuild_from_type_v2")
	e.Mark()
	e.Global("torch._utils", "_rebuild_tensor_v2")
	e.Global("torch", "Tensor")
	e.Mark()
	e.Mark()
	e.String("storage")
	e.Global("torch", "LongStorage")
	e.String("0")
	e.String("cpu")
	e.Int(3)
	e.Tuple()
	e.BinPersID()
	e.Int(1)
	e.Global("torch", "Size")
	e.Mark()
	e.Ints([]int{2})
	e.Tuple()
	e.Reduce()
	e.Ints([]int{1})
	e.Bool(true)
	e.None()
	e.Tuple()
	e.EmptyDict() // the attributes, dropped
	e.Tuple()
	e.Reduce()
	e.SetItems()
	require.NoError(t, e.Stop())
	data := []byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0}
	sd, err := read(archive(t, entry{"data.pkl", buf.Bytes()}, entry{"data/0", data}))
	require.NoError(t, err)
	x, ok := sd.Get("x")
	require.True(t, ok)
	assert.Equal(t, []int64{2, 3}, tensor.Values[int64](x))
}
