package torchio_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

// TestStorageBytes: a storage record is the elements little-endian, a
// bool one byte 0 or 1 (the bytes torch.save writes for these values), and
// StorageBytes gives them from the tensor's own memory: the whole storage
// of a view, shared, not copied.
func TestStorageBytes(t *testing.T) {
	f := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{1, -2}, 2))
	i := tensor.Must(tensor.FromInt64s(tensor.Int64, []int64{258, -1}, 2))
	h := tensor.Must(tensor.FromFloat64s(tensor.Float16, []float64{1}, 1))
	b := tensor.Must(tensor.FromInt64s(tensor.Bool, []int64{1, 0}, 2))
	for _, tt := range []struct {
		name string
		t    *tensor.Tensor
		want []byte
	}{
		{"float32", f, []byte{0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0}},
		{"int64", i, []byte{2, 1, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{"float16", h, []byte{0, 0x3c}},
		{"bool", b, []byte{1, 0}},
	} {
		got, ok := torchio.StorageBytes(tt.t)
		require.True(t, ok, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
	v, err := f.Select(0, 1)
	require.NoError(t, err)
	got, ok := torchio.StorageBytes(v)
	require.True(t, ok)
	assert.Len(t, got, 8, "a view's record is its whole storage")
	tensor.Data[float32](f)[0] = 0
	assert.Equal(t, []byte{0, 0, 0, 0}, got[:4], "shared, not copied")
	_, ok = torchio.StorageBytes(tensor.Must(tensor.NewMeta(tensor.Float32, 2)))
	assert.False(t, ok, "a meta tensor has no storage")
}
