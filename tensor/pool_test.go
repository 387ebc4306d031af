package tensor

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRecycle(t *testing.T) {
	epoch := AllocEpoch()
	x := Must(New(Float32, 64, 64))
	k := x.StorageKey()
	assert.Greater(t, k.Born(), epoch, "New numbers its storages")
	v := Must(x.View(4096))
	assert.Equal(t, k, v.StorageKey(), "views share the key")
	Data[float32](x)[7] = 3

	s := Must(FromSlice(make([]float32, 4096)))
	assert.Zero(t, s.StorageKey().Born(), "FromSlice's storage is the caller's")
	Recycle(s.StorageKey())
	assert.NotPanics(t, func() { _ = Data[float32](s) }, "a storage New did not make is left alone")

	small := Must(New(Float32, 8))
	Recycle(small.StorageKey())
	assert.NotPanics(t, func() { _ = Data[float32](small) }, "small buffers are not pooled")

	Recycle(k)
	Recycle(k) // twice is harmless
	assert.Panics(t, func() { _ = Data[float32](v) }, "a stale view fails loudly")

	// The pool may or may not hand the buffer back (sync.Pool): either
	// way New returns zeros.
	for range 3 {
		y := Must(New(Float32, 4096))
		assert.Greater(t, y.StorageKey().Born(), k.Born())
		for _, e := range Data[float32](y) {
			require.Zero(t, e)
		}
		Data[float32](y)[7] = 5
		Recycle(y.StorageKey())
	}
	Recycle(StorageKey{}) // the zero key: a meta tensor's
}

func TestPoolReusesAndIsBounded(t *testing.T) {
	defer SetPoolLimit(SetPoolLimit(DefaultPoolLimit))
	x := Must(New(Float32, 5000))
	buf := &Data[float32](x)[0]
	Data[float32](x)[1] = 7
	Recycle(x.StorageKey())
	y := Must(New(Float32, 5000))
	assert.Same(t, buf, &Data[float32](y)[0], "the recycled buffer is reused")
	assert.Zero(t, Data[float32](y)[1], "and zeroed")
	z := Must(New(Float32, 5000))
	assert.NotSame(t, buf, &Data[float32](z)[0], "a buffer is handed out once")

	// a limit of two buffers: the oldest goes first
	SetPoolLimit(2 * 5000 * 4)
	Recycle(y.StorageKey())
	Recycle(z.StorageKey())
	w := Must(New(Float32, 6000))
	wbuf := &Data[float32](w)[0]
	Recycle(w.StorageKey()) // over the limit: the oldest (y's, then z's) are dropped
	assert.NotSame(t, buf, &Data[float32](Must(New(Float32, 5000)))[0])
	assert.Same(t, wbuf, &Data[float32](Must(New(Float32, 6000)))[0])

	SetPoolLimit(0)
	a := Must(New(Float32, 5000))
	abuf := &Data[float32](a)[0]
	Recycle(a.StorageKey())
	assert.NotSame(t, abuf, &Data[float32](Must(New(Float32, 5000)))[0], "a zero limit keeps nothing")
}

// TestEmptyUninit: EmptyUninit takes a pooled buffer without clearing it
// (a kernel writes every element), while New still clears it.
func TestEmptyUninit(t *testing.T) {
	const n = 4096
	x := Must(New(Float32, n))
	Data[float32](x)[5] = 7
	Recycle(x.StorageKey())
	u := EmptyUninit(Float32, 64, n/64)
	assert.Equal(t, []int{64, n / 64}, u.Shape())
	assert.Equal(t, []int{n / 64, 1}, u.Strides())
	assert.Len(t, Data[float32](u), n)
	Recycle(u.StorageKey())
	z := Must(New(Float32, n))
	assert.Equal(t, float32(0), Data[float32](z)[5], "New clears a pooled buffer")
	assert.Panics(t, func() { EmptyUninit(Float32, -1) })
}
